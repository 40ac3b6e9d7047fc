import Strata

/// The settings the demo honours, each a person's own choice (not the developer's config).
public enum DemoSettings {
  /// How many items a list shows when no `--limit` is given.
  public static let pageSize = PreferenceKey("page-size", default: 10, in: 1...100)
  /// Every change is kept on this device and sent by `sync`, as if `--offline` were given.
  public static let offlineFirst = PreferenceKey("offline-first", default: false)

  public static let all: [any AnyPreferenceKey] = [pageSize, offlineFirst]

  /// What a setting allows, in the user's words (`settings.allowed.<name>`); the library's
  /// English sentence for a setting the strings do not name.
  public static func allowed(_ entry: Preferences.Entry) -> String {
    allowed(entry.key, otherwise: entry.allowed)
  }

  /// What the setting `name` allows, in the user's words, else `english`.
  public static func allowed(_ name: String, otherwise english: String) -> String {
    Localized.current.sentence("settings.allowed." + name) ?? english
  }
}
