import Foundation

/// Which answers mean "the server does not accept this access token". On such an answer to a
/// request that carried a token, ``NetworkService`` refreshes the token once and replays the request —
/// it never retries it as a server error — and if the refreshed token is rejected too, it ends the
/// session (``Authenticator/rejected(refreshedToken:)``) and throws ``NetworkError/Unauthorized``.
///
/// The default is the standard one, `401`. Some APIs say it otherwise: DummyJSON answers a
/// token with a bad signature with a `500` naming the JWT library's error, and a well-signed
/// token for an unknown user with a `400`; an app describes its API's answers here.
public struct CredentialRejection: Sendable {
  private let matches: @Sendable (_ status: Int, _ body: Data) -> Bool

  /// A rule over the status and the response body (the body of an authenticated error
  /// answer; keep the check cheap and never trust its size).
  public init(_ matches: @escaping @Sendable (_ status: Int, _ body: Data) -> Bool) {
    self.matches = matches
  }

  /// `401 Unauthorized` and nothing else.
  package static let unauthorizedStatus = CredentialRejection { status, _ in status == 401 }

  /// Whether this answer rejects the token the request carried.
  package func rejects(status: Int, body: Data) -> Bool { matches(status, body) }
}
