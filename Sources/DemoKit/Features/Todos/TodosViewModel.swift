import Observation
import Strata

/// Todos with an optimistic toggle: the change shows at once, and is reverted (with an error
/// message) if the server refuses it.
@MainActor @Observable
public final class TodosViewModel {
  /// Loaded todos.
  public private(set) var todos: [Todo] = []
  /// A fetch is under way.
  public private(set) var isLoading = false
  /// The last failure, if any.
  public private(set) var error: String?
  @ObservationIgnored private let repo: any TodosRepository

  /// Creates the view model.
  public nonisolated init(repo: any TodosRepository) { self.repo = repo }

  /// Loads the first `limit` todos.
  public func load(limit: Int = 10) async {
    isLoading = true
    error = nil
    defer { isLoading = false }
    do {
      todos = try await repo.list(limit: limit, skip: 0).items
    } catch {
      self.error = ErrorText.describe(error)
    }
  }

  /// Flips a todo's completed flag now, confirms with the server, and reverts on failure.
  /// - Returns: Whether the change was kept.
  @discardableResult
  public func toggle(id: Int) async -> Bool {
    guard let index = todos.firstIndex(where: { $0.id == id }) else { return false }
    let previous = todos[index].completed
    todos[index].completed.toggle()
    error = nil
    do {
      _ = try await repo.setCompleted(id: id, !previous)
      return true
    } catch {
      if let current = todos.firstIndex(where: { $0.id == id }) {
        todos[current].completed = previous
      }
      self.error = "Could not update todo \(id): \(ErrorText.describe(error))"
      return false
    }
  }
}
