import Strata

/// A part of the app that configuration can turn off: `FEATURE_<NAME>=YES|NO`.
public enum Feature: String, Sendable, CaseIterable {
  /// Post comments (`post comments`).
  case comments
  /// Changes kept on this device and sent later (`post create --offline`, `posts --local`,
  /// `sync`).
  case offline

  /// Its configuration key: `FEATURE_COMMENTS`, `FEATURE_OFFLINE`.
  public var key: Config.Key { Config.Key("FEATURE_\(rawValue.uppercased())") }
}

/// Which features are on, read once from configuration (defaults per ``AppEnvironment``). The
/// composition root registers nothing a feature that is off would need.
public struct FeatureFlags: Sendable, Equatable {
  private var off: Set<Feature>

  /// Every feature on.
  public static let allOn = FeatureFlags(off: [])

  init(off: Set<Feature>) { self.off = off }

  /// - Throws: ``ConfigError`` naming the key, for a value that is not a boolean.
  public init(config: Config) throws {
    off = []
    for feature in Feature.allCases where !(try config.bool(feature.key, default: true)) {
      off.insert(feature)
    }
  }

  public func isOn(_ feature: Feature) -> Bool { !off.contains(feature) }
}

/// A command or option needs a feature the configuration turned off (the CLI exits 78).
public struct FeatureOff: Error, Equatable, CustomStringConvertible {
  public let feature: Feature
  public init(_ feature: Feature) { self.feature = feature }
  public var description: String {
    Localized.current("feature.off", ["feature": feature.rawValue, "key": feature.key.name])
  }
}
