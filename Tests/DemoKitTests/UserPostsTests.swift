import DemoKit
import DemoKitTesting
import Strata
import StrataTesting
import Testing

/// A user's posts: the repository against the sandbox, the view model with the fake.
@Suite("A user's posts")
struct UserPostsTests {
  @Test func againstTheSandboxEveryPostIsTheUsers() async throws {
    try await DemoHarness.with { harness, _ in
      let repository = try harness.container.resolve((any UserPostsRepository).self)
      let everyPost = try await harness.container.resolve((any PostsRepository).self)
        .list(limit: 0, skip: 0).items
      let author = try #require(everyPost.first?.userId)
      let page = try await repository.posts(byUser: author, limit: 0, skip: 0)
      #expect(!page.items.isEmpty && page.items.allSatisfy { $0.userId == author })
      #expect(page.total == everyPost.filter { $0.userId == author }.count)
      let second = try await repository.posts(byUser: author, limit: 1, skip: 1)
      #expect(second.items.map(\.id) == Array(page.items.dropFirst().prefix(1)).map(\.id))
      let missing = await #expect(throws: NetworkError.self) {
        try await repository.posts(byUser: 9_999, limit: 10, skip: 0)
      }
      #expect(missing?.serverMessage == "User with id '9999' not found")
    }
  }

  @MainActor
  @Test func theViewModelShowsThePageOrTheFailure() async {
    let script = FakeScript()
    let model = UserPostsViewModel(repo: FakeUserPostsRepository(script: script))
    await model.load(userId: 2, limit: 5)
    #expect(model.page?.items.map(\.id) == [2] && model.state == .idle)
    #expect(script.calls == ["posts(2, 5, 0)"])
    script.fail("posts", with: NetworkError.server(status: 404, serverMessage: "no such user"))
    await model.load(userId: 9)
    #expect(model.page == nil && model.state.message?.contains("HTTP 404") == true)
    #expect(!model.state.isOffline && !model.state.isLoading)
  }
}
