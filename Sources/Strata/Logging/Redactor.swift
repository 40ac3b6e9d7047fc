import Foundation

/// Removes secrets from what gets logged: header values, JSON body fields and URL query
/// parameters. The networking layer runs every request and response it logs through
/// ``standard``, so redaction cannot be forgotten.
public struct Redactor: Sendable {
  /// What replaces a secret.
  public static let placeholder = "<redacted>"

  /// Headers whose values are secrets (lowercase; matched case-insensitively).
  public static let defaultHeaderNames: Set<String> = [
    "authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key",
  ]

  /// JSON fields and query parameters whose values are secrets, normalised: lowercase with
  /// `_` and `-` removed, so `access_token`, `accessToken` and `Access-Token` all match.
  public static let defaultFieldNames: Set<String> = [
    "accesstoken", "refreshtoken", "token", "idtoken", "password", "secret", "clientsecret",
    "apikey",
  ]

  /// The redactor used by the library.
  public static let standard = Redactor()

  /// Header names to redact, lowercase.
  public var headerNames: Set<String>
  /// Normalised field names to redact.
  public var fieldNames: Set<String>

  /// Creates a redactor.
  /// - Parameters:
  ///   - headerNames: Header names to redact (any case).
  ///   - fieldNames: JSON field / query parameter names to redact (any case, `_`/`-` ignored).
  public init(
    headerNames: Set<String> = Redactor.defaultHeaderNames,
    fieldNames: Set<String> = Redactor.defaultFieldNames
  ) {
    self.headerNames = Set(headerNames.map { $0.lowercased() })
    self.fieldNames = Set(fieldNames.map(Self.normalise))
  }

  // MARK: Headers

  /// Whether a header's value must be hidden.
  /// - Parameter name: The header name, any letter case.
  /// - Returns: True for `Authorization`, `Cookie`, … .
  public func isSensitive(header name: String) -> Bool { headerNames.contains(name.lowercased()) }

  /// The value to log for a header.
  /// - Parameters:
  ///   - value: The real value.
  ///   - name: The header name.
  /// - Returns: `value`, or ``placeholder`` for sensitive headers.
  public func redact(headerValue value: String, named name: String) -> String {
    isSensitive(header: name) ? Self.placeholder : value
  }

  /// A copy of `headers` with sensitive values replaced.
  /// - Parameter headers: Header fields.
  /// - Returns: The same names with secret values redacted.
  public func redact(headers: [String: String]) -> [String: String] {
    headers.reduce(into: [:]) { result, field in
      result[field.key] = redact(headerValue: field.value, named: field.key)
    }
  }

  // MARK: Bodies and URLs

  /// Whether a JSON field or query parameter holds a secret.
  /// - Parameter name: The field name.
  /// - Returns: True for `password`, `accessToken`, `refresh_token`, … .
  public func isSensitive(field name: String) -> Bool { fieldNames.contains(Self.normalise(name)) }

  /// A loggable rendering of a body: JSON with secret fields replaced (at any depth), cut to
  /// `limit` characters; a non-JSON body is summarised by its size and never printed.
  /// - Parameters:
  ///   - body: The raw body.
  ///   - limit: Maximum characters of output.
  /// - Returns: Text safe to log.
  public func redact(body: Data, limit: Int = 2048) -> String {
    guard !body.isEmpty else { return "<empty>" }
    guard
      let object = try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed]),
      let data = try? JSONSerialization.data(
        withJSONObject: redact(json: object), options: [.sortedKeys, .fragmentsAllowed]),
      let text = String(data: data, encoding: .utf8)
    else { return "<\(body.count) bytes, not JSON>" }
    guard text.count > limit else { return text }
    return String(text.prefix(limit)) + "…(\(body.count) bytes)"
  }

  /// The URL with the values of secret query parameters replaced.
  /// - Parameter url: A request URL.
  /// - Returns: The URL as text, safe to log.
  public func redact(url: URL) -> String {
    guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false),
      let items = components.queryItems, items.contains(where: { isSensitive(field: $0.name) })
    else { return url.absoluteString }
    components.queryItems = items.map {
      isSensitive(field: $0.name) ? URLQueryItem(name: $0.name, value: Self.placeholder) : $0
    }
    return components.string ?? url.absoluteString
  }

  private func redact(json: Any) -> Any {
    if let object = json as? [String: Any] {
      return object.reduce(into: [String: Any]()) { result, field in
        result[field.key] =
          isSensitive(field: field.key) ? Self.placeholder : redact(json: field.value)
      }
    }
    if let array = json as? [Any] { return array.map { redact(json: $0) } }
    return json
  }

  private static func normalise(_ name: String) -> String {
    name.lowercased().filter { $0 != "_" && $0 != "-" }
  }
}
