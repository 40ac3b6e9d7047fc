/// Which values each recent change to a store touched: a live query brings its last answer up
/// to date from the values that changed since, rather than read every value again.
struct StoreHistory {
  /// How many changes this instance has applied — written here, read from another process's
  /// journal, or a reload — since it was made.
  private(set) var version = 0
  /// The keys each of the last changes touched, oldest first, the last one `version`'s; nil
  /// where they are unknown.
  private var recent: [Set<StoreKey>?] = []
  private static var kept: Int { 64 }

  /// Notes a change that touched `keys` (nil: unknown which); nothing for an empty set.
  mutating func record(_ keys: Set<StoreKey>?) {
    guard keys != [] else { return }
    version += 1
    recent.append(keys)
    if recent.count > Self.kept { recent.removeFirst() }
  }

  /// Every key touched after `earlier`, nil when that is not known: a change touched ones it
  /// did not name, or it was too long ago to be kept.
  func keys(since earlier: Int) -> Set<StoreKey>? {
    guard earlier <= version, version - earlier <= recent.count else { return nil }
    var touched: Set<StoreKey> = []
    for keys in recent.suffix(version - earlier) {
      guard let keys else { return nil }
      touched.formUnion(keys)
    }
    return touched
  }
}
