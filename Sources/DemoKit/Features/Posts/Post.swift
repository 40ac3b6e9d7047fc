public struct Post: Codable, Sendable, Equatable, Hashable, Identifiable {
  public struct Reactions: Codable, Sendable, Equatable, Hashable {
    public let likes: Int
    public let dislikes: Int

    /// Creates the value (previews, tests, fixtures).
    public init(likes: Int, dislikes: Int) {
      (self.likes, self.dislikes) = (likes, dislikes)
    }
  }

  public let id: Int
  public let title: String
  public let body: String
  public let userId: Int
  public let tags: [String]?
  public let reactions: Reactions?
  public let views: Int?

  /// Creates the value (previews, tests, fixtures).
  public init(
    id: Int, title: String, body: String, userId: Int, tags: [String]? = nil,
    reactions: Reactions? = nil, views: Int? = nil
  ) {
    self.id = id
    self.title = title
    self.body = body
    self.userId = userId
    self.tags = tags
    self.reactions = reactions
    self.views = views
  }
}

extension Post: PageItem {
  public static var collectionKey: String { "posts" }
}
