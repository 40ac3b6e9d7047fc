/// A DummyJSON comment on a post (not `Comment`, which Swift Testing declares).
public struct PostComment: Codable, Sendable, Equatable, Hashable, Identifiable {
  /// Who wrote it, as the comment carries it.
  public struct Author: Codable, Sendable, Equatable, Hashable {
    public let id: Int
    public let username: String
    public let fullName: String

    /// An author (previews, tests).
    public init(id: Int, username: String, fullName: String) {
      (self.id, self.username, self.fullName) = (id, username, fullName)
    }
  }

  public let id: Int
  public let body: String
  /// The post it belongs to.
  public let postId: Int
  /// How many liked it.
  public let likes: Int
  public let user: Author

  /// A comment (previews, tests).
  public init(id: Int, body: String, postId: Int, likes: Int, user: Author) {
    (self.id, self.body, self.postId, self.likes, self.user) = (id, body, postId, likes, user)
  }
}

extension PostComment: PageItem {
  public static var collectionKey: String { "comments" }
}
