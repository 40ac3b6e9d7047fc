import Strata

extension Config.Key {
  /// `debug`, `testing` or `production`: picks the defaults of everything not set
  /// (``AppEnvironment``). Built-in default: `debug` in a debug build, `production` otherwise.
  public static let environment: Config.Key = "ENVIRONMENT"
  /// The route table the connectivity monitor reads on Linux (default `/proc/net/route`).
  public static let routeTable: Config.Key = "ROUTE_TABLE"
  /// Base URL of the DummyJSON API (`https://dummyjson.com`; the CLI also takes
  /// `sandbox`, its embedded server).
  public static let api: Config.Key = "API"
  /// `file` (one 0600 file per API origin under the app's `sessions/` directory: the default on
  /// Linux and macOS), `keychain` (Apple platforms only: the default on iOS, tvOS, watchOS and
  /// visionOS) or `memory`.
  public static let tokenStore: Config.Key = "TOKEN_STORE"
  /// Requested access-token lifetime: whole minutes from 1m to 30d, as DummyJSON's
  /// `expiresInMins` takes it (default 30m).
  public static let tokenLifetime: Config.Key = "TOKEN_LIFETIME"
  /// `YES`: users are read through DummyJSON's authenticated routes (`/auth/users…`), so
  /// the list needs a session (default `NO`).
  public static let usersRequireSignIn: Config.Key = "USERS_REQUIRE_SIGN_IN"
  /// The directory of the local store (posts kept offline and their outbox); default
  /// `$XDG_DATA_HOME/<APP_NAME>/store` (else `~/.local/share/…`; on Apple platforms
  /// `Library/Application Support/…`). One file per API origin.
  public static let storeDirectory: Config.Key = "STORE_DIRECTORY"
  /// How often the outbox is sent again while changes wait (default 30s; doubling while the
  /// server stays away, up to 15 minutes).
  public static let syncInterval: Config.Key = "SYNC_INTERVAL"
  /// How many times a change is sent, over all syncs, before it is given up as `failed`
  /// (default 5), so one change the server never takes does not hold up the ones behind it.
  public static let syncMaxAttempts: Config.Key = "SYNC_MAX_ATTEMPTS"
  /// How long user lists stay cached (default 60s).
  public static let usersCacheTTL: Config.Key = "USERS_CACHE_TTL"
}
