import Strata

/// The settings the demo honours, each a person's own choice (not the developer's config).
public enum DemoSettings {
  /// How many items a list shows when no `--limit` is given.
  public static let pageSize = PreferenceKey("page-size", default: 10, in: 1...100)
  /// Every change is kept on this device and sent by `sync`, as if `--offline` were given.
  public static let offlineFirst = PreferenceKey("offline-first", default: false)

  public static let all: [any AnyPreferenceKey] = [pageSize, offlineFirst]
}
