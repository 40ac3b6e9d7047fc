import Foundation

/// Where an application keeps its files, per the XDG base directories: one rule for the token
/// store and the local store, so no value from a server or a config file can place a file
/// anywhere else. A relative `XDG_*` value is ignored, as the specification says. The app
/// name and an origin become one path component each (``component(for:)``): `..`, `/` and
/// `%2F` tricks in a host cannot climb out.
/// - `config`: `$XDG_CONFIG_HOME/<app>`, else `~/.config/<app>` (sessions).
/// - `data`: `$XDG_DATA_HOME/<app>`, else `~/.local/share/<app>` (what is kept offline).
/// - `cache`: `$XDG_CACHE_HOME/<app>`, else `~/.cache/<app>` (HTTP answers: may be deleted).
package struct AppDirectories: Sendable, Equatable {
  package let config: String
  package let data: String
  package let cache: String

  package init(app: String, environment: [String: String] = ProcessInfo.processInfo.environment) {
    let home = environment["HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? NSHomeDirectory()
    func base(_ variable: String, _ fallback: String) -> String {
      environment[variable].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? home + fallback
    }
    let app = Self.component(app)
    config = base("XDG_CONFIG_HOME", "/.config") + "/" + app
    data = base("XDG_DATA_HOME", "/.local/share") + "/" + app
    cache = base("XDG_CACHE_HOME", "/.cache") + "/" + app
  }

  /// `https_dummyjson.com_443`: the origin as one file name (sessions and stores are kept per
  /// origin, so two APIs never share a file).
  package static func component(for origin: Origin) -> String {
    "\(origin.scheme)_\(component(origin.host))_\(origin.port)"
  }

  /// An account's name as one directory name, never another account's: the name itself when
  /// it is lower-case letters, digits, `-` and `_` (`user-1`), else its safe form and a hash
  /// of the exact name after a `.`, which no plain name has (`Emily.S` → `emily_s.<hash>`):
  /// file systems may ignore case.
  package static func component(account: String) -> String {
    let plain = account.utf8.allSatisfy { byte in
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
        UInt8(ascii: "-"), UInt8(ascii: "_"):
        true
      default: false
      }
    }
    if plain, !account.isEmpty, account.utf8.count <= 64 { return account }
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in account.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
    let safe = account.unicodeScalars.map { scalar -> Character in
      switch scalar {
      case "a"..."z", "0"..."9", "-", "_": Character(scalar)
      case "A"..."Z": Character(scalar.properties.lowercaseMapping)
      default: "_"
      }
    }
    return String(safe.prefix(48)) + "." + String(hash, radix: 16)
  }

  /// `text` as one safe file name: anything but letters, digits, `.`, `-` and `_` becomes `_`,
  /// and a name made only of dots (`.`, `..`) is prefixed with `_`.
  static func component(_ text: String) -> String {
    let cleaned = String(
      text.unicodeScalars.map { scalar -> Character in
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", ".", "-", "_": Character(scalar)
        default: "_"
        }
      })
    return cleaned.isEmpty || cleaned.allSatisfy({ $0 == "." }) ? "_" + cleaned : cleaned
  }
}
