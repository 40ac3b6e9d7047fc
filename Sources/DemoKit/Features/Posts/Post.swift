/// A DummyJSON post.
public struct Post: Codable, Sendable, Equatable, Hashable, Identifiable {
  /// Likes and dislikes.
  public struct Reactions: Codable, Sendable, Equatable, Hashable {
    /// Likes.
    public let likes: Int
    /// Dislikes.
    public let dislikes: Int
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
}

extension Post: PageItem {
  /// `posts`.
  public static var collectionKey: String { "posts" }
}
