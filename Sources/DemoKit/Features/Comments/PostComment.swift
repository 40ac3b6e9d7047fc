/// A DummyJSON comment on a post (not `Comment`, which Swift Testing declares).
public struct PostComment: Codable, Sendable, Equatable, Hashable, Identifiable {
  /// Who wrote it, as the comment carries it.
  public struct Author: Codable, Sendable, Equatable, Hashable {
    /// The user's id.
    public let id: Int
    /// Their login name.
    public let username: String
    /// Their full name.
    public let fullName: String

    /// An author (previews, tests).
    public init(id: Int, username: String, fullName: String) {
      self.id = id
      self.username = username
      self.fullName = fullName
    }
  }

  /// The comment id.
  public let id: Int
  /// The text.
  public let body: String
  /// The post it belongs to.
  public let postId: Int
  /// How many liked it.
  public let likes: Int
  /// Who wrote it.
  public let user: Author

  /// A comment (previews, tests).
  public init(id: Int, body: String, postId: Int, likes: Int, user: Author) {
    self.id = id
    self.body = body
    self.postId = postId
    self.likes = likes
    self.user = user
  }
}

extension PostComment: PageItem {
  /// `comments`.
  public static var collectionKey: String { "comments" }
}
