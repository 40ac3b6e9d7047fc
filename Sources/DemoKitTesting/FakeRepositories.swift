import DemoKit
import Foundation
import Strata
import StrataConcurrency

/// The slice `skip..<skip+limit` of `items` as a page (limit 0: all).
func slice<Item>(_ items: [Item], limit: Int, skip: Int) -> Page<Item> {
  let start = min(max(0, skip), items.count)
  let end = limit == 0 ? items.count : min(items.count, start + max(0, limit))
  return Page(items: Array(items[start..<end]), total: items.count, skip: start, limit: limit)
}

/// Users from memory; every call recorded by ``script``.
public final class FakeUsersRepository: UsersRepository {
  /// Records calls, scripts failures, holds answers.
  public let script: FakeScript
  private let users: [User]

  /// A repository over `users`.
  public init(users: [User] = User.previews, script: FakeScript = FakeScript()) {
    self.users = users
    self.script = script
  }

  /// A slice of the users.
  public func page(limit: Int, skip: Int) async throws -> Page<User> {
    try await script.call("page", "\(limit), \(skip)")
    return slice(users, limit: limit, skip: skip)
  }

  /// The users whose name contains the query.
  public func search(_ query: String, limit: Int, skip: Int) async throws -> Page<User> {
    try await script.call("search", "\(query), \(limit), \(skip)")
    return slice(
      users.filter { $0.fullName.localizedCaseInsensitiveContains(query) }, limit: limit, skip: skip
    )
  }

  /// The user with `id` (404 if none).
  public func user(id: Int) async throws -> User {
    try await script.call("user", "\(id)")
    return try stored(id)
  }

  /// The stored user, without recording a call: one call of the API is one recorded call.
  private func stored(_ id: Int) throws -> User {
    guard let user = users.first(where: { $0.id == id }) else {
      throw NetworkError.server(status: 404, serverMessage: "User with id '\(id)' not found")
    }
    return user
  }

  /// The user with a new first name.
  public func rename(id: Int, firstName: String) async throws -> User {
    try await script.call("rename", "\(id), \(firstName)")
    let user = try stored(id)
    return User(
      id: user.id, firstName: firstName, lastName: user.lastName, age: user.age,
      email: user.email, username: user.username)
  }
}

/// Posts from memory; every call recorded by ``script``; created posts are numbered after the
/// last one, as DummyJSON does.
public final class FakePostsRepository: PostsRepository {
  /// Records calls, scripts failures, holds answers.
  public let script: FakeScript
  private let posts: [Post]

  /// A repository over `posts`.
  public init(posts: [Post] = Post.previews, script: FakeScript = FakeScript()) {
    self.posts = posts
    self.script = script
  }

  /// A slice of the items.
  public func list(limit: Int, skip: Int) async throws -> Page<Post> {
    try await script.call("list", "\(limit), \(skip)")
    return slice(posts, limit: limit, skip: skip)
  }

  /// The post with `id` (404 if none).
  public func post(id: Int) async throws -> Post {
    try await script.call("post", "\(id)")
    guard let post = posts.first(where: { $0.id == id }) else {
      throw NetworkError.server(status: 404, serverMessage: "Post with id '\(id)' not found")
    }
    return post
  }

  /// A new post, numbered after the last.
  public func create(title: String, body: String, userId: Int) async throws -> Post {
    try await script.call("create", "\(title), \(body), \(userId)")
    return Post(id: (posts.map(\.id).max() ?? 0) + 1, title: title, body: body, userId: userId)
  }

  /// The post with a new title.
  public func update(id: Int, title: String) async throws -> Post {
    try await script.call("update", "\(id), \(title)")
    let post = try await self.post(id: id)
    return Post(id: id, title: title, body: post.body, userId: post.userId)
  }

  /// Nothing: the post is "deleted".
  public func delete(id: Int) async throws {
    try await script.call("delete", "\(id)")
  }
}

/// Todos from memory; every call recorded by ``script``.
public final class FakeTodosRepository: TodosRepository {
  /// Records calls, scripts failures, holds answers.
  public let script: FakeScript
  private let todos: [Todo]

  /// A repository over `todos`.
  public init(todos: [Todo] = Todo.previews, script: FakeScript = FakeScript()) {
    self.todos = todos
    self.script = script
  }

  /// A slice of the items.
  public func list(limit: Int, skip: Int) async throws -> Page<Todo> {
    try await script.call("list", "\(limit), \(skip)")
    return slice(todos, limit: limit, skip: skip)
  }

  /// The todo with `id` (404 if none).
  public func todo(id: Int) async throws -> Todo {
    try await script.call("todo", "\(id)")
    guard let todo = todos.first(where: { $0.id == id }) else {
      throw NetworkError.server(status: 404, serverMessage: "Todo with id '\(id)' not found")
    }
    return todo
  }

  /// The todo, done or not.
  public func setCompleted(id: Int, _ completed: Bool) async throws -> Todo {
    try await script.call("setCompleted", "\(id), \(completed)")
    let todo = try await self.todo(id: id)
    return Todo(id: id, todo: todo.todo, completed: completed, userId: todo.userId)
  }
}

/// Comments from memory; every call recorded by ``script``.
public final class FakeCommentsRepository: CommentsRepository {
  /// Records calls, scripts failures, holds answers.
  public let script: FakeScript
  private let comments: [PostComment]

  /// A repository over `comments`.
  public init(comments: [PostComment] = PostComment.previews, script: FakeScript = FakeScript()) {
    self.comments = comments
    self.script = script
  }

  /// A slice of the items.
  public func list(limit: Int, skip: Int) async throws -> Page<PostComment> {
    try await script.call("list", "\(limit), \(skip)")
    return slice(comments, limit: limit, skip: skip)
  }

  /// The comments on `postId`.
  public func comments(postId: Int) async throws -> Page<PostComment> {
    try await script.call("comments", "\(postId)")
    return .preview(comments.filter { $0.postId == postId })
  }
}

/// A sign-in that accepts `emilys` / `emilyspass`; every call recorded by ``script``.
public final class FakeAuthRepository: AuthRepository {
  /// Records calls, scripts failures, holds answers.
  public let script: FakeScript
  private let signedIn: Lock<Bool>

  /// A repository, signed in or not.
  public init(signedIn: Bool = false, script: FakeScript = FakeScript()) {
    self.signedIn = Lock(signedIn)
    self.script = script
  }

  /// The preview user, for emilys / emilyspass.
  public func login(username: String, password: String) async throws -> AuthUser {
    try await script.call("login", username)
    guard username == "emilys", password == "emilyspass" else {
      throw NetworkError.server(status: 400, serverMessage: "Invalid credentials")
    }
    signedIn.withLock { $0 = true }
    return .preview
  }

  public func refresh(refreshToken: String) async throws -> Credentials {
    try await script.call("refresh")
    return Credentials(accessToken: "access", refreshToken: "refresh")
  }

  /// The preview user, when signed in.
  public func me() async throws -> User {
    try await script.call("me")
    guard signedIn.withLock({ $0 }) else { throw NetworkError.unauthorized(.notSignedIn) }
    return .preview
  }

  public func logout() async {
    try? await script.call("logout")
    signedIn.withLock { $0 = false }
  }

  public var isSignedIn: Bool { get async { signedIn.withLock { $0 } } }
}
