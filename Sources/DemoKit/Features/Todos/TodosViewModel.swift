import Foundation
import Observation
import Strata

/// Todos and every change to them — add, edit, toggle, delete — made optimistically, routed
/// and shown as ``PostsViewModel`` does for posts: at once and marked pending, confirmed or put
/// back (the error thrown); kept on the device when asked, without a route, or behind a change
/// there not yet synced.
@MainActor @Observable
public final class TodosViewModel: OptimisticList {
  /// One todo on the list (see ``ListRow``).
  public typealias Row = ListRow<Todo>

  /// What the list shows, the changes not yet confirmed included.
  public internal(set) var rows: [Row] = []
  /// Loading, or the last request's failure.
  public var state = LoadState.idle
  @ObservationIgnored let repo: any TodosRepository
  @ObservationIgnored private let analytics: any Analytics
  /// Where todos change while offline, and when.
  @ObservationIgnored let offline: OfflineRoute<OfflineTodos>

  /// Todos read and changed through `repo`; toggles are reported to `analytics`. With
  /// `offline`, a change made without a route or on request is kept on the device.
  public nonisolated init(
    repo: any TodosRepository, offline: OfflineRoute<OfflineTodos> = .off,
    analytics: any Analytics = NoAnalytics()
  ) {
    (self.repo, self.offline, self.analytics) = (repo, offline, analytics)
  }

  /// The page last loaded.
  public internal(set) var page: Page<Todo>?

  /// Loads `limit` todos after the first `skip`, with the device's changes not yet synced
  /// over them, and keeps the page on the device, so its todos can change offline.
  public func load(limit: Int = 10, skip: Int = 0) async {
    await loadPage(limit: limit, skip: skip)
  }

  /// Keeps ``rows`` up to date with the device's todos, whoever changes them (a `sync` in
  /// another process turns a pending row synced), until the task running it is cancelled or
  /// the owner signs out; returns at once without the offline feature.
  public func follow() async { await followDevice() }

  /// Adds a todo: checked by ``TodoRules`` first, kept on the device as
  /// ``PostsViewModel/create(_:keepOffline:)`` keeps a post, else shown on top and sent under
  /// a key of its own.
  @discardableResult
  public func add(_ draft: TodoDraft, keepOffline: Bool = false) async throws -> OfflineTodos.Item {
    if let device = try offline.device(keepOffline: keepOffline) {
      let kept = try await device.add(draft, offline: true)
      rows.show(kept, as: kept.localId.map(ItemID.local) ?? .server(kept.item.id))
      return kept
    }
    let draft = try TodoRules.validated(draft)
    return OfflineTodos.Item(item: try await createShown(draft), status: .synced)
  }

  /// Flips todo `id` between done and not done (see ``edit(_:keepOffline:_:)``); a todo not
  /// on the list is fetched first when online.
  @discardableResult
  public func toggle(_ id: ItemID, keepOffline: Bool = false) async throws -> OfflineTodos.Item {
    let item = try await edit(id, keepOffline: keepOffline) { TodoEdit(completed: !$0.completed) }
    analytics.track(
      "todo_toggled", ["todo_id": .count(item.item.id), "completed": .flag(item.item.completed)])
    return item
  }

  /// Changes todo `id` by `edit` of the todo as it stands: kept on the device as
  /// ``PostsViewModel/edit(_:_:keepOffline:)`` keeps an edit (offline, only a todo the device
  /// has can change: ``NotOnDevice``); else shown at once, sent, put back on failure.
  @discardableResult
  public func edit(
    _ id: ItemID, keepOffline: Bool = false, _ edit: @escaping @Sendable (Todo) -> TodoEdit
  ) async throws -> OfflineTodos.Item {
    let waiting = rows.isWaiting(id)
    if let device = try offline.device(for: id, keepOffline: keepOffline, waiting: waiting) {
      let kept = try await device.edit(id, offline: offline.keeps(keepOffline), edit)
      rows.show(kept, as: id)
      return kept
    }
    guard case .server(let number) = id else { throw NotOnDevice("todo", id) }
    if !rows.contains(where: { $0.id == id }) {
      rows.append(Row(id: id, item: try await repo.item(id: number)))  // not on screen
    }
    guard let previous = rows.first(where: { $0.id == id }) else { throw NotOnDevice("todo", id) }
    let change = try TodoRules.validated(edit(previous.item))
    rows.replace(id, with: Row(id: id, item: change.applied(to: previous.item), status: .pending))
    do {
      let saved = try await repo.update(id: number, change, idempotencyKey: UUID().uuidString)
      rows.replace(id, with: Row(id: id, item: saved))
      return OfflineTodos.Item(item: saved, status: .synced)
    } catch {
      rows.replace(id, with: previous)
      throw error
    }
  }

  /// Deletes todo `id` as ``PostsViewModel/delete(_:keepOffline:)`` deletes a post.
  @discardableResult
  public func delete(_ id: ItemID, keepOffline: Bool = false) async throws
    -> SyncedCollection<Todo>.Deletion
  {
    try await deleteShown(id, keepOffline: keepOffline)
  }
}
