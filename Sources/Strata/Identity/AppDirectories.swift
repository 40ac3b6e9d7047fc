import Foundation

/// Where an application keeps its files: one rule for the session files, the local stores and
/// the HTTP cache, so no value from a server or a config file can place a file anywhere else.
/// An absolute `XDG_*` variable wins on every platform (a relative one is ignored, as the
/// specification says); otherwise:
/// - Linux and other XDG systems: `config` is `~/.config/<app>` (sessions), `data`
///   `~/.local/share/<app>` (what is kept offline), `cache` `~/.cache/<app>` (HTTP answers).
/// - Apple platforms: `config` and `data` are `Library/Application Support/<app>` and `cache`
///   `Library/Caches/<app>` of the user's (on iOS, the app container's) library — never the
///   container root, where iOS does not let an app write; the system may empty Caches, which
///   the HTTP cache takes as misses.
///
/// The app name and an origin become one path component each (`component(for:)`): `..`,
/// `/` and `%2F` tricks in a host cannot climb out.
public struct AppDirectories: Sendable, Equatable {
  /// Where settings and sessions go (`~/.config/<app>`).
  public let config: String
  /// Where what is kept offline goes (`~/.local/share/<app>`).
  public let data: String
  /// Where what may be thrown away goes (`~/.cache/<app>`).
  public let cache: String

  /// Where the platform keeps an app's files when no `XDG_*` variable says.
  package enum Layout: Sendable, Equatable {
    /// `~/.config`, `~/.local/share`, `~/.cache`.
    case xdg
    /// `<library>/Application Support` and `<library>/Caches`.
    case apple(library: String)

    /// This platform's.
    package static var current: Layout {
      #if canImport(Darwin)
        let library = FileManager.default.urls(for: .libraryDirectory, in: .userDomainMask).first
        return .apple(library: library?.path ?? NSHomeDirectory() + "/Library")
      #else
        return .xdg
      #endif
    }
  }

  /// This platform's directories of `app`.
  /// - Parameter app: The application's name (one path component).
  /// - Parameter environment: Where `XDG_*` and `HOME` are read.
  public init(app: String, environment: [String: String] = ProcessInfo.processInfo.environment) {
    self.init(app: app, environment: environment, layout: .current)
  }

  package init(app: String, environment: [String: String], layout: Layout) {
    let home = environment["HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? NSHomeDirectory()
    func base(_ variable: String, _ fallback: String) -> String {
      environment[variable].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? fallback
    }
    let app = Self.component(app)
    let (kept, settings, caches): (String, String, String)
    switch layout {
    case .xdg:
      (kept, settings, caches) = (home + "/.local/share", home + "/.config", home + "/.cache")
    case .apple(let library):
      (kept, settings, caches) = (
        library + "/Application Support", library + "/Application Support", library + "/Caches"
      )
    }
    config = base("XDG_CONFIG_HOME", settings) + "/" + app
    data = base("XDG_DATA_HOME", kept) + "/" + app
    cache = base("XDG_CACHE_HOME", caches) + "/" + app
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
    let safe = account.unicodeScalars.map { scalar -> Character in
      switch scalar {
      case "a"..."z", "0"..."9", "-", "_": Character(scalar)
      case "A"..."Z": Character(scalar.properties.lowercaseMapping)
      default: "_"
      }
    }
    return String(safe.prefix(48)) + "." + String(FNV1a.hash(account), radix: 16)
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
