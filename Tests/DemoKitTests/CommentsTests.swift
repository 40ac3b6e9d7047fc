import DemoKit
import DemoKitTesting
import Foundation
import Strata
import StrataSandbox
import StrataTesting
import Testing

@Suite("Comments: a post with its comments")
struct CommentsTests {
  static let onePage = #"""
    {"comments":[{"id":261,"body":"What terrific math skills you're showing!","postId":1,
    "likes":6,"user":{"id":99,"username":"henryl","fullName":"Henry Lopez"}}],
    "total":1,"skip":0,"limit":1}
    """#

  @Test func theRepositoryAsksForEveryCommentOfThePost() async throws {
    let network = RecordingNetworking.answering(["GET posts/1/comments": Self.onePage])
    let page = try await APICommentsRepository(network: network).comments(postId: 1)
    #expect(network.requests.map(\.line) == ["GET posts/1/comments"])
    #expect(network.requests.first?.query == [URLQueryItem(name: "limit", value: "0")])
    #expect(network.requests.first?.requiresAuth == false)
    #expect(
      page.items == [
        PostComment(
          id: 261, body: "What terrific math skills you're showing!", postId: 1, likes: 6,
          user: .init(id: 99, username: "henryl", fullName: "Henry Lopez"))
      ])
  }

  @Test func againstTheSandboxEveryCommentBelongsToThePost() async throws {
    try await DemoHarness.with { harness, _ in
      let repository = try harness.container.resolve((any CommentsRepository).self)
      let all = try await repository.list(limit: 0, skip: 0)
      #expect(all.total == 300 && all.items.count == 300)
      let postId = try #require(all.items.first?.postId)
      let page = try await repository.comments(postId: postId)
      #expect(!page.items.isEmpty && page.items.allSatisfy { $0.postId == postId })
      #expect(page.items.count == all.items.filter { $0.postId == postId }.count)
      #expect(page.items.allSatisfy { !$0.user.fullName.isEmpty && !$0.user.username.isEmpty })
      let missing = await #expect(throws: NetworkError.self) {
        try await repository.comments(postId: 9_999)
      }
      #expect(missing?.serverMessage == "Post with id '9999' not found")
    }
  }

  @MainActor
  @Test func theViewModelShowsThePostWithItsComments() async throws {
    let comment = PostComment(
      id: 7, body: "Nice", postId: 2, likes: 1,
      user: .init(id: 3, username: "u3", fullName: "User Three"))
    let model = PostDetailViewModel(
      posts: FakePostsRepository(), comments: FakeCommentsRepository([comment]))
    await model.load(id: 2)
    #expect(model.post?.id == 2 && model.comments == [comment])
    #expect(
      model.state.message == nil && model.state.failure?.error == nil && !model.state.isLoading)

    await model.load(id: 404)
    #expect(model.post == nil && model.comments.isEmpty)
    #expect((model.state.failure?.error as? NetworkError)?.status == 404)
    #expect(model.state.message?.contains("HTTP 404") == true)
  }

  @Test func theCommandShowsThePostAndItsComments() async throws {
    try await DemoHarness.with { harness, _ in
      let detail = try await MainActor.run {
        try harness.container.resolve(PostDetailViewModel.self)
      }
      await detail.load(id: 1)
      let comments = await detail.comments
      #expect(!comments.isEmpty)
      #expect(harness.server.journal.count(method: "GET", path: "/posts/1/comments") == 1)
    }
  }
}
