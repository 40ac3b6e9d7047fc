import Foundation
import StrataConcurrency

/// What a sandbox started with `keepsWrites` (`sandbox serve --keep-writes`) keeps of the
/// writes it answers: records created, changed and deleted, by resource and id, over the seed
/// (which never changes). A read or write by id sees them, and so do the lists of posts and
/// todos (a change in its place, a deletion gone, a creation at the end). Off by default,
/// because DummyJSON keeps nothing: an edit of a post it just "created" is a 404.
final class KeptWrites: Sendable {
  /// Whether writes are kept now (a running server can start or stop keeping them).
  let isOn: Lock<Bool>
  /// By resource (`posts`), by id: the record as kept, or nil once deleted.
  private let records = Lock<[String: [Int: Data?]]>([:])
  /// How many each resource has created, for the next id.
  private let created = Lock<[String: Int]>([:])

  /// An event per write kept, for `GET /events`.
  let feed = EventFeed()

  init(on: Bool) { isOn = Lock(on) }

  /// The record `text` names, when a kept write touched it: `.some(nil)` when deleted; nil
  /// when none did (the seed answers).
  func record(_ resource: String, _ text: String) -> Data?? {
    guard isOn.withLock({ $0 }), let id = Int(text), String(id) == text else { return nil }
    return records.withLock { $0[resource]?[id] }
  }

  /// The id for a new record: after the seed's `seeded` and those created before while writes
  /// were kept (DummyJSON's: always the one after the seed).
  func nextID(_ resource: String, after seeded: Int) -> Int {
    guard isOn.withLock({ $0 }) else { return seeded + 1 }
    return created.withLock {
      $0[resource, default: 0] += 1
      return seeded + ($0[resource] ?? 0)
    }
  }

  /// Keeps `object` as the record it names.
  /// - Returns: Its JSON as kept (what later reads answer), nil when writes are not kept.
  @discardableResult
  func keep(_ resource: String, _ object: [String: Any]) -> Data? {
    guard isOn.withLock({ $0 }), let id = object["id"] as? Int,
      let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    else { return nil }
    records.withLock { $0[resource, default: [:]][id] = .some(data) }
    feed.publish("\(resource).kept", resource: resource, id: id, record: data)
    return data
  }

  /// `seed` (a resource's records in order) as the kept writes changed it: each changed one
  /// in its place, deleted ones gone, created ones after, by id. The seed itself when writes
  /// are not kept or none touched the resource.
  func listed(_ resource: String, _ seed: [Data]) -> [Data] {
    guard isOn.withLock({ $0 }), let kept = records.withLock({ $0[resource] }), !kept.isEmpty
    else { return seed }
    var seen = Set<Int>()
    var listed = seed.compactMap { item -> Data? in
      guard
        let id = (try? JSONSerialization.jsonObject(with: item) as? [String: Any])?["id"]
          as? Int, let change = kept[id]
      else { return item }
      seen.insert(id)
      return change
    }
    listed += kept.keys.sorted().filter { !seen.contains($0) }.compactMap { kept[$0] ?? nil }
    return listed
  }

  func delete(_ resource: String, _ text: String) {
    guard isOn.withLock({ $0 }), let id = Int(text) else { return }
    records.withLock { $0[resource, default: [:]][id] = .some(nil) }
    feed.publish("\(resource).deleted", resource: resource, id: id, record: nil)
  }

}

extension SandboxAPI {
  /// What the `edited-elsewhere` fault does: the post or todo `path` names, as kept now, with
  /// " (edited elsewhere)" on its title or text, kept as another client's write would be.
  /// Nothing when writes are not kept or the path names no such record.
  func editElsewhere(_ path: String) {
    let parts = path.split(separator: "/").map(String.init)
    guard kept.isOn.withLock({ $0 }), parts.count == 2 else { return }
    let (items, field) =
      switch parts[0] {
      case "posts": (encodedPosts, "title")
      case "todos": (encodedTodos, "todo")
      default: ([Data](), "")
      }
    guard !field.isEmpty,
      let record = try? stored(parts[0], parts[1], in: items, kind: "", label: "")
    else { return }
    var object = Self.object(record)
    object[field] = Self.text(object[field]) + " (edited elsewhere)"
    kept.keep(parts[0], object)
  }
}
