import Strata

/// The user's settings (``DemoSettings``), per account and API origin.
enum SettingsFeature: DemoFeature {
  static func register(in container: DependencyContainer, _ setting: FeatureSetting) {
    container.register(Preferences.self, scope: .singleton) { c in
      Preferences(
        app: try c.resolve(Config.self).string(.appName, default: "strata-demo"),
        origin: try c.resolve(), keys: DemoSettings.all, session: try c.resolve(AuthSession.self),
        environment: setting.environment)
    }
    container.register(SettingsViewModel.self) { c in
      SettingsViewModel(preferences: try c.resolve())
    }
  }
}
