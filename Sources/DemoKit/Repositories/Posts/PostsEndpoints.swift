import Foundation
import Strata

/// DummyJSON's `/posts` endpoints.
public enum PostsEndpoints {
  /// `GET /posts?limit&skip`.
  public typealias List = ListEndpoint<Post>

  /// `GET /posts/{id}`.
  public struct Get: Endpoint {
    /// The post.
    public typealias Response = Post
    /// The id.
    public let id: Int

    /// Creates the request.
    /// - Parameters:
    ///   - id: The id.
    public init(id: Int) {
      self.id = id
    }
    /// `posts/{id}`.
    public var path: String { "posts/\(id)" }
  }

  /// `POST /posts/add`.
  public struct Create: Endpoint {
    /// The created post.
    public typealias Response = Post
    struct Body: Encodable, Sendable {
      let title: String
      let body: String
      let userId: Int
    }
    /// Title.
    public let title: String
    /// Text.
    public let text: String
    /// Author.
    public let userId: Int

    /// Creates the request.
    /// - Parameters:
    ///   - title: Title.
    ///   - text: The post's body text.
    ///   - userId: Author.
    public init(title: String, text: String, userId: Int) {
      self.title = title
      self.text = text
      self.userId = userId
    }

    /// `posts/add`.
    public var path: String { "posts/add" }
    /// POST.
    public var method: HTTPMethod { .post }
    /// `{"title","body","userId"}`.
    public var body: (any Encodable & Sendable)? { Body(title: title, body: text, userId: userId) }
  }

  /// `PUT /posts/{id}`.
  public struct Update: Endpoint {
    /// The updated post.
    public typealias Response = Post
    struct Body: Encodable, Sendable { let title: String }
    /// The id.
    public let id: Int
    /// The new title.
    public let title: String

    /// Creates the request.
    /// - Parameters:
    ///   - id: The id.
    ///   - title: The new title.
    public init(id: Int, title: String) {
      self.id = id
      self.title = title
    }
    /// `posts/{id}`.
    public var path: String { "posts/\(id)" }
    /// PUT.
    public var method: HTTPMethod { .put }
    /// `{"title"}`.
    public var body: (any Encodable & Sendable)? { Body(title: title) }
  }

  /// `DELETE /posts/{id}`.
  public struct Delete: Endpoint {
    /// Ignored.
    public typealias Response = EmptyResponse
    /// The id.
    public let id: Int

    /// Creates the request.
    /// - Parameters:
    ///   - id: The id.
    public init(id: Int) {
      self.id = id
    }
    /// `posts/{id}`.
    public var path: String { "posts/\(id)" }
    /// DELETE.
    public var method: HTTPMethod { .delete }
  }
}
