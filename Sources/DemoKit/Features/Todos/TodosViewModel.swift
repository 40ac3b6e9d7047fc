import Foundation
import Observation
import Strata

/// Todos with an optimistic toggle: the change shows at once, and is reverted (the error
/// thrown) if the server refuses it.
@MainActor @Observable
public final class TodosViewModel: LoadStateOwner {
  public private(set) var todos: [Todo] = []
  /// Loading, or the last request's failure.
  public var state = LoadState.idle
  @ObservationIgnored private let repo: any TodosRepository
  @ObservationIgnored private let analytics: any Analytics
  /// Where todos change while offline, and when.
  @ObservationIgnored private let offline: OfflineRoute<OfflineTodos>

  /// Todos read and toggled through `repo`; toggles are reported to `analytics`. With
  /// `offline`, a toggle made without a route or on request is kept on the device.
  public nonisolated init(
    repo: any TodosRepository, offline: OfflineRoute<OfflineTodos> = .off,
    analytics: any Analytics = NoAnalytics()
  ) {
    (self.repo, self.offline, self.analytics) = (repo, offline, analytics)
  }

  /// The page last loaded (its items are ``todos``).
  public private(set) var page: Page<Todo>?

  /// Loads `limit` todos after the first `skip`.
  public func load(limit: Int = 10, skip: Int = 0) async {
    let page = await loading { try await repo.list(limit: limit, skip: skip) }
    guard let page else { return }
    self.page = page
    todos = page.items
  }

  /// Flips todo `id`: the one call for "toggle", from a screen or a command line. It is kept
  /// on this device as pending, for a sync to send, when `keepOffline` or the device has no
  /// route — if the offline feature is on (see ``PostsViewModel/create(_:keepOffline:)``);
  /// offline, only a todo the device has can change (``TodoNotOnDevice`` otherwise). Else the
  /// flip shows at once, the server confirms it, and on failure it is reverted and the error
  /// thrown; a todo not on screen is fetched first.
  /// - Returns: The todo as it now stands: `synced` (the server's) or `pending` (kept here).
  @discardableResult
  public func toggle(id: Int, keepOffline: Bool = false) async throws -> OfflineTodos.Item {
    if let device = try offline.device(keepOffline: keepOffline) {
      guard let kept = try await device.toggle(id: id, offline: true) else {
        throw TodoNotOnDevice(id: id)
      }
      if let index = todos.firstIndex(where: { $0.id == id }) { todos[index] = kept.item }
      return kept
    }
    if !todos.contains(where: { $0.id == id }) {
      todos.append(try await repo.todo(id: id))  // not on screen: fetch it first
    }
    guard let index = todos.firstIndex(where: { $0.id == id }) else {
      throw TodoNotOnDevice(id: id)
    }
    let previous = todos[index].completed
    todos[index].completed.toggle()
    do {
      let updated = try await repo.setCompleted(
        id: id, !previous, idempotencyKey: UUID().uuidString)
      if let current = todos.firstIndex(where: { $0.id == id }) { todos[current] = updated }
      analytics.track("todo_toggled", ["todo_id": .count(id), "completed": .flag(!previous)])
      return OfflineTodos.Item(item: updated, status: .synced)
    } catch {
      if let current = todos.firstIndex(where: { $0.id == id }) {
        todos[current].completed = previous
      }
      throw error
    }
  }
}

/// An offline toggle of a todo the device does not have: offline means no request at all.
public struct TodoNotOnDevice: Error, Equatable, CustomStringConvertible {
  public let id: Int
  public init(id: Int) { self.id = id }
  public var description: String {
    "todo \(id) is not on this device: list it while online (the page shown is kept), then "
      + "toggle it offline"
  }
}
