import Foundation
import Synchronization

/// Mints and checks the sandbox's opaque, expiring access and refresh tokens. Time comes from
/// an injected clock so tests can expire a token without sleeping.
final class TokenIssuer: Sendable {
  enum Verdict: Equatable {
    case valid(userID: Int)
    case expired
    case invalid
  }

  private struct Grant {
    let userID: Int
    let expires: Date
  }

  private struct Grants {
    var access: [String: Grant] = [:]
    var refresh: [String: Grant] = [:]
    /// Issued pairs, oldest first from `head`, for eviction at capacity.
    var order: [(access: String, refresh: String)] = []
    var head = 0
    var issuedSinceSweep = 0

    /// Forgets the oldest pairs beyond `capacity`, and every expired grant now and then.
    mutating func trim(capacity: Int, now: Date) {
      while order.count - head > capacity {
        access[order[head].access] = nil
        refresh[order[head].refresh] = nil
        head += 1
      }
      if head > capacity {
        order.removeFirst(head)
        head = 0
      }
      issuedSinceSweep += 1
      if issuedSinceSweep >= 1_000 {
        issuedSinceSweep = 0
        access = access.filter { $0.value.expires > now }
        refresh = refresh.filter { $0.value.expires > now }
      }
    }
  }

  private let grants = Mutex(Grants())
  let now: @Sendable () -> Date
  /// Whether a refresh token works once only (as with servers that rotate refresh tokens).
  let rotatesRefreshTokens: Bool
  /// Most token pairs remembered; beyond it the oldest are forgotten (they stop working).
  let capacity: Int

  init(
    now: @escaping @Sendable () -> Date, rotatesRefreshTokens: Bool = false,
    capacity: Int = 10_000
  ) {
    self.now = now
    self.rotatesRefreshTokens = rotatesRefreshTokens
    self.capacity = max(1, capacity)
  }

  /// How many access and refresh grants are remembered (bounded by ``capacity`` pairs).
  var grantCount: Int { grants.withLock { $0.access.count + $0.refresh.count } }

  /// Issues a new pair for a user.
  func issue(userID: Int, accessLifetime: TimeInterval, refreshLifetime: TimeInterval) -> (
    access: String, refresh: String
  ) {
    let access = Self.randomToken(prefix: "sbx_at_")
    let refresh = Self.randomToken(prefix: "sbx_rt_")
    let issuedAt = now()
    grants.withLock {
      $0.access[access] = Grant(userID: userID, expires: issuedAt + accessLifetime)
      $0.refresh[refresh] = Grant(userID: userID, expires: issuedAt + refreshLifetime)
      $0.order.append((access, refresh))
      $0.trim(capacity: capacity, now: issuedAt)
    }
    return (access, refresh)
  }

  func checkAccess(_ token: String) -> Verdict { check(token, \.access) }

  func checkRefresh(_ token: String) -> Verdict { check(token, \.refresh) }

  /// Checks a refresh token about to be exchanged; when rotating, a valid one is spent, so
  /// using it again is `.invalid`.
  func redeemRefresh(_ token: String) -> Verdict {
    guard rotatesRefreshTokens else { return checkRefresh(token) }
    guard let grant = grants.withLock({ $0.refresh.removeValue(forKey: token) }) else {
      return .invalid
    }
    return grant.expires > now() ? .valid(userID: grant.userID) : .expired
  }

  private func check(_ token: String, _ table: KeyPath<Grants, [String: Grant]>) -> Verdict {
    guard let grant = grants.withLock({ $0[keyPath: table][token] }) else { return .invalid }
    return grant.expires > now() ? .valid(userID: grant.userID) : .expired
  }

  private static func randomToken(prefix: String) -> String {
    var generator = SystemRandomNumberGenerator()
    return prefix
      + (0..<3).map { _ in
        let value = generator.next() as UInt64
        let hex = String(value, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
      }.joined()
  }
}
