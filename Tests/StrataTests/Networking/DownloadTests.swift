import Foundation
import Strata
import StrataTesting
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Downloads to a file through the real URLSession against hostile loopback servers: a body
/// cut short, a server that ignores `Range`, a file that changed, a `206` from the wrong
/// offset, a lying `Content-Length`, a body over the size limit. Backoff runs on a manual clock.
@Suite("Downloads: streamed to a file, resumed, restarted")
struct DownloadTests {
  /// 1 MiB that differs at every offset: a prefix spliced to the wrong rest shows.
  static let body = (0..<1_048_576).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 11) }
  static let half = body.count / 2

  static func head(_ status: String, _ fields: [String]) -> [UInt8] {
    Array(
      ("HTTP/1.1 \(status)\r\n" + (fields + ["Connection: close"]).joined(separator: "\r\n")
        + "\r\n\r\n").utf8)
  }

  /// The whole body (`Content-Length` may lie), cut after `cut` bytes when given.
  static func whole(
    _ body: [UInt8] = body, etag: String = "\"v1\"", length: Int? = nil, cut: Int? = nil
  ) -> [UInt8] {
    head("200 OK", ["Content-Length: \(length ?? body.count)", "ETag: \(etag)"])
      + body.prefix(cut ?? body.count)
  }

  /// `body` from `start`, as a `206`.
  static func partial(from start: Int, etag: String = "\"v1\"") -> [UInt8] {
    head(
      "206 Partial Content",
      [
        "Content-Length: \(body.count - start)", "ETag: \(etag)",
        "Content-Range: bytes \(start)-\(body.count - 1)/\(body.count)",
      ]) + body[start...]
  }

  /// The `Range` start a request head asks for, if any.
  static func rangeStart(_ head: String) -> Int? {
    let line = head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("range: bytes=") }
    return line.flatMap { Int($0.dropFirst("range: bytes=".count).prefix { $0 != "-" }) }
  }

  static func code(_ error: NetworkError?) -> URLError.Code? {
    if case .transport(let failure) = error?.kind { return failure.code }
    return nil
  }

  static func service(_ server: CannedHTTPServer, policy: RetryPolicy = .default)
    -> NetworkService
  {
    makeService(URLSessionTransport(), policy: policy, baseURL: server.baseURL.absoluteString)
  }

  /// A cut at half: the retry asks for the rest (`Range` + `If-Range`), gets a `206`, and the
  /// file is whole; what was sent again is the other half. Progress ends at the whole.
  @Test func aCutDownloadResumesOnTheRetry() async throws {
    let server = try CannedHTTPServer { head, number in
      guard number > 0 else { return Self.whole(cut: Self.half) }
      guard let start = Self.rangeStart(head), head.contains("If-Range: \"v1\"") else {
        return Self.whole()
      }
      return Self.partial(from: start)
    }
    let folder = try TemporaryDirectory()
    let file = URL(fileURLWithPath: folder.path + "/file.bin")
    let progress = ProgressLog()
    let saved = try await Self.service(server).download(
      Download(Request(path: "file.bin"), to: file), progress: progress.report)
    #expect(saved.value == file && saved.status == 206)
    #expect(try Data(contentsOf: file) == Data(Self.body))
    #expect(server.requests == 2 && Self.rangeStart(server.requestHeads[1]) == Self.half)
    #expect(Double(Self.body.count - Self.half) / Double(Self.body.count) <= 0.55)
    let size = Int64(Self.body.count)
    #expect(progress.last == TransferProgress(.receiving, completed: size, total: size))
    #expect(progress.all.allSatisfy { $0.direction == .receiving && $0.total == size })
    #expect(progress.all.map(\.completed) == progress.all.map(\.completed).sorted())
    #expect(!FileManager.default.fileExists(atPath: file.path + ".part"))
  }

  /// Without retries the cut fails the call, and leaves the part: the next run (a new service,
  /// as after the process was killed) resumes from it.
  @Test func aPartLeftBehindIsResumedByTheNextRun() async throws {
    let server = try CannedHTTPServer { head, number in
      guard number > 0 else { return Self.whole(cut: Self.half) }
      return Self.rangeStart(head).map { Self.partial(from: $0) } ?? Self.whole()
    }
    let folder = try TemporaryDirectory()
    let file = URL(fileURLWithPath: folder.path + "/file.bin")
    let download = Download(Request(path: "file.bin"), to: file)
    let failed = await networkError {
      _ = try await Self.service(server, policy: .none).download(download)
    }
    #expect(Self.code(failed) == .networkConnectionLost)
    #expect(!FileManager.default.fileExists(atPath: file.path))
    let part = try Data(contentsOf: URL(fileURLWithPath: file.path + ".part"))
    #expect(part.count == Self.half)
    _ = try await Self.service(server, policy: .none).download(download)
    #expect(try Data(contentsOf: file) == Data(Self.body))
    #expect(Self.rangeStart(server.requestHeads[1]) == Self.half)
  }

  /// A file that changed since the part was written: the server, honouring `If-Range`, sends
  /// the new one whole (`200`), which replaces the part rather than finishing it.
  @Test func aChangedFileStartsOver() async throws {
    let changed = Self.body.reversed() as [UInt8]
    let server = try CannedHTTPServer { _, number in
      number == 0 ? Self.whole(cut: Self.half) : Self.whole(changed, etag: "\"v2\"")
    }
    let folder = try TemporaryDirectory()
    let file = URL(fileURLWithPath: folder.path + "/file.bin")
    _ = try await Self.service(server).download(Download(Request(path: "f"), to: file))
    #expect(try Data(contentsOf: file) == Data(changed))
    #expect(Self.rangeStart(server.requestHeads[1]) == Self.half)
  }

  /// A server that ignores `Range` sends the whole file again: it is written from the start,
  /// not after the part.
  @Test func aServerThatIgnoresRangeGivesTheWholeFileOnce() async throws {
    let server = try CannedHTTPServer { _, number in
      number == 0 ? Self.whole(cut: Self.half) : Self.whole()
    }
    let folder = try TemporaryDirectory()
    let file = URL(fileURLWithPath: folder.path + "/file.bin")
    _ = try await Self.service(server).download(Download(Request(path: "f"), to: file))
    #expect(try Data(contentsOf: file) == Data(Self.body))
  }

  /// A `206` that does not continue the part (another offset) is not spliced on: the part is
  /// dropped and the file asked for whole.
  @Test func aPartialAnswerFromTheWrongOffsetStartsOver() async throws {
    let server = try CannedHTTPServer { head, number in
      if number == 0 { return Self.whole(cut: Self.half) }
      return Self.rangeStart(head) != nil ? Self.partial(from: 1000) : Self.whole()
    }
    let folder = try TemporaryDirectory()
    let file = URL(fileURLWithPath: folder.path + "/file.bin")
    _ = try await Self.service(server).download(Download(Request(path: "f"), to: file))
    #expect(try Data(contentsOf: file) == Data(Self.body))
    #expect(server.requests == 3 && Self.rangeStart(server.requestHeads[2]) == nil)
  }

  /// A part left by a download of another URL to the same file is not continued: the next
  /// download asks for its own file whole.
  @Test func aPartOfAnotherURLIsNotResumed() async throws {
    let server = try CannedHTTPServer { head, number in
      guard number > 0 else { return Self.whole(cut: Self.half) }
      return Self.rangeStart(head).map { Self.partial(from: $0) } ?? Self.whole()
    }
    let folder = try TemporaryDirectory()
    let file = URL(fileURLWithPath: folder.path + "/file.bin")
    _ = await networkError {
      _ = try await Self.service(server, policy: .none).download(
        Download(Request(path: "old.bin"), to: file))
    }
    _ = try await Self.service(server, policy: .none).download(
      Download(Request(path: "new.bin"), to: file))
    #expect(Self.rangeStart(server.requestHeads[1]) == nil, "no Range for another URL")
    #expect(try Data(contentsOf: file) == Data(Self.body))
  }

  /// A `206` whose validator is not the part's, or whose total is not the part's file's, is
  /// another file's rest: the part is dropped and the file asked for whole.
  @Test(arguments: [("\"v2\"", nil), ("\"v1\"", 999)] as [(String, Int?)])
  func aPartialAnswerOfAnotherVersionStartsOver(etag: String, total: Int?) async throws {
    let server = try CannedHTTPServer { head, number in
      if number == 0 { return Self.whole(cut: Self.half) }
      guard let start = Self.rangeStart(head) else { return Self.whole() }
      var answer = Self.partial(from: start, etag: etag)
      if let total {
        let text = String(decoding: answer.prefix(400), as: UTF8.self)
        let patched = text.replacingOccurrences(
          of: "/\(Self.body.count)\r\n", with: "/\(total)\r\n")
        answer = Array(patched.utf8) + answer.dropFirst(400)
      }
      return answer
    }
    let folder = try TemporaryDirectory()
    let file = URL(fileURLWithPath: folder.path + "/file.bin")
    _ = try await Self.service(server).download(Download(Request(path: "f"), to: file))
    #expect(try Data(contentsOf: file) == Data(Self.body))
    #expect(server.requests == 3 && Self.rangeStart(server.requestHeads[2]) == nil)
  }

  /// A server that refuses every part it is asked for (`416`) cannot hold a download in a
  /// loop: it starts over twice, then fails with one sentence.
  @Test func aServerThatRefusesEveryPartEndsAfterTwoRestarts() async throws {
    let server = try CannedHTTPServer { head, _ in
      Self.rangeStart(head) == nil
        ? Self.whole(cut: Self.half)
        : Self.head("416 Range Not Satisfiable", ["Content-Range: bytes */\(Self.body.count)"])
    }
    let folder = try TemporaryDirectory()
    let file = URL(fileURLWithPath: folder.path + "/file.bin")
    let error = await #expect(throws: NetworkError.self) {
      _ = try await Self.service(server, policy: RetryPolicy(maxRetries: 10)).download(
        Download(Request(path: "f"), to: file))
    }
    // Cut, 416 (restart 1), cut, 416 (restart 2), cut, 416: no restart left.
    #expect(server.requests == 6)
    #expect(error?.description.contains("does not continue the file") == true)
    #expect(!FileManager.default.fileExists(atPath: file.path))
  }

  /// A `Content-Length` longer than what is sent is a cut every time: the call fails after its
  /// retries, and no file takes the destination's name.
  @Test func aLyingContentLengthNeverBecomesTheFile() async throws {
    let server = try CannedHTTPServer { head, _ in
      let start = Self.rangeStart(head) ?? 0
      return Self.rangeStart(head) == nil
        ? Self.whole(length: Self.body.count + 1000)
        : Self.head(
          "206 Partial Content",
          [
            "Content-Length: \(Self.body.count + 1000 - start)", "ETag: \"v1\"",
            "Content-Range: bytes \(start)-\(Self.body.count + 999)/\(Self.body.count + 1000)",
          ]) + Self.body[min(start, Self.body.count)...]
    }
    let folder = try TemporaryDirectory()
    let file = URL(fileURLWithPath: folder.path + "/file.bin")
    let error = await networkError {
      _ = try await Self.service(server).download(Download(Request(path: "f"), to: file))
    }
    #expect(Self.code(error) == .networkConnectionLost)
    #expect(server.requests == 4, "the try and 3 retries, each resuming")
    #expect(!FileManager.default.fileExists(atPath: file.path))
  }

  /// The size limit holds while the body streams in, with no length announced.
  @Test func theSizeLimitHoldsWhileStreaming() async throws {
    let server = try CannedHTTPServer(
      response: Self.head("200 OK", ["ETag: \"v1\""]) + Self.body)
    let folder = try TemporaryDirectory()
    let file = URL(fileURLWithPath: folder.path + "/file.bin")
    var request = Request<Data>(path: "f")
    request.maxResponseSize = 100_000
    let error = await networkError {
      _ = try await Self.service(server).download(Download(request, to: file))
    }
    #expect(error?.kind == .responseTooLarge(limit: 100_000))
    #expect(!FileManager.default.fileExists(atPath: file.path))
  }

  /// A file announced over the limit is refused at its head: nothing of it is written. One
  /// announced at exactly the limit is taken whole.
  @Test(arguments: [false, true])
  func aFileAnnouncedOverTheLimitIsRefusedAtItsHead(atTheLimit: Bool) async throws {
    let server = try CannedHTTPServer(response: Self.whole())
    let folder = try TemporaryDirectory()
    let file = URL(fileURLWithPath: folder.path + "/file.bin")
    var request = Request<Data>(path: "f")
    request.maxResponseSize = atTheLimit ? Self.body.count : 100_000
    let error = await networkError {
      _ = try await Self.service(server).download(Download(request, to: file))
    }
    guard !atTheLimit else {
      #expect(error == nil)
      #expect(try Data(contentsOf: file).count == Self.body.count)
      return
    }
    #expect(error?.kind == .responseTooLarge(limit: 100_000))
    let left = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    #expect(left.allSatisfy { !$0.hasSuffix(".part") } && !left.contains("file.bin"), "\(left)")
  }

  /// A download that needs the session goes through its renewal: the token is rejected
  /// (401), refreshed once, and the replay's body is the file — the 401's body is not.
  @Test func aRejectedTokenIsRenewedAndTheReplayIsTheFile() async throws {
    let refresher = CountingRefresher()
    let session = AuthSession(
      origin: exampleOrigin, store: InMemoryTokenStore(oldCredentials), refresh: refresher.refresh)
    let folder = try TemporaryDirectory()
    let file = URL(fileURLWithPath: folder.path + "/me.json")
    var request = Request<Data>(path: "auth/me", requiresAuth: true)
    request.maxResponseSize = 1_000
    _ = try await makeService(acceptingTokens(["tok-new-1"]), authenticator: session).download(
      Download(request, to: file))
    #expect(try Data(contentsOf: file) == Data(userJSON.utf8))
    #expect(refresher.count == 1)
  }

  /// A file that cannot be written (a directory that does not exist) is a clear error, found
  /// before anything is sent.
  @Test func anUnwritableDestinationIsAClearError() async throws {
    let server = try CannedHTTPServer(response: Self.whole())
    let file = URL(fileURLWithPath: "/nonexistent-\(UUID().uuidString)/file.bin")
    do {
      _ = try await Self.service(server).download(Download(Request(path: "f"), to: file))
      Issue.record("written to a directory that does not exist")
    } catch let error as FileError {
      #expect("\(error)".contains("No such file or directory"))
    }
    #expect(server.requests == 0)
  }
}
