import Foundation
import Strata
import StrataConcurrency
import StrataSandbox
import StrataTesting
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A transport of an app's that only forwards to `URLSessionTransport`, counting exchanges:
/// what the one requirement gives every decorator.
private struct Forwarding: HTTPTransport {
  let base = URLSessionTransport()
  let sent = AtomicInt(0)

  func send(_ request: URLRequest, body: HTTPBody?, limits: TransferLimits) async throws
    -> (HTTPURLResponse, HTTPBody)
  {
    _ = sent.add(1)
    return try await base.send(request, body: body, limits: limits)
  }
}

/// Streams, downloads and limits through a forwarding decorator, over the real URLSession.
@Suite struct DecoratedTransportTests {
  /// The event feed never ends by itself: an event arrives only if the decorator streams.
  @Test(.timeLimit(.minutes(2))) func eachEventArrivesThroughADecoratorBeforeTheStreamEnds()
    async throws
  {
    var configuration = SandboxServer.Configuration()
    configuration.keepsWrites = true
    try await withSandbox(configuration) { server in
      let forwarding = Forwarding()
      let service = sandboxService(server, transport: forwarding)
      let writer = Task {
        try await waitUntil("a stream connected") {
          server.journal.entries.contains { $0.path == "/events" }
        }
        _ = try await sandboxService(server).send(
          Request<EmptyResponse>(
            path: "posts/add", method: .post, body: .json(["title": "Live", "userId": "1"])))
      }
      defer { writer.cancel() }
      var first: ServerSentEvent?
      for try await event in service.stream(
        Request<Data>(path: "events?heartbeat=20"), as: .events())
      {
        first = event
        break
      }
      #expect(first?.type == "posts.kept")
      #expect(forwarding.sent.load() == 1)
    }
  }

  /// 20 MB to a file through the decorator, over the 10 MiB limit of a body read whole: the
  /// file takes it as it comes, whole; the same answer read whole is refused at its head.
  @Test func aDownloadThroughADecoratorGoesToItsFileAndAWholeReadKeepsItsLimit()
    async throws
  {
    let size = 20_000_000
    let body = [UInt8](repeating: UInt8(ascii: "z"), count: size)
    let head =
      "HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\n"
      + "X-Content-Type-Options: nosniff\r\nContent-Length: \(size)\r\n\r\n"
    let server = try CannedHTTPServer(response: Array(head.utf8) + body)
    let folder = try TemporaryDirectory()
    let destination = URL(fileURLWithPath: folder.path + "/big.bin")
    var options = NetworkOptions(baseURL: server.baseURL, deadline: .seconds(300))
    options.retryPolicy = .none
    let service = NetworkService(options: options, transport: Forwarding())
    _ = try await service.download(
      Download(
        Request<Data>(path: "big", maxResponseSize: 64 << 20), to: destination),
      progress: nil)
    let written = try FileManager.default.attributesOfItem(atPath: destination.path)[.size]
    #expect((written as? Int) == size)
    let error = await networkError { _ = try await service.send(Request<Data>(path: "big")) }
    #expect(error?.kind == .responseTooLarge(limit: NetworkOptions.defaultMaxResponseSize))
  }
}
