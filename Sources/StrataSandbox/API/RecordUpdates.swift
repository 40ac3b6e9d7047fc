import Foundation

/// How DummyJSON answers `PUT|PATCH /<resource>/{id}` (nothing is stored): each resource
/// builds its answer its own way from the stored record and the body, mostly with
/// JavaScript's `body.field || stored.field`, so a `0`, `false`, `""` or `null` sent keeps the
/// stored value, and a field the resource does not know is dropped.
enum RecordUpdate: Sendable {
  /// `id`, `title`, `body`, `userId`, `tags`, `reactions`, each `||` (no `views`).
  case post
  /// `id`, `todo` and `userId` with `||`; `completed` from the body whenever it is present.
  case todo
  /// Every stored field; a top-level one from the body whenever it is present, the fields of
  /// a nested object (`hair`, `address`, `company.address.coordinates`, …) each with `||`.
  case user
  /// The stored comment; `body` if a non-empty string; `postId` and `userId` checked as on
  /// create, `userId` turning into the comment's `user`.
  case comment
}

extension SandboxAPI {
  func update(_ rule: RecordUpdate, _ stored: [String: Any], id: String, body: [String: Any])
    throws(Rejection) -> [String: Any]
  {
    let id = Int(id) ?? 0
    switch rule {
    case .post:
      var result: [String: Any] = ["id": id]
      for field in ["title", "body", "userId", "tags", "reactions"] {
        result[field] = Self.either(body[field], stored[field])
      }
      return result
    case .todo:
      return [
        "id": id, "todo": Self.either(body["todo"], stored["todo"]) ?? NSNull(),
        "completed": body["completed"] ?? stored["completed"] ?? NSNull(),
        "userId": Self.either(body["userId"], stored["userId"]) ?? NSNull(),
      ]
    case .user:
      return Self.user(stored, id: id, body: body)
    case .comment:
      var result = stored
      if let text = body["body"] as? String, !text.isEmpty { result["body"] = text }
      if Self.isTruthy(body["postId"]) {
        _ = try Self.lookUp(
          Self.text(body["postId"]), in: encodedPosts, kind: "post", label: "Post")
        result["postId"] = body["postId"]
      }
      if Self.isTruthy(body["userId"]) {
        let user = try user(Self.text(body["userId"]))
        result["user"] = [
          "id": user.id, "username": user.username,
          "fullName": "\(user.firstName) \(user.lastName)",
        ]
      }
      return result
    }
  }

  /// `POST /users/add`: every field a user has, from the body or blank as DummyJSON's
  /// template leaves it (`''` for text, `null` for numbers, `role` `user`).
  func newUser(id: Int, body: [String: Any]) -> [String: Any] {
    func blank(_ value: Any) -> Any {
      switch value {
      case let object as [String: Any]: object.mapValues(blank)
      case is String: ""
      default: NSNull()
      }
    }
    guard let template = encodedUsers.first else { return ["id": id] }
    var stored = Self.object(template).mapValues(blank)
    stored["role"] = "user"
    return Self.user(stored, id: id, body: body)
  }

  /// A top-level field from the body whenever it is present (JavaScript's `= default`), a
  /// nested object's fields each with `||`.
  private static func user(_ stored: [String: Any], id: Int, body: [String: Any])
    -> [String: Any]
  {
    var result: [String: Any] = ["id": id]
    for (field, value) in stored where field != "id" {
      result[field] =
        if let nested = value as? [String: Any] {
          merged(body[field], into: nested)
        } else {
          body[field] ?? value
        }
    }
    return result
  }

  /// JavaScript's `new || old`.
  private static func either(_ new: Any?, _ old: Any?) -> Any? { isTruthy(new) ? new : old }

  /// `{ a: new?.a || old.a, … }` over the stored object's fields, nested objects alike.
  private static func merged(_ new: Any?, into old: [String: Any]) -> [String: Any] {
    let new = new as? [String: Any] ?? [:]
    var result: [String: Any] = [:]
    for (field, value) in old {
      result[field] =
        if let nested = value as? [String: Any] {
          merged(new[field], into: nested)
        } else {
          either(new[field], value)
        }
    }
    return result
  }

  /// JavaScript's truthiness of a JSON value: `null`, `false`, `0`, `""` are false.
  private static func isTruthy(_ value: Any?) -> Bool {
    switch value {
    case nil, is NSNull: false
    case let text as String: !text.isEmpty
    case let number as NSNumber: number.doubleValue != 0
    default: true
    }
  }
}
