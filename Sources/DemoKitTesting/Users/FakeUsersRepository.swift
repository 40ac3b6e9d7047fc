import DemoKit
import Foundation
import Strata
import StrataConcurrency

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

// Sample data in the real service's shape, nobody's real data.

extension User {
  /// Emily, the demo account's user.
  public static let preview = User(
    id: 1, firstName: "Emily", lastName: "Johnson", age: 28,
    email: "emily.johnson@x.dummyjson.com", username: "emilys", phone: "+81 965-431-3024",
    address: .init(
      address: "626 Main Street", city: "Phoenix", state: "Mississippi", postalCode: "29112"),
    company: .init(
      department: "Engineering", name: "Dooley, Kozey and Cronin", title: "Sales Manager"),
    role: "admin")

  /// Ten users, Emily first.
  public static let previews: [User] =
    [preview]
    + ["Michael", "Sophia", "James", "Emma", "Olivia", "Alexander", "Ava", "Ethan", "Isabella"]
    .enumerated().map { offset, name in
      User(
        id: offset + 2, firstName: name, lastName: "Preview", age: 20 + offset,
        email: "\(name.lowercased())@x.dummyjson.com", username: name.lowercased())
    }
}
