/// Matches a request's method and path against route patterns such as `/users/{id}` and calls
/// the handler with the captured parameters. Literal segments win over parameters, so
/// `/users/search` is never taken for a user id.
struct Router: Sendable {
  /// What a handler gets: the request, its path parameters and its validated query options.
  struct Call {
    let request: SandboxRequest
    let parameters: [String: String]
    let options: QueryOptions

    /// A path parameter (routes name the ones they capture, so it is always there).
    subscript(_ name: String) -> String { parameters[name] ?? "" }
  }

  /// A handler answers, or throws a ``Rejection`` carrying the error answer.
  typealias Handler = @Sendable (Call) throws -> SandboxResponse

  private struct Route: Sendable {
    let method: String
    let segments: [Segment]
    let handler: Handler

    /// Literal segments score higher, so the most specific route wins.
    var specificity: Int { segments.reduce(0) { $0 * 2 + ($1.isLiteral ? 1 : 0) } }
  }

  private enum Segment: Sendable {
    case literal(String)
    case parameter(String)
    case optionalParameter(String)

    var isLiteral: Bool { if case .literal = self { true } else { false } }
  }

  private var routes: [Route] = []

  /// Adds a route. `{name}` captures a segment; `{name?}` captures an optional last segment.
  mutating func add(_ method: String, _ pattern: String, _ handler: @escaping Handler) {
    let segments = pattern.split(separator: "/").map { part -> Segment in
      guard part.hasPrefix("{"), part.hasSuffix("}") else { return .literal(String(part)) }
      let name = part.dropFirst().dropLast()
      return name.hasSuffix("?")
        ? .optionalParameter(String(name.dropLast())) : .parameter(String(name))
    }
    routes.append(Route(method: method, segments: segments, handler: handler))
    routes.sort { $0.specificity > $1.specificity }
  }

  /// Runs the matching handler (`HEAD` runs the `GET` route); nil when no route has this
  /// method and path, as Express falls through to its not-found page.
  func handle(_ request: SandboxRequest, options: QueryOptions) -> SandboxResponse? {
    let parts = request.path.split(separator: "/").map(String.init)
    let method = request.method == "HEAD" ? "GET" : request.method
    for route in routes where route.method == method {
      guard let parameters = match(route.segments, parts) else { continue }
      do {
        return try route.handler(Call(request: request, parameters: parameters, options: options))
      } catch let rejection as Rejection {
        return rejection.response
      } catch {
        return .message(500, String(describing: error))
      }
    }
    return nil
  }

  private func match(_ segments: [Segment], _ parts: [String]) -> [String: String]? {
    let optionalLast: Bool =
      if case .optionalParameter = segments.last { true } else { false }
    let minimum = optionalLast ? segments.count - 1 : segments.count
    guard parts.count >= minimum, parts.count <= segments.count else { return nil }
    var parameters: [String: String] = [:]
    for (index, segment) in segments.enumerated() {
      switch segment {
      case .literal(let text):
        guard parts[index] == text else { return nil }
      case .parameter(let name):
        parameters[name] = parts[index]
      case .optionalParameter(let name):
        if index < parts.count { parameters[name] = parts[index] }
      }
    }
    return parameters
  }
}

/// An error answer carried as an error, so handlers read top to bottom with `guard … throw`.
struct Rejection: Error {
  let response: SandboxResponse
  init(_ response: SandboxResponse) { self.response = response }
  /// DummyJSON's `{"message": …}` error.
  init(_ status: Int, _ message: String) { self.response = .message(status, message) }
}
