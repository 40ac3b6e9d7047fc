/// Matches a request's method and path against route patterns such as `/users/{id}` and calls
/// the handler with the captured parameters. Literal segments win over parameters, so
/// `/users/search` is never taken for a user id.
struct Router: Sendable {
  typealias Handler = @Sendable (SandboxRequest, Parameters) -> SandboxResponse

  /// Captured path parameters by name.
  struct Parameters: Sendable {
    let values: [String: String]
    subscript(_ name: String) -> String? { values[name] }
  }

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

  /// Runs the matching handler: 404 when no path matches, 405 when only the method differs.
  func handle(_ request: SandboxRequest) -> SandboxResponse {
    let parts = request.path.split(separator: "/").map(String.init)
    var pathMatched = false
    for route in routes {
      guard let parameters = match(route.segments, parts) else { continue }
      pathMatched = true
      let method = request.method == "HEAD" ? "GET" : request.method
      if route.method == method { return route.handler(request, Parameters(values: parameters)) }
    }
    return pathMatched
      ? .message(405, "Method \(request.method) not allowed on \(request.path)")
      : .message(404, "Route \(request.method) \(request.path) not found")
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
