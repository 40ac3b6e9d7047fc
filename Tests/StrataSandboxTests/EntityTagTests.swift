import Foundation
import Testing

@testable import StrataSandbox

/// With writes kept, single posts and todos carry strong entity tags and writes honour
/// `If-Match` (RFC 9110 §13.1.1): a tag that is not the record's current one — a weak one
/// included, since the comparison is strong — is 412, nothing changed. Without kept writes,
/// as on DummyJSON, the tag is Express's weak one and `If-Match` is ignored.
@Suite("Sandbox: entity tags and If-Match on kept writes")
struct EntityTagTests {
  static func keeping() -> SandboxServer.Configuration {
    var configuration = SandboxServer.Configuration()
    configuration.keepsWrites = true
    return configuration
  }

  @Test(arguments: ["/posts/1", "/todos/2"])
  func aWriteOnAnOldTagIsRefusedAndOnTheCurrentOneDone(_ path: String) async throws {
    try await Sandbox.with(configuration: Self.keeping()) { sandbox in
      let read = try await sandbox.send("GET", path)
      let tag = try #require(read.header("ETag"))
      #expect(tag.hasPrefix("\"") && !tag.hasPrefix("W/"), "strong: \(tag)")
      let field = path.hasPrefix("/posts") ? "title" : "todo"
      let done = try await sandbox.send(
        "PUT", path, json: [field: "First"], headers: ["If-Match": tag])
      #expect(done.status == 200)
      let newTag = try #require(done.header("ETag"))
      #expect(newTag != tag)
      #expect(try await sandbox.send("GET", path).header("ETag") == newTag, "the read agrees")
      for stale in [tag, "W/" + newTag, "\"nope\""] {
        let refused = try await sandbox.send(
          "PUT", path, json: [field: "Second"], headers: ["If-Match": stale])
        #expect(refused.status == 412, "\(stale)")
        let refusedDelete = try await sandbox.send("DELETE", path, headers: ["If-Match": stale])
        #expect(refusedDelete.status == 412)
      }
      let kept = try await sandbox.send("GET", path)
      #expect(kept.json[field] as? String == "First", "nothing changed by a refused write")
      let any = try await sandbox.send(
        "PUT", path, json: [field: "Third"], headers: ["If-Match": "*"])
      #expect(any.status == 200)
      let listed = try await sandbox.send("GET", path.hasPrefix("/posts") ? "/posts" : "/todos")
      let items = listed.json[path.hasPrefix("/posts") ? "posts" : "todos"] as? [[String: Any]]
      #expect(items?.contains { $0[field] as? String == "Third" } == true, "the list shows it")
    }
  }

  @Test func withoutKeptWritesTagsAreWeakAndNoPreconditionHolds() async throws {
    try await Sandbox.with { sandbox in
      #expect(try await sandbox.send("GET", "/posts/1").header("ETag")?.hasPrefix("W/") == true)
      let write = try await sandbox.send(
        "PUT", "/posts/1", json: ["title": "x"], headers: ["If-Match": "\"nope\""])
      #expect(write.status == 200, "as DummyJSON: the header is ignored")
    }
  }

  @Test func theEditedElsewhereFaultChangesTheRecordFirst() async throws {
    try await Sandbox.with(configuration: Self.keeping()) { sandbox in
      let tag = try #require(try await sandbox.send("GET", "/posts/3").header("ETag"))
      sandbox.server.faults.add(try .init(spec: "PUT /posts/3 edited-elsewhere"))
      let write = try await sandbox.send(
        "PUT", "/posts/3", json: ["title": "Mine"], headers: ["If-Match": tag])
      #expect(write.status == 412)
      let now = try await sandbox.send("GET", "/posts/3")
      #expect((now.json["title"] as? String)?.hasSuffix(" (edited elsewhere)") == true)
    }
  }

  /// A keyed write refused by its precondition was not done: the same change under the same
  /// key, sent again on the version now read, is carried out — not answered 412 again.
  @Test func aPreconditionRefusalIsNotReplayedUnderItsKey() async throws {
    try await Sandbox.with(configuration: Self.keeping()) { sandbox in
      let tag = try #require(try await sandbox.send("GET", "/posts/4").header("ETag"))
      let change: [String: Any] = ["title": "Keyed"]
      let stale = try await sandbox.send(
        "PUT", "/posts/4", json: change, headers: ["If-Match": "\"old\"", "Idempotency-Key": "k"])
      #expect(stale.status == 412)
      let again = try await sandbox.send(
        "PUT", "/posts/4", json: change, headers: ["If-Match": tag, "Idempotency-Key": "k"])
      #expect(again.status == 200 && again.header("Idempotent-Replayed") == nil)
      let replay = try await sandbox.send(
        "PUT", "/posts/4", json: change, headers: ["If-Match": tag, "Idempotency-Key": "k"])
      #expect(replay.status == 200 && replay.header("Idempotent-Replayed") == "true")
    }
  }
}
