import Foundation
import StrataConcurrency

/// Mints and checks the sandbox's tokens: HS256 JWTs as the real DummyJSON issues them,
/// stateless, signed with a secret of this server. Time comes from an injected clock so tests
/// can expire a token without sleeping.
///
/// With ``rotatesRefreshTokens`` (a sandbox extension: DummyJSON does not rotate), each refresh
/// token carries a `jti` and works once; the spent ones are remembered up to ``capacity``.
final class TokenIssuer: Sendable {
  /// Who a verified token names (`id`, `username`), or nil when its claims do not say.
  struct Subject: Equatable {
    let id: Int
    let username: String

    init?(_ claims: [String: Any]) {
      guard let id = (claims["id"] as? NSNumber)?.intValue,
        let username = claims["username"] as? String
      else { return nil }
      self.id = id
      self.username = username
    }
  }

  private struct Spent {
    var ids: Set<String> = []
    var order: [String] = []
    var head = 0

    mutating func insert(_ id: String, capacity: Int) -> Bool {
      guard ids.insert(id).inserted else { return false }
      order.append(id)
      if order.count - head > capacity {
        ids.remove(order[head])
        head += 1
        if head > capacity {
          order.removeFirst(head)
          head = 0
        }
      }
      return true
    }
  }

  private let spent = Lock(Spent())
  private let secret: [UInt8]
  let now: @Sendable () -> Date
  /// Whether a refresh token works once only (as with servers that rotate refresh tokens).
  let rotatesRefreshTokens: Bool
  /// Most spent refresh tokens remembered when rotating; beyond it the oldest are forgotten
  /// (their own expiry still bounds them).
  let capacity: Int

  init(
    now: @escaping @Sendable () -> Date, rotatesRefreshTokens: Bool = false,
    capacity: Int = 10_000, secret: [UInt8]? = nil
  ) {
    self.now = now
    self.rotatesRefreshTokens = rotatesRefreshTokens
    self.capacity = max(1, capacity)
    self.secret = secret ?? (0..<32).map { _ in UInt8.random(in: .min ... .max) }
  }

  /// How many spent refresh tokens are remembered (bounded by ``capacity``).
  var spentCount: Int { spent.withLock { $0.ids.count } }

  /// Issues a pair carrying `payload` (the user's public fields): the access token expires
  /// after `accessLifetime`, the refresh token after `refreshLifetime` (whole seconds).
  func issue(
    payload: [String: Any], accessLifetime: TimeInterval, refreshLifetime: TimeInterval
  ) -> (access: String, refresh: String) {
    let issuedAt = now().timeIntervalSince1970.rounded(.down)
    var claims = payload
    claims["iat"] = Int(issuedAt)
    claims["exp"] = Int(issuedAt + accessLifetime.rounded(.down))
    let access = JSONWebToken.sign(claims, secret: secret)
    claims["exp"] = Int(issuedAt + refreshLifetime.rounded(.down))
    if rotatesRefreshTokens { claims["jti"] = UUID().uuidString }
    return (access, JSONWebToken.sign(claims, secret: secret))
  }

  /// A token signed with this server's secret, for tests that need a well-signed token with
  /// claims of their choosing.
  func sign(_ claims: [String: Any]) -> String { JSONWebToken.sign(claims, secret: secret) }

  func checkAccess(_ token: String) -> Result<[String: Any], JSONWebToken.Failure> {
    JSONWebToken.verify(token, secret: secret, now: now())
  }

  /// Checks a refresh token about to be exchanged; when rotating, a valid one is spent, so
  /// using it again fails as an invalid token.
  func redeemRefresh(_ token: String) -> Result<[String: Any], JSONWebToken.Failure> {
    let verdict = JSONWebToken.verify(token, secret: secret, now: now())
    guard rotatesRefreshTokens, case .success(let claims) = verdict else { return verdict }
    guard let id = claims["jti"] as? String,
      spent.withLock({ $0.insert(id, capacity: capacity) })
    else { return .failure(.invalidSignature) }
    return verdict
  }
}
