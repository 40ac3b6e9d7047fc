import DemoKit
import Foundation

// Sample data for previews and tests: values in the real service's shape, nobody's real data.

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

extension AuthUser {
  /// The demo account as a login returns it.
  public static let preview = AuthUser(
    id: 1, username: "emilys", email: "emily.johnson@x.dummyjson.com", firstName: "Emily",
    lastName: "Johnson")
}

extension Post {
  public static let preview = Post(
    id: 1, title: "His mother had always taught him", body: "not to ever think of himself…",
    userId: 1, tags: ["history", "american"], reactions: .init(likes: 192, dislikes: 25),
    views: 305)

  /// Five posts by the preview users.
  public static let previews: [Post] = (1...5).map { id in
    Post(
      id: id, title: "Post \(id)", body: "The text of post \(id).", userId: id, tags: [],
      reactions: .init(likes: id * 10, dislikes: id), views: id * 100)
  }
}

extension Todo {
  public static let preview = Todo(
    id: 1, todo: "Do something nice for someone", completed: false, userId: 1)

  /// Five todos, every third done.
  public static let previews: [Todo] = (1...5).map { id in
    Todo(id: id, todo: "Todo \(id)", completed: id % 3 == 0, userId: id)
  }
}

extension PostComment {
  /// Three comments on post 1.
  public static let previews: [PostComment] = (1...3).map { id in
    PostComment(
      id: id, body: "Comment \(id)", postId: 1, likes: id,
      user: .init(id: id + 1, username: "user\(id)", fullName: "User \(id)"))
  }
}

extension Page {
  /// The whole of `items` as one page.
  public static func preview(_ items: [Item]) -> Page {
    Page(items: items, total: items.count, skip: 0, limit: items.count)
  }
}
