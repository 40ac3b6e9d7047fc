import Strata

public protocol UserPostsRepository: Sendable {
  /// A page of user `userId`'s posts (404 when there is no such user).
  func posts(byUser userId: Int, limit: Int, skip: Int) async throws -> Page<Post>
}

// MARK: - Live implementation

public final class APIUserPostsRepository: UserPostsRepository {
  private let network: any Networking

  public init(network: any Networking) { self.network = network }

  public func posts(byUser userId: Int, limit: Int, skip: Int) async throws -> Page<Post> {
    try await network.send(UserPostsRequests.byUser(userId, limit: limit, skip: skip)).value
  }
}

// MARK: - Requests

private enum UserPostsRequests {
  /// `GET /users/{id}/posts`: DummyJSON's page envelope under `posts`.
  static func byUser(_ userId: Int, limit: Int, skip: Int) -> Request<Page<Post>> {
    Request(
      path: "users/\(userId)/posts", query: ["limit": String(limit), "skip": String(skip)])
  }
}
