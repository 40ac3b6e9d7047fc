/// A DummyJSON post.
public struct Post: Codable, Sendable, Equatable, Hashable, Identifiable {
  /// Likes and dislikes.
  public struct Reactions: Codable, Sendable, Equatable, Hashable {
    /// Likes.
    public let likes: Int
    /// Dislikes.
    public let dislikes: Int

    /// Creates the value (previews, tests, fixtures).
    public init(likes: Int, dislikes: Int) {
      self.likes = likes
      self.dislikes = dislikes
    }
  }

  /// The post id.
  public let id: Int
  /// Title.
  public let title: String
  /// Text.
  public let body: String
  /// Author.
  public let userId: Int
  /// Tags.
  public let tags: [String]?
  /// Reactions.
  public let reactions: Reactions?
  /// View count.
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
  /// `posts`.
  public static var collectionKey: String { "posts" }
}
