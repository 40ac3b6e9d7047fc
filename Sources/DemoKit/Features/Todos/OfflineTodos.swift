import Foundation
import Strata

/// Todos kept on this device beside the API (a ``SyncedCollection`` of todos): added,
/// edited, toggled and deleted offline as pending, sent by ``sync()`` — folded into an addition
/// or an edit not yet sent, as ``OfflinePosts`` does for posts.
public struct OfflineTodos: OfflineFeature {
  /// A todo as the device has it, with its status.
  public typealias Item = SyncedCollection<Todo>.Entry

  public let collection: SyncedCollection<Todo>
  public let analytics: any Analytics

  /// Todos kept in the store `stores` opens for the owner signed in now (`owner`), changed
  /// through `repository`; a conflict with a newer todo on the server is settled as
  /// `conflicts` says (see ``OfflinePosts``).
  public init(
    stores: @escaping @Sendable (DataOwner) -> LocalStore<Todo>,
    owner: @escaping @Sendable () async -> DataOwner, repository: any TodosRepository,
    connectivity: Connectivity? = nil, maxAttempts: Int = 5, conflicts: ConflictPolicy = .ask,
    analytics: any Analytics = NoAnalytics()
  ) {
    self.analytics = analytics
    collection = SyncedCollection(
      api: repository, stores: stores, owner: owner, connectivity: connectivity,
      maxAttempts: maxAttempts, conflicts: conflicts)
  }

  /// Keeps `draft` (trimmed) as a pending todo under a local id of its own and, unless
  /// `offline`, sends it at once.
  /// - Throws: ``ValidationError`` before anything is kept, for a todo ``TodoRules`` refuses.
  public func add(_ draft: TodoDraft, offline: Bool = false) async throws -> Item {
    let draft = try TodoRules.validated(draft)
    return try await collection.create(draft, offline: offline)
  }

  /// Changes todo `id` as the device has it at that moment and, unless `offline`, sends it.
  /// `edit` gets the todo as it is then, so edits made at once (in any processes) each start
  /// from the last one — a toggle made eight times at once flips it eight times.
  /// - Throws: ``ValidationError`` for an edit ``TodoRules`` refuses; ``NotOnDevice``.
  public func edit(
    _ id: ItemID, offline: Bool = false, _ edit: @escaping @Sendable (Todo) -> TodoEdit
  ) async throws -> Item {
    try await change(id, offline: offline) { try TodoRules.validated(edit($0)) }
  }

  /// Flips todo `id` between done and not done (see ``edit(_:offline:_:)``).
  public func toggle(_ id: ItemID, offline: Bool = false) async throws -> Item {
    try await edit(id, offline: offline) { TodoEdit(completed: !$0.completed) }
  }
}
