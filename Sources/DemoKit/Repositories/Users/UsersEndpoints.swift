import Foundation
import Strata

/// DummyJSON's `/users` endpoints.
public enum UsersEndpoints {
  /// `GET /users?limit&skip`.
  public typealias List = ListEndpoint<User>

  /// `GET /users/search?q&limit&skip`.
  public struct Search: Endpoint {
    /// A page of matches.
    public typealias Response = Page<User>
    /// The query.
    public let query: String
    /// Page size.
    public let limit: Int
    /// Offset.
    public let skip: Int

    /// Creates the request.
    /// - Parameters:
    ///   - query: The query.
    ///   - limit: Page size.
    ///   - skip: Offset.
    public init(query: String, limit: Int, skip: Int) {
      self.query = query
      self.limit = limit
      self.skip = skip
    }
    /// `users/search`.
    public var path: String { "users/search" }
    /// `q`, `limit`, `skip`.
    public var queryItems: [URLQueryItem] {
      [
        URLQueryItem(name: "q", value: query), URLQueryItem(name: "limit", value: String(limit)),
        URLQueryItem(name: "skip", value: String(skip)),
      ]
    }
  }

  /// `GET /users/{id}`.
  public struct Get: Endpoint {
    /// The user.
    public typealias Response = User
    /// The id.
    public let id: Int

    /// Creates the request.
    /// - Parameters:
    ///   - id: The id.
    public init(id: Int) {
      self.id = id
    }
    /// `users/{id}`.
    public var path: String { "users/\(id)" }
  }

  /// `PUT /users/{id}` with the changed fields.
  public struct Update: Endpoint {
    /// The updated user.
    public typealias Response = User
    struct Body: Encodable, Sendable { let firstName: String }
    /// The id.
    public let id: Int
    /// The new given name.
    public let firstName: String

    /// Creates the request.
    /// - Parameters:
    ///   - id: The id.
    ///   - firstName: The new given name.
    public init(id: Int, firstName: String) {
      self.id = id
      self.firstName = firstName
    }
    /// `users/{id}`.
    public var path: String { "users/\(id)" }
    /// PUT.
    public var method: HTTPMethod { .put }
    /// `{"firstName": …}`.
    public var body: (any Encodable & Sendable)? { Body(firstName: firstName) }
  }
}
