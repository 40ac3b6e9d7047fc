import Foundation
import Strata
import StrataSandbox
import StrataTesting
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// An answer as bytes, as text in its charset, as nothing, or decoded — one send path.
@Suite("Response kinds: Data, String, EmptyResponse, decoded")
struct ResponseKindsTests {
  static func answering(_ body: [UInt8], contentType: String) -> MockTransport {
    MockTransport { request, _ in
      let url = request.url ?? URL(fileURLWithPath: "/")
      guard
        let response = HTTPURLResponse(
          url: url, statusCode: 200, httpVersion: "HTTP/1.1",
          headerFields: ["Content-Type": contentType])
      else { throw URLError(.badServerResponse) }
      return (Data(body), response)
    }
  }

  @Test func bytesComeAsTheyAreAndAskForAnything() async throws {
    let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x00, 0xFF, 0x0A]
    let transport = Self.answering(png, contentType: "image/png")
    let value = try await makeService(transport).send(Request<Data>(path: "icon")).value
    #expect(value == Data(png))
    #expect(transport.requests.first?.value(forHTTPHeaderField: "Accept") == "*/*")
  }

  @Test func textIsReadInTheAnswersCharset() async throws {
    let latin1 = Self.answering(
      [0x47, 0x72, 0xFC, 0xDF, 0x65], contentType: "text/plain; charset=ISO-8859-1")
    #expect(try await makeService(latin1).send(Request<String>(path: "t")).value == "Grüße")
    let utf8 = Self.answering(Array("Grüße".utf8), contentType: "text/plain")
    #expect(try await makeService(utf8).send(Request<String>(path: "t")).value == "Grüße")
  }

  @Test func textThatIsNotInItsCharsetIsADecodingError() async throws {
    let broken = Self.answering([0x61, 0xFF, 0xFE], contentType: "text/plain; charset=utf-8")
    let error = await networkError {
      _ = try await makeService(broken).send(Request<String>(path: "t"))
    }
    guard case .decoding(let failure) = error?.kind else {
      Issue.record("expected a decoding error, got \(String(describing: error))")
      return
    }
    #expect(failure.status == 200 && failure.reason == "not text in utf-8")
  }

  /// The sandbox's icons (DummyJSON's `/icon/:name/:size`): a PNG kept by the HTTP cache for
  /// the year its `Cache-Control` gives — the second read sends nothing.
  @Test func anImageIsKeptByTheHTTPCache() async throws {
    try await withSandbox { server in
      var options = NetworkOptions(
        baseURL: server.baseURL, deadline: .seconds(300), retryPolicy: .none)
      options.cache = HTTPCache()
      let network = NetworkService(options: options, transport: URLSessionTransport())
      let progress = ProgressLog()
      let first = try await network.send(
        Request<Data>(path: "icon/emilys/128"), progress: progress.report)
      #expect(first.value.starts(with: [0x89, 0x50, 0x4E, 0x47]) && first.source == .network)
      let size = Int64(first.value.count)
      #expect(
        progress.last == TransferProgress(.receiving, completed: size, total: size),
        "progress as it arrived")
      let again = ProgressLog()
      let second = try await network.send(
        Request<Data>(path: "icon/emilys/128"), progress: again.report)
      #expect(again.all.isEmpty, "nothing from the cache")
      guard case .cache = second.source else {
        Issue.record("the second read was \(second.source)")
        return
      }
      #expect(second.value == first.value)
      #expect(server.journal.count(method: "GET", path: "/icon/emilys/128") == 1)
    }
  }

  /// A download of an icon cut by the sandbox resumes with `Range` against its strong `ETag`.
  @Test func aDownloadFromTheSandboxResumesWithARange() async throws {
    try await withSandbox { server in
      server.faults.add(.init(method: "GET", path: "/icon/emilys/300", action: .truncateBody))
      let network = NetworkService(
        options: NetworkOptions(baseURL: server.baseURL, deadline: .seconds(300)),
        transport: URLSessionTransport(), clock: ManualClock())
      let folder = NSTemporaryDirectory() + "strata-icon-\(UUID().uuidString)"
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
      defer { try? FileManager.default.removeItem(atPath: folder) }
      let file = URL(fileURLWithPath: folder + "/emilys.png")
      _ = try await network.download(Download(Request(path: "icon/emilys/300"), to: file))
      let whole = try await network.send(Request<Data>(path: "icon/emilys/300")).value
      #expect(try Data(contentsOf: file) == whole)
      let asked = server.journal.entries.filter { $0.path == "/icon/emilys/300" }
      #expect(asked.count == 3, "cut, resumed, then read whole")
      #expect(asked[1].header("Range")?.hasPrefix("bytes=") == true)
      #expect(asked[1].header("If-Range")?.hasPrefix("\"") == true, "a strong ETag")
    }
  }
}
