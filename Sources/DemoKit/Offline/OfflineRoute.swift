import Strata

/// Whether a change is kept on this device or sent now — the one rule the posts and todos
/// view models share. It is kept when the caller asks (`keepOffline`, the CLI's `--offline`)
/// or the device has no route, and only when the offline feature is on (its store given).
public struct OfflineRoute<Store: Sendable>: Sendable {
  let store: Store?
  let connectivity: Connectivity?

  /// Changes kept in `store` (nil: the offline feature is off) when asked, or when
  /// `connectivity` says there is no route.
  public init(_ store: Store?, connectivity: Connectivity?) {
    (self.store, self.connectivity) = (store, connectivity)
  }

  /// The offline feature off: every change is sent.
  public static var off: OfflineRoute { OfflineRoute(nil, connectivity: nil) }

  /// The store when the change is to be kept there; nil when it is to be sent now.
  /// - Throws: ``FeatureOff`` when the caller asks to keep it and the feature is off.
  func device(keepOffline: Bool) throws -> Store? {
    guard let store else {
      if keepOffline { throw FeatureOff(.offline) }
      return nil
    }
    return keepOffline || connectivity?.isOnline == false ? store : nil
  }
}
