import Foundation
import Strata

/// Where a feature's changes kept on the device live and whose they are: a directory per API
/// origin (the token store's rule) and per owner — the signed-in account, or the device when
/// signed out — with files per kind; and how often a change is tried before it fails.
/// Registered once by the composition root when the offline feature is on; each feature asks
/// it for its own store.
struct OfflinePlacement: Sendable {
  let app: String
  let origin: Origin
  let directory: String?
  let environment: [String: String]
  let now: @Sendable () -> Date
  /// The owner signed in now.
  let owner: @Sendable () async -> DataOwner
  /// `SYNC_MAX_ATTEMPTS`.
  let maxAttempts: Int

  /// - Parameter session: Whose data it is, at each use.
  init(
    config: Config, origin: Origin, session: AuthSession, environment: [String: String],
    now: @escaping @Sendable () -> Date
  ) throws {
    app = try config.string(.appName, default: "strata-demo")
    directory = config.value(.storeDirectory)?.value
    maxAttempts = try config.int(.syncMaxAttempts, default: 5, in: 1...1_000)
    (self.origin, self.environment, self.now) = (origin, environment, now)
    owner = { await session.owner() }
  }

  /// The store of `name` (`posts`, `todos`) for each owner.
  func stores<Item>(_ name: String) -> @Sendable (DataOwner) -> LocalStore<Item> {
    let (app, origin, directory, environment, now) = (app, origin, directory, environment, now)
    return { owner in
      LocalStore(
        app: app, origin: origin, name: name, owner: owner, directory: directory,
        environment: environment, now: now)
    }
  }
}
