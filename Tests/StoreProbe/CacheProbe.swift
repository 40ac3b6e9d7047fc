import Foundation
import Strata
import StrataConcurrency

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Keeps answers in an on-disk HTTP cache as fast as it can, for the cache's crash test to
/// kill mid-write. The server is in-process: its N-th answer for `/items/K` is
/// `{"id":K,"version":N,"fill":"…"}` with 64 KiB of the letter for N, fresh for an hour; each
/// fetch asks it again (a refresh), so the files are replaced as well as added.
enum CacheProbe {
  static let items = 40

  /// Answers every request at once, as described above.
  final class Server: HTTPTransport {
    private let versions = Lock<[Int: Int]>([:])

    func send(_ request: URLRequest, body: HTTPBody?, limits: TransferLimits) async throws -> (
      HTTPURLResponse, HTTPBody
    ) {
      guard let url = request.url, let id = Int(url.lastPathComponent),
        let response = HTTPURLResponse(
          url: url, statusCode: 200, httpVersion: "HTTP/1.1",
          headerFields: ["Content-Type": "application/json", "Cache-Control": "max-age=3600"])
      else { throw URLError(.badURL) }
      let version = versions.withLock { versions in
        versions[id, default: 0] += 1
        return versions[id, default: 0]
      }
      return (response, HTTPBody(Data(CacheProbe.body(id: id, version: version).utf8)))
    }
  }

  static func letter(_ version: Int) -> Character {
    Character(UnicodeScalar(UInt8(ascii: "a") + UInt8(version % 26)))
  }

  static func body(id: Int, version: Int) -> String {
    #"{"id":\#(id),"version":\#(version),"fill":""#
      + String(repeating: letter(version), count: 64 << 10) + #""}"#
  }

  static func run(root: String) async throws {
    guard let api = URL(string: "https://api.example"), let origin = Origin(api) else { return }
    var options = NetworkOptions(baseURL: api)
    options.cache = HTTPCache(
      app: "strata-probe", origin: origin, maxBytes: 16 << 20,
      environment: ["XDG_CACHE_HOME": root, "HOME": root])
    let service = NetworkService(options: options, transport: Server())
    var number = 0
    while true {
      number += 1
      // Kept as it came; not decoded here (the test reads it back).
      var request = Request<EmptyResponse>(path: "items/\(number % items)")
      request.cachePolicy = .revalidate
      _ = try await service.send(request)
      say("stored \(number)")
    }
  }
}
