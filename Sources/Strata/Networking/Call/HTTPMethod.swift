/// An HTTP request method.
public enum HTTPMethod: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
  /// GET: read; idempotent, retried by default.
  case get = "GET"
  /// POST: create or act; never retried unless the policy says so.
  case post = "POST"
  case put = "PUT"
  case patch = "PATCH"
  case delete = "DELETE"
  case head = "HEAD"
  case options = "OPTIONS"

  /// The method as sent on the wire (`GET`, …).
  public var description: String { rawValue }
}
