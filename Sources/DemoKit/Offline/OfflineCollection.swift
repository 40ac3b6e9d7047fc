import Foundation
import Strata

/// One kind of item kept on this device beside the API (posts, todos): the list is read from
/// the store first and refreshed from the server (stale-while-revalidate); a change made
/// offline — or when the server cannot be reached — is shown at once as `pending` and sent
/// by ``sync()`` with the `Idempotency-Key` fixed when it was made.
public actor OfflineCollection<Item: Codable & Sendable & Equatable> {
  /// An item as the device has it, with where it stands with the server.
  public struct Entry: Sendable, Equatable {
    public var item: Item
    public var status: SyncStatus
    /// The server's refusal, for `failed`.
    public var message: String?
  }

  /// What a sent change came to: the item the server answered with, and its key.
  public typealias Settled = LocalStore<Item>.Settled

  /// Sends one change to the server.
  public typealias Send = @Sendable (OutboxEntry) async throws -> Settled

  private let store: LocalStore<Item>
  private let connectivity: Connectivity?
  private let send: Send

  /// A collection kept in `store`; `send` carries a change to the server; `connectivity`
  /// says when to keep a change without trying.
  public init(store: LocalStore<Item>, connectivity: Connectivity? = nil, send: @escaping Send) {
    (self.store, self.connectivity, self.send) = (store, connectivity, send)
  }

  /// What the device has, newest change first: shown at once, before any request.
  public func local() async throws -> [Entry] {
    try await store.records().map {
      Entry(item: $0.record.value, status: $0.record.status, message: $0.record.message)
    }
  }

  /// Keeps a fresh page from the server (local changes stay) and returns the local list.
  public func refresh(with page: [(key: String, item: Item)]) async throws -> [Entry] {
    try await store.replaceSynced(with: page.map { ($0.key, $0.item) })
    return try await local()
  }

  /// Keeps a change (`kind`, `payload`) and shows `shown` under `key` (default: the change's
  /// own key) as pending at once, in one write; unless `offline` (or the device has no
  /// route), sends the outbox right away — or leaves that to a sync already running.
  /// - Returns: The item as the device now has it (synced if the send went through).
  public func change(
    kind: String, payload: Data, shown: Item, key: String? = nil, offline: Bool = false
  ) async throws -> Entry {
    let entry = try await store.enqueue(kind: kind, payload: payload, showing: shown, key: key)
    if !offline, connectivity?.isOnline ?? true {
      do {
        _ = try await sync()
      } catch StoreError.syncInProgress {}
    }
    let record = try await store.record(entry.recordKey ?? entry.idempotencyKey)
    return Entry(
      item: record?.value ?? shown, status: record?.status ?? .pending, message: record?.message)
  }

  /// Sends every pending change in the order it was made (see `LocalStore.sync`). Only a
  /// refusal (``NetworkError/isRefusal``) fails a change; any other failure keeps it pending.
  /// - Throws: `StoreError.syncInProgress` when another sync of this store is running.
  public func sync(progress: (@Sendable (LocalStore<Item>.Progress) -> Void)? = nil) async throws
    -> [LocalStore<Item>.Outcome]
  {
    try await store.sync(progress: progress) { [send] entry in
      do {
        return try await send(entry)
      } catch let error as NetworkError where error.isRefusal {
        throw ChangeRefused(
          error.status.map { status in
            "HTTP \(status)" + (error.serverMessage.map { ": \($0)" } ?? "")
          } ?? error.description)
      }
    }
  }

  /// Puts the refused changes back in the queue for the next sync.
  /// - Returns: How many.
  public func retryFailed() async throws -> Int { try await store.retryFailed() }

  /// Every change in the outbox, oldest first.
  public func outbox() async throws -> [OutboxEntry] { try await store.outbox() }
}
