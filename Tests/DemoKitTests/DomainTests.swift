import DemoKit
import DemoKitTesting
import Foundation
import Strata
import StrataTesting
import Testing

/// The domain layer: the posts' rules, the events the domain reports, and features that
/// configuration turns off.
@MainActor
@Suite("Domain: rules, analytics, feature flags")
struct DomainTests {
  @Test func postRulesTrimThenRefuseWithTheField() throws {
    let trimmed = try PostRules.validated(PostDraft(title: "  Hi \n", body: "\tText ", userId: 2))
    #expect(trimmed == PostDraft(title: "Hi", body: "Text", userId: 2))
    let cases: [(PostDraft, String)] = [
      (PostDraft(title: " \n ", body: "b", userId: 1), "title"),
      (PostDraft(title: String(repeating: "x", count: 121), body: "b", userId: 1), "title"),
      (PostDraft(title: "t", body: "   ", userId: 1), "body"),
      (PostDraft(title: "t", body: String(repeating: "x", count: 10_001), userId: 1), "body"),
      (PostDraft(title: "t", body: "b", userId: 0), "userId"),
    ]
    for (draft, field) in cases {
      #expect(throws: ValidationError.self) { try PostRules.validated(draft) }
      do { _ = try PostRules.validated(draft) } catch { #expect(error.field == field) }
    }
    _ = try PostRules.validated(
      PostDraft(title: String(repeating: "x", count: 120), body: "b", userId: 1))
  }

  @Test func accountRulesShapeTheUsernameAndNeverTouchThePassword() throws {
    #expect(try AccountRules.validatedUsername(" emilys\n", password: " p ") == "emilys")
    let cases: [(String, String, String)] = [
      ("  ", "p", "username"), ("emily s", "p", "username"), ("emi\u{7}lys", "p", "username"),
      (String(repeating: "e", count: 65), "p", "username"), ("emilys", "", "password"),
    ]
    for (username, password, field) in cases {
      do {
        _ = try AccountRules.validatedUsername(username, password: password)
        Issue.record("accepted \(username.debugDescription)")
      } catch { #expect(error.field == field, "\(username.debugDescription)") }
    }
  }

  @Test func aRefusedPostIsNeverSentAndTracksNothing() async {
    let script = FakeScript()
    let analytics = RecordingAnalytics()
    let model = PostsViewModel(repo: FakePostsRepository(script: script), analytics: analytics)
    await #expect(throws: ValidationError(field: "title", "Give the post a title.")) {
      try await model.create(PostDraft(title: "  ", body: "b", userId: 1))
    }
    #expect(model.rows.map(\.item).isEmpty, "nothing shown")
    #expect(script.calls.isEmpty && analytics.events.isEmpty)
  }

  @Test func eachDomainEventCarriesIdsCountsAndStatusesOnly() async throws {
    let analytics = RecordingAnalytics()
    let typed = "Secret plans of Emily"
    let posts = PostsViewModel(repo: FakePostsRepository(), analytics: analytics)
    #expect(
      try await posts.create(PostDraft(title: typed, body: typed, userId: 2)).status == .synced)
    let failing = FakeScript()
    failing.fail("create", with: NetworkError.server(status: 503))
    let refused = PostsViewModel(repo: FakePostsRepository(script: failing), analytics: analytics)
    await #expect(throws: NetworkError.self) {
      try await refused.create(PostDraft(title: typed, body: "b", userId: 2))
    }
    let todos = TodosViewModel(repo: FakeTodosRepository(), analytics: analytics)
    await todos.load()
    let before = try #require(todos.rows.map(\.item).first { $0.id == 1 }).completed
    let toggled = try await todos.toggle(.server(1))
    #expect(toggled.status == .synced && toggled.item.completed == !before)
    #expect(analytics.names == ["post_created", "post_create_failed", "todo_toggled"])
    #expect(analytics.events[1].properties == ["status": .count(503)])
    #expect(analytics.events[2].properties["todo_id"] == .count(1))
    #expect(analytics.events[2].properties["completed"] == .flag(!before), "the new state")

    // No property is named like a secret or personal data, and no typed text appears.
    let redactor = Redactor()
    let personal = Redactor.defaultPersonalFieldNames.map { $0.lowercased() }
    for event in analytics.events {
      for name in event.properties.keys {
        #expect(!redactor.isSensitive(field: name), "\(event.name).\(name)")
        #expect(!personal.contains(name.lowercased()), "\(event.name).\(name)")
      }
      let encoded = String(decoding: try JSONEncoder().encode(event.properties), as: UTF8.self)
      #expect(!encoded.contains(typed) && !encoded.contains("Emily"), "\(encoded)")
    }
  }

  @Test func theCompositionRootRegistersNothingATurnedOffFeatureNeeds() throws {
    func container(_ sets: [Config.Key: String]) throws -> DependencyContainer {
      let config = try Config(
        environment: [:], overrides: sets,
        defaults: [.api: "http://127.0.0.1:1", .tokenStore: "memory"])
      return DemoContainer.make(config: config, environment: [:])
    }
    let on = try container([:])
    #expect(try on.resolve(FeatureFlags.self) == .allOn)
    #expect(try on.resolve(PostDetailViewModel?.self) != nil)
    let off = try container([Feature.comments.key: "NO", Feature.offline.key: "NO"])
    #expect(try off.resolve(PostDetailViewModel?.self) == nil)
    #expect(try off.resolve((any CommentsRepository)?.self) == nil)
    #expect(try off.resolve(OfflinePosts?.self) == nil)
    #expect(try off.resolve(OfflineTodos?.self) == nil)
    #expect(try off.resolve(PostsViewModel?.self) != nil, "the rest stays")
    try off.validate()
    let bad = try container([Feature.offline.key: "maybe"])
    #expect(throws: DependencyError.self) { try bad.validate() }
  }

  /// An ID on a command line is the server's number or a local id, never ambiguous: a local id
  /// drawn is never all digits (which would read as a number).
  @Test func anItemIDIsAServerNumberOrALocalID() {
    #expect(ItemID("12") == .server(12) && ItemID("12345678") == .server(12_345_678))
    #expect(ItemID("abcd1234") == .local("abcd1234"))
    for bad in ["", "0", "-1", "ABCD1234", "abc", "abcd12345", "1e3", "９", "99999999999"] {
      #expect(ItemID(bad) == nil, "\(bad)")
    }
    for _ in 0..<2_000 {
      let id = SyncedCollection<Post>.newLocalId()
      #expect(ItemID(id) == .local(id), "\(id)")
    }
  }
}
