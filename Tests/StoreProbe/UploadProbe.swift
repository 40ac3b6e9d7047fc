import Foundation
import Strata

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Sends a multipart form staged in `DIRECTORY` to a transport that never answers, printing
/// "staged" once the request is in the transport (the body is on disk), for the crash test to
/// kill it there.
enum UploadProbe {
  /// Takes the request and never answers.
  final class Silent: HTTPTransport {
    func send(_ request: URLRequest, body: HTTPBody?, limits: TransferLimits) async throws -> (
      HTTPURLResponse, HTTPBody
    ) {
      say("staged")
      while true { try await Task.sleep(for: .seconds(1000)) }
    }
  }

  static func run(staging: String) async throws {
    var options = NetworkOptions(baseURL: URL(string: "https://api.example")!)
    options.stagingDirectory = staging
    var form = MultipartForm()
    form.add("client_secret", "cs-probe-secret")
    form.add("file", data: Data(count: 1 << 20), filename: "a.bin", contentType: "x/y")
    let network = NetworkService(options: options, transport: Silent())
    _ = try await network.send(
      Request<Data>(path: "upload", method: .post, body: .multipart(form)))
  }
}
