import Observation
import Strata

/// Todos with an optimistic toggle: the change shows at once, and is reverted (with an error
/// message) if the server refuses it.
@MainActor @Observable
public final class TodosViewModel: LoadStateOwner {
  public private(set) var todos: [Todo] = []
  /// Loading, or the last request's failure.
  public internal(set) var state = LoadState.idle
  @ObservationIgnored private let repo: any TodosRepository
  @ObservationIgnored private let analytics: any Analytics

  /// Todos read and toggled through `repo`; toggles are reported to `analytics`.
  public nonisolated init(repo: any TodosRepository, analytics: any Analytics = NoAnalytics()) {
    (self.repo, self.analytics) = (repo, analytics)
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

  /// Flips a todo's completed flag now, confirms with the server, and reverts on failure.
  /// - Returns: Whether the change was kept.
  @discardableResult
  public func toggle(id: Int) async -> Bool {
    state = .idle
    if !todos.contains(where: { $0.id == id }) {
      do {
        todos.append(try await repo.todo(id: id))  // not on screen: fetch it first
      } catch {
        state = .failed(error, "Could not load todo \(id)")
        return false
      }
    }
    guard let index = todos.firstIndex(where: { $0.id == id }) else { return false }
    let previous = todos[index].completed
    todos[index].completed.toggle()
    do {
      let updated = try await repo.setCompleted(id: id, !previous)
      if let current = todos.firstIndex(where: { $0.id == id }) { todos[current] = updated }
      analytics.track("todo_toggled", ["todo_id": .count(id), "completed": .flag(!previous)])
      return true
    } catch {
      if let current = todos.firstIndex(where: { $0.id == id }) {
        todos[current].completed = previous
      }
      state = .failed(error, "Could not update todo \(id)")
      return false
    }
  }
}
