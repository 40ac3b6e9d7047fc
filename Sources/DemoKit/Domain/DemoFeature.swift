import Foundation
import Strata

/// A part of the demo app that registers what it brings — repositories, a store kept on the
/// device, view models — in the container itself, so the composition root lists features
/// and never their types, and a new feature touches its own folder and that list.
protocol DemoFeature: Sendable {
  /// Registers the feature's types; a feature turned off (``FeatureFlags``) registers
  /// nothing another feature or the CLI would reach.
  static func register(in container: DependencyContainer, _ setting: FeatureSetting)
}

/// What every feature is registered with: which features are on, the process's environment
/// (where files go) and its clock.
struct FeatureSetting: Sendable {
  let features: FeatureFlags
  let environment: [String: String]
  let now: @Sendable () -> Date
}
