import StrataConcurrency

/// Where credentials live between launches.
public protocol TokenStore: Sendable {
  /// The stored credentials, or nil when signed out.
  /// - Throws: When the store exists but cannot be trusted or read.
  func load() throws -> Credentials?
  /// Stores credentials, replacing any.
  /// - Throws: When they cannot be written.
  func save(_ credentials: Credentials) throws
  /// Removes the stored credentials, whatever state they are in (also ones ``load()`` refuses).
  /// - Throws: When they cannot be removed.
  func clear() throws
  /// Whose session the stored credentials make, read even when ``load()`` refuses them (a
  /// file other users can read, say): a sign-out, or a sign-in as someone else, must forget
  /// that account's answers whatever state its session was left in. ``DataOwner/device`` when
  /// nothing is stored or it names no account. The default reads ``load()``.
  func storedOwner() -> DataOwner
  /// Takes the store's refresh lock, waiting while another holder (another process sharing a
  /// token file) has it. ``AuthSession`` holds it for the whole of a refresh and re-reads the
  /// store once it has it, so processes sharing a store never spend one refresh token twice.
  /// The default, for stores no other process can see, is a lock that is always free.
  /// - Throws: When the lock cannot be taken (for instance it stays held past a time limit).
  func lockForRefresh() async throws -> TokenStoreLock
  /// What identifies what the store holds now, cheaply (a file's inode, size and change
  /// time; a digest of a secret item): when it differs from the last one read, another
  /// process has signed in, out, or refreshed, and ``AuthSession`` reads the store again.
  /// Nil when nothing is stored. The default, for stores no other process can see, is nil.
  func stamp() -> String?
}

extension TokenStore {
  /// Whose session ``load()`` gives (the device's when none).
  public func storedOwner() -> DataOwner { (try? load())??.owner ?? .device }

  /// Nil: no other process changes this store.
  public func stamp() -> String? { nil }

  /// A lock that is always free: this store is not shared with other processes.
  public func lockForRefresh() async throws -> TokenStoreLock { TokenStoreLock {} }
}

/// A held refresh lock (see ``TokenStore/lockForRefresh()``); `release()` gives it up, and
/// is called exactly once.
public struct TokenStoreLock: Sendable {
  private let onRelease: @Sendable () -> Void

  /// A held lock: a store shared between processes takes its lock (an `flock`, say), then
  /// returns this with the closure that gives it up; ``AuthSession`` calls it exactly once.
  public init(release: @escaping @Sendable () -> Void) { onRelease = release }

  /// Gives the lock up.
  package func release() { onRelease() }
}

/// Credentials kept in memory only (tests, or apps that sign in every launch).
public final class InMemoryTokenStore: TokenStore {
  private let stored: Lock<Credentials?>

  /// Creates a store, optionally already signed in.
  public init(_ credentials: Credentials? = nil) { stored = Lock(credentials) }

  /// The credentials, if any.
  public func load() -> Credentials? { stored.withLock { $0 } }

  public func save(_ credentials: Credentials) { stored.withLock { $0 = credentials } }

  public func clear() { stored.withLock { $0 = nil } }
}
