import Synchronization

/// Where credentials live between launches.
public protocol TokenStore: Sendable {
  /// The stored credentials, or nil when signed out.
  /// - Returns: The credentials.
  /// - Throws: When the store exists but cannot be trusted or read.
  func load() throws -> Credentials?
  /// Stores credentials, replacing any.
  /// - Parameter credentials: The credentials.
  /// - Throws: When they cannot be written.
  func save(_ credentials: Credentials) throws
  /// Forgets the credentials.
  /// - Throws: When they cannot be removed.
  func clear() throws
}

/// Credentials kept in memory only (tests, or apps that sign in every launch).
public final class InMemoryTokenStore: TokenStore {
  private let stored: Mutex<Credentials?>

  /// Creates a store, optionally already signed in.
  /// - Parameter credentials: Initial credentials.
  public init(_ credentials: Credentials? = nil) { stored = Mutex(credentials) }

  /// The credentials, if any.
  /// - Returns: The credentials.
  public func load() -> Credentials? { stored.withLock { $0 } }

  /// Replaces the credentials.
  /// - Parameter credentials: The credentials.
  public func save(_ credentials: Credentials) { stored.withLock { $0 = credentials } }

  /// Forgets the credentials.
  public func clear() { stored.withLock { $0 = nil } }
}
