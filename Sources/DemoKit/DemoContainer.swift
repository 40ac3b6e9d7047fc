import Foundation
import Strata

/// The composition root: every concrete type of the demo app is chosen here, from `Config`.
/// Registration order is services → the session → each feature (``DemoFeature``: its
/// repositories, its store on the device, its view models) → what spans them.
public enum DemoContainer {
  /// - Parameter config: The configuration; `API` must be a URL (the CLI substitutes the sandbox's).
  /// - Parameter environment: For the token file location.
  /// - Parameter observer: Told every request attempt's and cache answer's record (the CLI's
  ///   `--http-log`, its `--har` recorder, and its "retrying in 2s (2/3)…" line before a
  ///   retry wait).
  /// - Parameter now: Wall-clock time, for token expiry and the HTTP cache's ages (tests share
  ///   one clock with a sandbox).
  /// - Parameter connectivityMonitor: Says whether there is a network route (default: the platform's;
  ///   tests inject their own).
  /// - Parameter analytics: Told the domain's events (default: nothing is tracked).
  /// - Returns: The container. Call `validate()` to check it. A feature turned off
  ///   (`FEATURE_COMMENTS`, `FEATURE_OFFLINE`) has nothing registered.
  public static func make(
    config: Config, environment: [String: String] = ProcessInfo.processInfo.environment,
    observer: CallObserver? = nil,
    now: @escaping @Sendable () -> Date = { Date() },
    connectivityMonitor: (any ConnectivityMonitor)? = nil,
    analytics: any Analytics = NoAnalytics()
  ) -> DependencyContainer {
    let container = DependencyContainer()
    container.register((any Analytics).self, scope: .singleton) { _ in analytics }
    // A value that is not a boolean fails validate() (exit 78); until then, all on.
    container.register(FeatureFlags.self, scope: .singleton) { _ in
      try FeatureFlags(config: config)
    }
    let features = (try? FeatureFlags(config: config)) ?? .allOn

    registerServices(
      container, config: config, observer: observer,
      connectivityMonitor: connectivityMonitor, now: now)
    registerSession(container, environment: environment, now: now)
    let setting = FeatureSetting(features: features, environment: environment, now: now)
    for feature in Self.features { feature.register(in: container, setting) }
    registerApp(container, setting)
    return container
  }

  /// Every feature of the app; each registers its own types.
  static let features: [any DemoFeature.Type] = [
    AccountFeature.self, UsersFeature.self, PostsFeature.self, UserPostsFeature.self,
    CommentsFeature.self, TodosFeature.self, SettingsFeature.self, EventsFeature.self,
  ]

  /// Configuration, connectivity, the HTTP stack and the API's origin.
  private static func registerServices(
    _ container: DependencyContainer, config: Config, observer: CallObserver?,
    connectivityMonitor: (any ConnectivityMonitor)?, now: @escaping @Sendable () -> Date
  ) {
    container.register(Config.self, scope: .singleton) { _ in config }
    container.register(AppEnvironment.self, scope: .singleton) { c in
      try AppEnvironment.named(in: try c.resolve(Config.self))
    }
    // Offline, requests fail at once (no retries, no DNS wait) and view models say so.
    container.register(Connectivity.self, scope: .singleton) { c in
      if let connectivityMonitor { return Connectivity(monitor: connectivityMonitor) }
      return Connectivity.system(
        routeTable: try c.resolve(Config.self).string(.routeTable, default: "/proc/net/route"))
    }
    container.register(NetworkOptions.self, scope: .singleton) { c in
      let config = try c.resolve(Config.self)
      var configuration = try NetworkOptions(config: config, baseURL: config.url(.api), now: now)
      configuration.observer = observer
      configuration.credentialRejection = .dummyJSON
      configuration.serverMessageFormat = .dummyJSON
      configuration.connectivity = try c.resolve(Connectivity.self)
      return configuration
    }
    container.register((any MonotonicClock).self, scope: .singleton) { _ in SystemMonotonicClock() }
    // DEADLINE and IDLE_TIMEOUT are the service's (NetworkOptions(config:)).
    container.register((any HTTPTransport).self, scope: .singleton) { _ in URLSessionTransport() }
    // The API's origin: the session, its token file and its bearer token belong to it alone.
    container.register(Origin.self, scope: .singleton) { c in
      let config = try c.resolve(Config.self)
      let api = try config.url(.api)
      guard let origin = Origin(api) else {
        throw ConfigError(
          .invalidValue(key: Config.Key.api.name, expected: "an http or https URL"), at: nil,
          Localized.current(
            "config.expectedURL", ["key": Config.Key.api.name, "got": "'\(api.absoluteString)'"]))
      }
      return origin
    }
  }

  /// The token store, the token refresh and the session, and the authenticated service.
  private static func registerSession(
    _ container: DependencyContainer, environment: [String: String],
    now: @escaping @Sendable () -> Date
  ) {
    container.register((any TokenStore).self, scope: .singleton) { c in
      let config = try c.resolve(Config.self)
      let app = try config.string(.appName, default: "strata-demo")
      switch try config.string(.tokenStore, default: AppEnvironment.platformTokenStore).lowercased()
      {
      case "memory": return InMemoryTokenStore()
      case "keychain":
        #if canImport(Security)
          return KeychainTokenStore(app: app, origin: try c.resolve(), environment: environment)
        #else
          throw ConfigError(
            .invalidValue(key: Config.Key.tokenStore.name, expected: "file or memory"), at: nil,
            Localized.current("config.noKeychain", ["key": Config.Key.tokenStore.name]))
        #endif
      default:
        return FileTokenStore(app: app, origin: try c.resolve(), environment: environment)
      }
    }
    // The session refreshes its tokens through TokenRefresh, which sends over a service without an
    // authenticator: the session does not depend on anything that depends on it.
    container.register(TokenRefresh.self, scope: .singleton) { c in
      TokenRefresh(
        network: NetworkService(
          options: try c.resolve(), transport: try c.resolve(), clock: try c.resolve()),
        tokenLifetime: try c.resolve(Config.self).duration(
          .tokenLifetime, default: .seconds(1800), in: TokenRefresh.tokenLifetimes,
          step: .seconds(60)), now: now)
    }
    container.register(AuthSession.self, scope: .singleton) { c in
      let tokenRefresh = try c.resolve(TokenRefresh.self)
      return AuthSession(
        origin: try c.resolve(), store: try c.resolve(), clock: try c.resolve(), now: now,
        cache: try c.resolve(NetworkOptions.self).cache, refresh: tokenRefresh.refresh)
    }
    container.register((any Networking).self, scope: .singleton) { c in
      NetworkService(
        options: try c.resolve(), transport: try c.resolve(),
        authenticator: try c.resolve(AuthSession.self), clock: try c.resolve())
    }

  }

  /// What spans the features: where their changes kept on the device live, the sync that
  /// sends them (posts, then todos), navigation and the app's own model.
  private static func registerApp(_ container: DependencyContainer, _ setting: FeatureSetting) {
    if setting.features.isOn(.offline) {
      container.register(OfflinePlacement.self, scope: .singleton) { c in
        try OfflinePlacement(
          config: try c.resolve(), origin: try c.resolve(), session: try c.resolve(),
          environment: setting.environment, now: setting.now)
      }
      container.register(SyncScheduler.self, scope: .singleton) { c in
        let config = try c.resolve(Config.self)
        return SyncScheduler(
          interval: try config.duration(
            .syncInterval, default: .seconds(30), in: .seconds(1)...Duration.seconds(24 * 3600)),
          clock: try c.resolve(),
          send: SyncScheduler.outbox([
            try c.resolve(OfflinePosts.self), try c.resolve(OfflineTodos.self),
          ]))
      }
    }
    container.register(Router.self, scope: .singleton) { _ in Router() }
    container.register(AppModel.self, scope: .singleton) { c in
      let session = try c.resolve(AuthSession.self)
      return AppModel(
        events: session.updates(), signedIn: { await session.isSignedIn },
        router: try c.resolve(), connectivity: try c.resolve(Connectivity.self),
        scheduler: try c.resolve(SyncScheduler?.self))
    }
  }
}
