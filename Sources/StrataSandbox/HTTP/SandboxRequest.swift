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
  /// - Returns: Its value, or nil.
  public func header(_ name: String) -> String? {
    HeaderFields.values(name, in: headers).first
  }

  /// The first query parameter with this name.
  /// - Returns: Its value, or nil.
  public func queryValue(_ name: String) -> String? { query.first { $0.name == name }?.value }

  /// The body decoded as a JSON object, or nil if it is not one.
  var jsonObject: [String: Any]? {
    guard !body.isEmpty else { return nil }
    return (try? JSONSerialization.jsonObject(with: body)) as? [String: Any]
  }

  /// The access token as the real service reads it: the `Authorization` header with a
  /// leading `Bearer ` removed if present, else the `accessToken` cookie.
  var accessToken: String? {
    if let value = header("Authorization"), !value.isEmpty {
      guard let range = value.range(of: "Bearer ") else { return value }
      return value.replacingCharacters(in: range, with: "")
    }
    return cookie("accessToken").flatMap { $0.isEmpty ? nil : $0 }
  }

  /// A cookie's value from the `Cookie` headers, percent-decoded.
  func cookie(_ name: String) -> String? {
    for header in HeaderFields.values("Cookie", in: headers) {
      for pair in header.split(separator: ";") {
        let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == name else {
          continue
        }
        let value = parts[1].trimmingCharacters(in: .whitespaces)
        return value.removingPercentEncoding ?? value
      }
    }
    return nil
  }
}
