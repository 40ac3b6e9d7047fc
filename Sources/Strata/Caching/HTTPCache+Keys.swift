import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// How a kept answer is keyed: its URL without credentials, after the account it was made for.
extension HTTPCache {
  /// An answer's key: its URL without user name or password, after the account it was made
  /// for (nil: a shared answer).
  static func key(_ url: URL, owner: DataOwner) -> String {
    (owner.account.map(partition) ?? "") + withoutUserInfo(url.absoluteString)
  }

  /// `http://user:pw@host/x` as `http://host/x`: credentials in a URL name no answer, and
  /// must not reach a file. Plain string work: most URLs have no `@` at all.
  package static func withoutUserInfo(_ url: String) -> String {
    guard url.utf8.contains(UInt8(ascii: "@")), let scheme = url.range(of: "://") else {
      return url
    }
    let authority = url[scheme.upperBound...].prefix { !"/?#".contains($0) }
    guard let at = authority.lastIndex(of: "@") else { return url }
    return String(url[..<scheme.upperBound]) + url[url.index(after: at)...]
  }

  static func key(_ request: URLRequest, owner: DataOwner) -> String? {
    guard request.httpMethod ?? "GET" == "GET", let url = request.url else { return nil }
    return key(url, owner: owner)
  }

  /// What starts the keys of one account's answers: a URL has no space before its scheme's
  /// colon, so no shared key starts this way, and the name's length keeps one account's
  /// prefix from being another's.
  static func partition(_ account: String) -> String {
    accountKeyPrefix + "\(account.utf8.count) \(account) "
  }

  /// What starts every account's keys, and no shared one's.
  static let accountKeyPrefix = "account "
}
