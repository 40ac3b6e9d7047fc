import Foundation

/// One parsed HTTP request, as route handlers see it.
public struct SandboxRequest: Sendable {
  /// The method in upper case (`GET`, `POST`, …).
  public let method: String
  /// The percent-decoded path without the query (`/users/5`).
  public let path: String
  /// Query parameters in order, percent-decoded (`+` is a space).
  public let query: [(name: String, value: String)]
  /// Header fields in order, names as sent.
  public let headers: [(name: String, value: String)]
  /// The body (empty when there is none).
  public let body: Data
  /// When the server received it.
  public let receivedAt: Date

  /// The first header with this name, matched case-insensitively.
  /// - Parameter name: The header name.
  /// - Returns: Its value, or nil.
  public func header(_ name: String) -> String? {
    HeaderFields.values(name, in: headers).first
  }

  /// The first query parameter with this name.
  /// - Parameter name: The parameter name.
  /// - Returns: Its value, or nil.
  public func queryValue(_ name: String) -> String? { query.first { $0.name == name }?.value }

  /// The body decoded as a JSON object, or nil if it is not one.
  var jsonObject: [String: Any]? {
    guard !body.isEmpty else { return nil }
    return (try? JSONSerialization.jsonObject(with: body)) as? [String: Any]
  }

  /// The bearer token of the `Authorization` header, if any.
  var bearerToken: String? {
    guard let value = header("Authorization") else { return nil }
    let parts = value.split(separator: " ", maxSplits: 1)
    guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
    return String(parts[1]).trimmingCharacters(in: .whitespaces)
  }
}
