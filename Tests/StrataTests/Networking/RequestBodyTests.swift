import Foundation
import StrataConcurrency
import StrataTesting
import Testing

@testable import Strata

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Bodies beyond JSON: a form, bytes, a file and a multipart form — what goes on the wire, a
/// retry sending the whole body again, and no secret of a form in a log.
@Suite("Request bodies: form, bytes, file, multipart")
struct RequestBodyTests {
  /// What a mock transport was given as the body (it reads a streamed one whole).
  static func sentBody(_ request: URLRequest) -> Data { request.httpBody ?? Data() }

  @Test func aFormIsPercentEncodedInOrder() async throws {
    let transport = MockTransport.successful(json: "{}")
    let body = RequestBody.form([
      ("grant_type", "password"), ("username", "emily j"), ("password", "p&w=1+2"),
    ])
    _ = try await makeService(transport).send(
      Request<EmptyResponse>(path: "token", method: .post, body: body))
    let sent = try #require(transport.requests.first)
    #expect(
      String(decoding: Self.sentBody(sent), as: UTF8.self)
        == "grant_type=password&username=emily%20j&password=p%26w%3D1%2B2")
    #expect(sent.value(forHTTPHeaderField: "Content-Type") == "application/x-www-form-urlencoded")
  }

  @Test func bytesGoAsTheyAreWithTheirType() async throws {
    let transport = MockTransport.successful(json: "{}")
    let bytes = Data([0, 1, 2, 255])
    _ = try await makeService(transport).send(
      Request<EmptyResponse>(
        path: "blob", method: .put, body: .bytes(bytes, contentType: "application/octet-stream")))
    let sent = try #require(transport.requests.first)
    #expect(Self.sentBody(sent) == bytes)
    #expect(sent.value(forHTTPHeaderField: "Content-Type") == "application/octet-stream")
  }

  /// A transport of an app's (here the mock) reads a file body in pieces as it sends it: the
  /// bytes arrive, and the call's progress says each piece taken, then the answer.
  @Test func aTransportOfAnAppsReadsTheFileInPieces() async throws {
    let folder = try TemporaryDirectory()
    let bytes = (0..<70_000).map { UInt8($0 % 253) }
    let file = try folder.write("upload.bin", bytes: bytes)
    let transport = MockTransport.successful(json: #"{"ok":true}"#)
    let progress = ProgressLog()
    _ = try await makeService(transport).send(
      Request<EmptyResponse>(
        path: "upload", method: .post,
        body: .file(URL(fileURLWithPath: file), contentType: "application/octet-stream")),
      progress: progress.report)
    let sent = try #require(transport.requests.first)
    #expect(Self.sentBody(sent) == Data(bytes))
    let size = Int64(bytes.count)
    #expect(
      progress.all == [
        TransferProgress(.sending, completed: 65_536, total: size),
        TransferProgress(.sending, completed: size, total: size),
        TransferProgress(.receiving, completed: 11, total: 11),
      ])
  }

  /// A multipart form with a file: each attempt streams it whole from the start (a 503, then
  /// a 200 to the same key), and the temporary file it was assembled in is gone afterwards.
  @Test func aMultipartFormIsStreamedWholeOnEveryAttempt() async throws {
    let folder = try TemporaryDirectory()
    let photo = try folder.write("photo.jpg", bytes: (0..<300_000).map { UInt8($0 % 251) })
    var form = MultipartForm()
    form.add("caption", "Dinner \"out\"")
    form.add("photo", file: URL(fileURLWithPath: photo), contentType: "image/jpeg")
    let bodies = Lock<[Data]>([])
    let transport = MockTransport { request, index in
      bodies.withLock { $0.append(Self.sentBody(request)) }
      return try MockTransport.response(request, status: index == 1 ? 503 : 200)
    }
    _ = try await makeService(transport).send(
      Request<EmptyResponse>(
        path: "photos", method: .post, body: .multipart(form), idempotencyKey: "K1"))
    let sent = bodies.withLock { $0 }
    #expect(sent.count == 2 && sent[0] == sent[1] && !sent[0].isEmpty)
    let text = String(decoding: sent[0].prefix(400), as: UTF8.self)
    #expect(
      text.hasPrefix("--\(form.boundary)\r\nContent-Disposition: form-data; name=\"caption\""))
    #expect(text.contains("\r\n\r\nDinner \"out\"\r\n"))
    #expect(text.contains("name=\"photo\"; filename=\"photo.jpg\"\r\nContent-Type: image/jpeg"))
    #expect(sent[0].range(of: try Data(contentsOf: URL(fileURLWithPath: photo))) != nil)
    #expect(sent[0].suffix(form.boundary.count + 6) == Data("--\(form.boundary)--\r\n".utf8))
    let header = transport.requests[0].value(forHTTPHeaderField: "Content-Length")
    #expect(header == String(sent[0].count))
    let left = try FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory())
    #expect(!left.contains { $0.hasPrefix("strata-multipart-") && $0.contains(form.boundary) })
  }

  /// Through the real URLSession: a file uploaded as a multipart part reaches the server whole,
  /// framed by the `Content-Length` the service set.
  @Test func aFileReachesTheServerWhole() async throws {
    let folder = try TemporaryDirectory()
    let content = (0..<2_000_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
    let file = try folder.write("video.bin", bytes: content)
    let server = try CannedHTTPServer(
      response: Array("HTTP/1.1 201 Created\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8)
    )
    var form = MultipartForm()
    form.add("video", file: URL(fileURLWithPath: file), contentType: "video/mp4")
    let network = makeService(URLSessionTransport(), baseURL: server.baseURL.absoluteString)
    let request = Request<EmptyResponse>(path: "upload", method: .post, body: .multipart(form))
    let progress = ProgressLog()
    let answer = try await network.send(request, progress: progress.report)
    #expect(answer.status == 201)
    let received = Data(try #require(server.requestBodies.first))
    let size = Int64(received.count)
    let sent = progress.all.filter { $0.direction == .sending }
    #expect(sent.last == TransferProgress(.sending, completed: size, total: size))
    #expect(progress.all.prefix(sent.count) == sent[...], "the body's bytes before the answer's")
    #expect(!server.requestHeads[0].lowercased().contains("transfer-encoding"), "framed by length")
    #expect(received.range(of: Data(content)) != nil)
    #expect(received.count > content.count && received.count < content.count + 400)
  }

  /// At trace level, every body is logged without its secrets: a form's secret fields are
  /// replaced, a multipart form (whatever its parts say) is never read into the log.
  @Test func noBodySecretReachesATraceLog() async throws {
    let secret = "hunter-\(UUID().uuidString.prefix(8))"
    var form = MultipartForm()
    form.add("password", secret)
    let capture = CapturingLogSink()
    let network = makeService(MockTransport.successful(json: "{}"))
    try await Log.withScope(sink: capture, levels: .all) {
      _ = try await network.send(
        Request<EmptyResponse>(
          path: "token", method: .post, body: .form([("user", "e"), ("password", secret)])))
      _ = try await network.send(
        Request<EmptyResponse>(path: "up", method: .post, body: .multipart(form)))
    }
    #expect(capture.text.contains("request body: user=e&password=<redacted>"))
    #expect(capture.text.contains("streamed>"))
    #expect(!capture.text.contains(secret))
  }

  /// A form's secret fields never reach a log; the others stay readable.
  @Test func aFormsSecretsAreRedacted() {
    let shown = Redactor.standard.redact(
      form: Data("username=emilys&password=hunter%262&client_secret=abc&scope=read".utf8))
    #expect(shown == "username=emilys&password=<redacted>&client_secret=<redacted>&scope=read")
  }
}

/// A multipart body is staged privately: in the service's staging directory (made 0700),
/// 0600, never in the shared temporary directory; gone when the call ends; and what a killed
/// process left is swept by the next process's first service.
@Suite("Multipart staging is private")
struct MultipartStagingTests {
  static func service(_ staging: String, _ transport: MockTransport) -> NetworkService {
    var options = NetworkOptions(baseURL: URL(string: "https://api.example")!)
    options.stagingDirectory = staging
    return NetworkService(options: options, transport: transport)
  }

  @Test func theBodyWaitsInAPrivateFileThatGoesWithTheCall() async throws {
    let folder = try TemporaryDirectory()
    let staging = folder.path + "/cache/app/staging"
    let seen = Lock<[(name: String, mode: Int, directoryMode: Int)]>([])
    let transport = MockTransport { request, _ in
      let names = (try? FileManager.default.contentsOfDirectory(atPath: staging)) ?? []
      for name in names {
        let mode =
          try FileManager.default.attributesOfItem(atPath: staging + "/" + name)[
            .posixPermissions] as? Int
        let directory =
          try FileManager.default.attributesOfItem(atPath: staging)[
            .posixPermissions] as? Int
        seen.withLock { $0.append((name, mode ?? -1, directory ?? -1)) }
      }
      return try MockTransport.response(request, status: 200)
    }
    var form = MultipartForm()
    form.add("client_secret", "cs-very-secret")
    let before = Set(try FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory()))
    _ = try await Self.service(staging, transport).send(
      Request<EmptyResponse>(path: "up", method: .post, body: .multipart(form)))
    let staged = seen.withLock { $0 }
    #expect(staged.count == 1)
    #expect(staged.first?.name.hasPrefix("multipart-\(getpid())-") == true)
    #expect(staged.first?.mode == 0o600 && staged.first?.directoryMode == 0o700)
    #expect(try FileManager.default.contentsOfDirectory(atPath: staging).isEmpty, "removed")
    let shared = Set(try FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory()))
    #expect(!shared.subtracting(before).contains { $0.contains("multipart") })
  }

  /// A link where the staging directory goes: refused, nothing written through it.
  @Test func aLinkAtTheStagingDirectoryIsRefused() async throws {
    let folder = try TemporaryDirectory()
    let elsewhere = folder.path + "/elsewhere"
    try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: false)
    try FileManager.default.createSymbolicLink(
      atPath: folder.path + "/staging", withDestinationPath: elsewhere)
    let transport = MockTransport { request, _ in try MockTransport.response(request, status: 200) }
    var form = MultipartForm()
    form.add("a", "b")
    let error = await networkError {
      _ = try await Self.service(folder.path + "/staging", transport).send(
        Request<EmptyResponse>(path: "up", method: .post, body: .multipart(form)))
    }
    #expect(error.map { "\($0)" }?.contains("symbolic link") == true)
    #expect(transport.requestCount == 0)
    #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere).isEmpty)
  }

  /// Leftovers of a process that is gone, or older than a day, go at the next start; a live
  /// process's fresh one stays.
  @Test func leftoversOfGoneProcessesAreSwept() throws {
    let folder = try TemporaryDirectory()
    #expect(PrivateFile.makeDirectory(folder.path + "/s") == nil)
    let gone = folder.path + "/s/multipart-999999999-A"
    let live = folder.path + "/s/multipart-\(getpid())-B"
    let old = folder.path + "/s/multipart-\(getpid())-C"
    for path in [gone, live, old] {
      #expect(FileManager.default.createFile(atPath: path, contents: nil))
    }
    try FileManager.default.setAttributes(
      [.modificationDate: Date(timeIntervalSinceNow: -2 * 86_400)], ofItemAtPath: old)
    StagingArea(directory: folder.path + "/s").sweepLeftovers()
    #expect(!FileManager.default.fileExists(atPath: gone))
    #expect(!FileManager.default.fileExists(atPath: old))
    #expect(FileManager.default.fileExists(atPath: live))
  }

  /// A field name or file name with `"`, CR or LF cannot end its header early.
  @Test func namesCannotBreakOutOfTheirHeader() async throws {
    let folder = try TemporaryDirectory()
    let bodies = Lock<[Data]>([])
    let transport = MockTransport { request, _ in
      if let data = request.httpBody { bodies.withLock { $0.append(data) } }
      return try MockTransport.response(request, status: 200)
    }
    var form = MultipartForm()
    form.add("a\"\r\nX-Injected: 1", "v")
    form.add("f", data: Data("x".utf8), filename: "evil\".txt\r\nX: y", contentType: "text/plain")
    _ = try await Self.service(folder.path + "/s", transport).send(
      Request<EmptyResponse>(path: "up", method: .post, body: .multipart(form)))
    let text = String(decoding: try #require(bodies.withLock { $0.first }), as: UTF8.self)
    #expect(text.contains("name=\"a%22%0D%0AX-Injected: 1\""))
    #expect(text.contains("filename=\"evil%22.txt%0D%0AX: y\""))
    #expect(!text.contains("\r\nX-Injected") && !text.contains("\r\nX: y"))
  }
}
