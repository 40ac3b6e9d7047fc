import Strata

/// What ``OfflinePosts`` and ``OfflineTodos`` share: an ``OfflineCollection`` of their values,
/// read, synced and inspected the same way. Each adds its own change (a post, a toggle).
public protocol OfflineFeature: Sendable {
  associatedtype Value: Codable & Sendable & Equatable
  var collection: OfflineCollection<Value> { get }
}

extension OfflineFeature {
  /// What the device has, newest change first.
  public func local() async throws -> [OfflineCollection<Value>.Entry] {
    try await collection.local()
  }

  /// Sends every pending change in order (see ``OfflineCollection/sync(progress:)``).
  public func sync(progress: (@Sendable (LocalStore<Value>.Progress) -> Void)? = nil) async throws
    -> [LocalStore<Value>.Outcome]
  {
    try await collection.sync(progress: progress)
  }

  /// Every change, oldest first.
  public func outbox() async throws -> [OutboxEntry] { try await collection.outbox() }
}
