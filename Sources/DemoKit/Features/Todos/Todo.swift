public struct Todo: Codable, Sendable, Equatable, Hashable, Identifiable {
  public let id: Int
  public let todo: String
  /// Whether it is done.
  public var completed: Bool
  public let userId: Int

  public init(id: Int, todo: String, completed: Bool, userId: Int) {
    (self.id, self.todo, self.completed, self.userId) = (id, todo, completed, userId)
  }
}

extension Todo: PageItem {
  public static var collectionKey: String { "todos" }
}
