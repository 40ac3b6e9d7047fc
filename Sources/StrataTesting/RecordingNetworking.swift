import Foundation
import Strata
import StrataConcurrency

/// A `Networking` fake for repository and view-model tests: it records every request it is
/// given and answers from a script, without HTTP. The answer is JSON text decoded into the
/// request's response type, as `NetworkService` would.
/// ```swift
/// let network = RecordingNetworking.answering(["GET posts/1/comments": #"{"comments":[]}"#])
/// _ = try await CommentsClient(network: network).comments(postId: 1)
/// #expect(network.requests.map(\.line) == ["GET posts/1/comments"])
/// ```
public final class RecordingNetworking: Networking {
  /// One request as the fake saw it.
  public struct Recorded: Sendable, Equatable {
    public let method: HTTPMethod
    /// The path as the request gave it (no leading slash added or removed).
    public let path: String
    /// Query parameters, in order.
    public let query: [URLQueryItem]
    /// The body as JSON text (keys sorted), if it had one.
    public let body: String?
    /// Whether it asked for the session's token.
    public let requiresAuth: Bool

    public var line: String { "\(method) \(path)" }
  }

  /// Produces the JSON answer for a request, or throws the failure to report.
  public typealias Script = @Sendable (Recorded) throws -> String

  private let script: Script
  private let recorded = Lock<[Recorded]>([])

  /// A fake answering with `script`.
  public init(_ script: @escaping Script) { self.script = script }

  /// Answers by `"METHOD path"`; anything else fails with a 404.
  public static func answering(_ answers: [String: String]) -> RecordingNetworking {
    RecordingNetworking { request in
      guard let answer = answers[request.line] else {
        throw NetworkError(.server(status: 404, body: Data()), request: request.line)
      }
      return answer
    }
  }

  /// Fails every request with `error` (after recording it).
  public static func failing(with error: NetworkError) -> RecordingNetworking {
    RecordingNetworking { _ in throw error }
  }

  private func record<Response>(_ endpoint: Request<Response>) throws -> Recorded {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let body = try endpoint.body.map { try Self.text(of: $0, encoder) }
    let request = Recorded(
      method: endpoint.method, path: endpoint.path, query: endpoint.queryItems, body: body,
      requiresAuth: endpoint.requiresAuth)
    recorded.withLock { $0.append(request) }
    return request
  }

  /// Every request so far, in order.
  public var requests: [Recorded] { recorded.withLock { $0 } }

  /// Records `endpoint`, then hands out the script's answer — a JSON array of the stream's
  /// elements (`["a line", "another"]`, `[{"type": "message", "data": "hi"}]`) — one element
  /// at a time; a script that throws ends the stream with its error.
  /// `state` is told ``StreamState/closed`` once the script has answered.
  public func stream<E: Endpoint, Element>(
    _ endpoint: E, as format: StreamFormat<Element>,
    state: (@Sendable (StreamState) -> Void)?
  ) -> ResponseStream<Element> {
    defer { state?(.closed) }
    do {
      let request = try record(endpoint.request)
      let answer = try script(request)
      do {
        return ResponseStream(try format.fake(Data(answer.utf8)))
      } catch {
        throw NetworkError(
          .decoding(.init(status: 200, codingPath: "", reason: "\(error)", bodyExcerpt: answer)),
          request: request.line, underlying: error)
      }
    } catch {
      return ResponseStream([], ending: error)
    }
  }

  /// Records `endpoint`, then decodes the script's answer into its response type (a `200`
  /// from the network); `progress` is told the answer's bytes, all at once.
  public func send<E: Endpoint>(
    _ endpoint: E, progress: (@Sendable (TransferProgress) -> Void)?
  ) async throws -> NetworkResponse<E.Response> {
    let request = try record(endpoint.request)
    let answer = try script(request)
    let size = Int64(answer.utf8.count)
    progress?(TransferProgress(.receiving, completed: size, total: size))
    if let empty = EmptyResponse() as? E.Response { return NetworkResponse(empty) }
    do {
      return NetworkResponse(try JSONDecoder().decode(E.Response.self, from: Data(answer.utf8)))
    } catch {
      throw NetworkError(
        .decoding(.init(status: 200, codingPath: "", reason: "\(error)", bodyExcerpt: answer)),
        request: request.line, underlying: error)
    }
  }

  /// A body as recorded: JSON as encoded (keys sorted), a form as `name=value&…`, anything
  /// else described by what it is.
  static func text(of body: RequestBody, _ encoder: JSONEncoder) throws -> String {
    switch body {
    case .json(let value): String(decoding: try encoder.encode(value), as: UTF8.self)
    case .form(let fields): fields.map { "\($0.name)=\($0.value)" }.joined(separator: "&")
    case .bytes(let data, let type): "<\(data.count) bytes, \(type)>"
    case .file(let url, let type): "<file \(url.path), \(type)>"
    case .multipart(let form): "<multipart form, boundary \(form.boundary)>"
    }
  }
}
