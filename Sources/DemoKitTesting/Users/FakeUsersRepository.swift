import DemoKit
import Foundation
import Strata

public typealias FakeUsersRepository = FakeCollection<User>

extension FakeCollection: UsersRepository where Item == User {
  public func page(limit: Int, skip: Int) async throws -> Page<User> {
    try await script.call("page", "\(limit), \(skip)")
    return slice(items, limit: limit, skip: skip)
  }

  /// The users whose name contains the query.
  public func search(_ query: String, limit: Int, skip: Int) async throws -> Page<User> {
    try await script.call("search", "\(query), \(limit), \(skip)")
    let found = items.filter { $0.fullName.localizedCaseInsensitiveContains(query) }
    return slice(found, limit: limit, skip: skip)
  }

  public func user(id: Int) async throws -> User { try await item("user", id: id) }

  public func rename(id: Int, firstName: String) async throws -> User {
    try await script.call("rename", "\(id), \(firstName)")
    let user = try stored(id)
    return User(
      id: user.id, firstName: firstName, lastName: user.lastName, age: user.age,
      email: user.email, username: user.username)
  }
}

extension User: FakeItem {}

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
