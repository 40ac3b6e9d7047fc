import Foundation

/// The `Cache-Control` directives a client cache acts on (RFC 9111 §5.2.2). Numbers are parsed
/// with overflow checks and capped: a hostile `max-age=99999999999999999999` is the cap, not
/// a trap, and a malformed one is ignored (the response is then not fresh on its own).
struct CacheControl: Equatable {
  /// `max-age`, in seconds.
  var maxAge: Int?
  var noStore = false
  var noCache = false
  var mustRevalidate = false
  /// `stale-if-error`, in seconds: how long a stale answer may stand in for a failure.
  var staleIfError: Int?
  /// `stale-while-revalidate`, in seconds.
  var staleWhileRevalidate: Int?

  /// The largest delta-seconds kept (RFC 9111 §1.2.2: 2^31; `Int.max`, a second less, where
  /// `Int` is 32 bits).
  static let maxSeconds = Int(clamping: Int64(1) << 31)

  init(_ header: String?) {
    guard let header else { return }
    for part in header.split(separator: ",") {
      let pieces = part.split(separator: "=", maxSplits: 1).map {
        $0.trimmingCharacters(in: .whitespaces)
      }
      guard let name = pieces.first?.lowercased() else { continue }
      let seconds = pieces.count == 2 ? Self.seconds(pieces[1]) : nil
      switch name {
      case "max-age": maxAge = seconds
      case "no-store": noStore = true
      case "no-cache": noCache = true
      case "must-revalidate", "proxy-revalidate": mustRevalidate = true
      case "stale-if-error": staleIfError = seconds
      case "stale-while-revalidate": staleWhileRevalidate = seconds
      default: break
      }
    }
  }

  /// Delta-seconds: digits only (quotes tolerated), capped at ``maxSeconds``.
  static func seconds(_ text: String) -> Int? {
    let digits = text.trimmingCharacters(in: CharacterSet(charactersIn: "\""))
    guard !digits.isEmpty, digits.utf8.allSatisfy({ (48...57).contains($0) }) else { return nil }
    return digits.plainInteger.map { min($0, maxSeconds) } ?? maxSeconds
  }
}
