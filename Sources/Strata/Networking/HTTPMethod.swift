/// An HTTP request method.
public enum HTTPMethod: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
  /// GET: read; idempotent, retried by default.
  case get = "GET"
  /// POST: create or act; never retried unless the policy says so.
  case post = "POST"
  /// PUT: replace.
  case put = "PUT"
  /// PATCH: modify.
  case patch = "PATCH"
  /// DELETE: remove.
  case delete = "DELETE"
  /// HEAD: headers only.
  case head = "HEAD"
  /// OPTIONS: capabilities.
  case options = "OPTIONS"

  /// The method as sent on the wire (`GET`, …).
  public var description: String { rawValue }
}
