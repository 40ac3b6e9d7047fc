import Strata

/// The demo feature layer (models, repositories, view models) for the DummyJSON API.
public enum DemoKit {
  /// The configuration file the demo reads by default, relative to the package root.
  public static let defaultConfigPath = "Config/Debug.xcconfig"
}
