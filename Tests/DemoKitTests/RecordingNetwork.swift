import Strata
import StrataConcurrency

/// A `Networking` double that records endpoint paths and fails every call.
final class RecordingNetwork: Networking {
  private let recorded = Lock<[String]>([])
  var paths: [String] { recorded.withLock { $0 } }

  func send<E: Endpoint>(_ endpoint: E) async throws -> E.Response {
    recorded.withLock { $0.append(endpoint.path) }
    throw NetworkError.server(status: 599, body: .init())
  }
}
