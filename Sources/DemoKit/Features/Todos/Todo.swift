/// A DummyJSON todo.
public struct Todo: Codable, Sendable, Equatable, Hashable, Identifiable {
  /// The todo id.
  public let id: Int
  /// What to do.
  public let todo: String
  /// Whether it is done.
  public var completed: Bool
  /// Owner.
  public let userId: Int

  /// Creates a todo.
  public init(id: Int, todo: String, completed: Bool, userId: Int) {
    self.id = id
    self.todo = todo
    self.completed = completed
    self.userId = userId
  }
}

extension Todo: PageItem {
  /// `todos`.
  public static var collectionKey: String { "todos" }
}
