import Foundation
import Strata

/// The composition root: every concrete type of the demo app is chosen here, from `Config`.
/// Registration order is services → repositories → view models.
public enum DemoContainer {
  /// - Parameter config: The configuration; `API` must be a URL (the CLI substitutes the sandbox's).
  /// - Parameter environment: For the token file location.
  /// - Parameter onRequestRecord: Told every request attempt's record (the CLI's `--http-log`, and
  ///   its "retrying in 2s (2/3)…" line before a retry wait).
  /// - Parameter now: Wall-clock time, for token expiry and the HTTP cache's ages (tests share
  ///   one clock with a sandbox).
  /// - Parameter connectivityMonitor: Says whether there is a network route (default: the platform's;
  ///   tests inject their own).
  /// - Parameter analytics: Told the domain's events (default: nothing is tracked).
  /// - Returns: The container. Call `validate()` to check it. A feature turned off
  ///   (`FEATURE_COMMENTS`, `FEATURE_OFFLINE`) has nothing registered.
  public static func make(
    config: Config, environment: [String: String] = ProcessInfo.processInfo.environment,
    onRequestRecord: (@Sendable (RequestRecord) -> Void)? = nil,
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
      container, config: config, onRequestRecord: onRequestRecord,
      connectivityMonitor: connectivityMonitor, now: now)
    registerSession(container, environment: environment, now: now)
    registerRepositories(container, features: features, environment: environment, now: now)
    registerViewModels(container, features: features)
    return container
  }

  /// Configuration, connectivity, the HTTP stack and the API's origin.
  private static func registerServices(
    _ container: DependencyContainer, config: Config,
    onRequestRecord: (@Sendable (RequestRecord) -> Void)?,
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
      configuration.onRequestRecord = onRequestRecord
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
      switch try config.string(.tokenStore, default: defaultTokenStore).lowercased() {
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

  private static func registerRepositories(
    _ container: DependencyContainer, features: FeatureFlags, environment: [String: String],
    now: @escaping @Sendable () -> Date
  ) {
    container.register((any AuthRepository).self, scope: .singleton) { c in
      APIAuthRepository(
        network: try c.resolve(), session: try c.resolve(AuthSession.self),
        tokenRefresh: try c.resolve(), analytics: try c.resolve())
    }
    container.register((any UsersRepository).self, scope: .singleton) { c in
      let config = try c.resolve(Config.self)
      return APIUsersRepository(
        network: try c.resolve(),
        ttl: try config.duration(
          .usersCacheTTL, default: .seconds(60), in: .zero...Duration.seconds(24 * 3600)),
        signedIn: try config.bool(.usersRequireSignIn, default: false))
    }
    container.register((any AvatarRepository).self, scope: .singleton) { c in
      APIAvatarRepository(network: try c.resolve())
    }
    container.register((any PostsRepository).self, scope: .singleton) { c in
      APIPostsRepository(network: try c.resolve())
    }
    container.register((any UserPostsRepository).self, scope: .singleton) { c in
      APIUserPostsRepository(network: try c.resolve())
    }
    if features.isOn(.comments) {
      container.register((any CommentsRepository).self, scope: .singleton) { c in
        APICommentsRepository(network: try c.resolve())
      }
    }
    container.register((any TodosRepository).self, scope: .singleton) { c in
      APITodosRepository(network: try c.resolve())
    }
    if features.isOn(.offline) {
      registerOfflineStores(container, environment: environment, now: now)
    }
    registerSettings(container, environment: environment)
  }

  /// Posts and todos kept on this device, each over its API repository.
  private static func registerOfflineStores(
    _ container: DependencyContainer, environment: [String: String],
    now: @escaping @Sendable () -> Date
  ) {
    // Posts and todos kept on this device: a directory per API origin (the token store's
    // rule) and per owner — the signed-in account, or the device when signed out — files per
    // kind.
    @Sendable func localStores<Item>(_ c: DependencyContainer, _ name: String) throws
      -> @Sendable (DataOwner) -> LocalStore<Item>
    {
      let config = try c.resolve(Config.self)
      let (app, origin) = (
        try config.string(.appName, default: "strata-demo"), try c.resolve(Origin.self)
      )
      let directory = config.value(.storeDirectory)?.value
      return { owner in
        LocalStore(
          app: app, origin: origin, name: name, owner: owner, directory: directory,
          environment: environment, now: now)
      }
    }
    @Sendable func owner(_ c: DependencyContainer) throws -> @Sendable () async -> DataOwner {
      let session = try c.resolve(AuthSession.self)
      return { await session.owner() }
    }
    let attempts: @Sendable (DependencyContainer) throws -> Int = { c in
      try c.resolve(Config.self).int(.syncMaxAttempts, default: 5, in: 1...1_000)
    }
    container.register(OfflinePosts.self, scope: .singleton) { c in
      OfflinePosts(
        stores: try localStores(c, "posts"), owner: try owner(c), repository: try c.resolve(),
        connectivity: try c.resolve(Connectivity.self), maxAttempts: try attempts(c),
        analytics: try c.resolve())
    }
    container.register(OfflineTodos.self, scope: .singleton) { c in
      OfflineTodos(
        stores: try localStores(c, "todos"), owner: try owner(c), repository: try c.resolve(),
        connectivity: try c.resolve(Connectivity.self), maxAttempts: try attempts(c),
        analytics: try c.resolve())
    }
  }

  /// The user's settings (``DemoSettings``), per account and API origin.
  private static func registerSettings(
    _ container: DependencyContainer, environment: [String: String]
  ) {
    container.register(Preferences.self, scope: .singleton) { c in
      Preferences(
        app: try c.resolve(Config.self).string(.appName, default: "strata-demo"),
        origin: try c.resolve(), keys: DemoSettings.all, session: try c.resolve(AuthSession.self),
        environment: environment)
    }
    container.register(SettingsViewModel.self) { c in
      SettingsViewModel(preferences: try c.resolve())
    }
  }

  private static func registerViewModels(_ container: DependencyContainer, features: FeatureFlags) {
    container.register(Router.self, scope: .singleton) { _ in Router() }
    container.register(AppModel.self, scope: .singleton) { c in
      let session = try c.resolve(AuthSession.self)
      return AppModel(
        events: session.updates(), signedIn: { await session.isSignedIn },
        router: try c.resolve(), connectivity: try c.resolve(Connectivity.self),
        scheduler: try c.resolve(SyncScheduler?.self))
    }
    container.register(UsersViewModel.self) { c in UsersViewModel(repo: try c.resolve()) }
    container.register(UsersViewModel.self, argument: Int.self) { c, pageSize in
      UsersViewModel(repo: try c.resolve(), pageSize: pageSize)
    }
    container.register(UserViewModel.self) { c in UserViewModel(repo: try c.resolve()) }
    container.register(UserPostsViewModel.self) { c in UserPostsViewModel(repo: try c.resolve()) }
    container.register(PostsViewModel.self) { c in
      PostsViewModel(
        repo: try c.resolve(),
        offline: OfflineRoute(try c.resolve(OfflinePosts?.self), connectivity: try c.resolve()),
        analytics: try c.resolve())
    }
    if features.isOn(.offline) {
      container.register(SyncScheduler.self, scope: .singleton) { c in
        let config = try c.resolve(Config.self)
        return SyncScheduler(
          interval: try config.duration(
            .syncInterval, default: .seconds(30), in: .seconds(1)...Duration.seconds(24 * 3600)),
          clock: try c.resolve(),
          send: SyncScheduler.outbox(posts: try c.resolve(), todos: try c.resolve()))
      }
      container.register(LocalPostsViewModel.self) { c in
        LocalPostsViewModel(posts: try c.resolve())
      }
    }
    if features.isOn(.comments) {
      container.register(PostDetailViewModel.self) { c in
        PostDetailViewModel(posts: try c.resolve(), comments: try c.resolve())
      }
    }
    container.register(TodosViewModel.self) { c in
      TodosViewModel(
        repo: try c.resolve(),
        offline: OfflineRoute(try c.resolve(OfflineTodos?.self), connectivity: try c.resolve()),
        analytics: try c.resolve())
    }
    container.register(LoginViewModel.self) { c in LoginViewModel(repo: try c.resolve()) }
    container.register(ProfileViewModel.self) { c in ProfileViewModel(repo: try c.resolve()) }
  }

}

/// The token store when `TOKEN_STORE` names none: the Keychain where an app expects it (iOS and
/// the other device platforms), the 0600 file on macOS (a command-line tool's home) and Linux.
private let defaultTokenStore: String = {
  #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
    "keychain"
  #else
    "file"
  #endif
}()
