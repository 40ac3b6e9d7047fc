import DemoKit
import DemoKitTesting
import Foundation
import Strata
import StrataSandbox
import StrataTesting
import Testing

@testable import strata_demo

@MainActor
@Suite("post create: the new-post flow, asked or with flags")
struct NewPostDialogTests {
  /// Answers the dialog's questions in order, and keeps what it was told.
  @MainActor
  final class Conversation {
    var answers: [String]
    var told: [String] = []
    var asked: [String] = []
    init(_ answers: [String]) { self.answers = answers }
    var dialog: NewPostDialog {
      NewPostDialog(
        ask: { question in
          self.asked.append(question)
          return self.answers.isEmpty ? nil : self.answers.removeFirst()
        }, tell: { self.told.append($0) })
    }
  }

  func newFlow() -> (NewPostFlow, FakeScript) {
    let script = FakeScript()
    return (
      NewPostFlow(posts: PostsViewModel(repo: FakePostsRepository(script: script)), userId: 1),
      script
    )
  }

  @Test func askedStepByStepWithTheFlowsOwnMessages() async throws {
    let (flow, script) = newFlow()
    let talk = Conversation(["", "Hello", "World", "y"])
    #expect(try await talk.dialog.run(flow))
    #expect(talk.asked.first == "title: " && talk.asked.filter { $0 == "title: " }.count == 2)
    #expect(talk.told.contains("Give the post a title."), "the empty title was refused")
    #expect(talk.told.contains("  Title: Hello") && talk.told.contains("[3/3] review"))
    #expect(talk.asked.last?.hasPrefix("Create this post?") == true)
    #expect(flow.created?.item.title == "Hello")
    #expect(script.calls.count == 1 && script.calls[0].hasPrefix("create(Hello, World, 1, key "))
  }

  @Test func declinedOrCutShortCreatesNothing() async throws {
    let (flow, script) = newFlow()
    #expect(try await Conversation(["Hello", "World", "n"]).dialog.run(flow) == false)
    let (other, otherScript) = newFlow()
    #expect(try await Conversation(["Hello"]).dialog.run(other) == false, "input ended")
    #expect(script.calls.isEmpty && otherScript.calls.isEmpty)
  }

  @Test func aTitleFromAFlagIsNotAskedAgain() async throws {
    let (flow, _) = newFlow()
    flow.fields.title = "Given"
    let talk = Conversation(["Body", "yes"])
    #expect(try await talk.dialog.run(flow))
    #expect(!talk.asked.contains("title: ") && flow.created?.item.title == "Given")
  }

  @Test func theBinaryRunsTheSameFlowWithFlags() async throws {
    try await withSandbox { server in
      let cli = try CLIRunner()
      let api = ["--api", server.baseURL.absoluteString]
      let created = try await cli.run(api + ["post", "create", "--title", "Hi", "--body", "There"])
      #expect(created.status == 0, "\(created.stderr)")
      #expect(
        created.stdout.contains("Created post: #151") && created.stdout.contains("User:         1"))
      let long = String(repeating: "x", count: 121)
      let refused = try await cli.run(api + ["post", "create", "--title", long, "--body", "B"])
      #expect(
        refused.status == 65 && refused.stderr.contains("A title has at most 120 characters."))
      let blank = try await cli.run(api + ["post", "create", "--title", " ", "--body", "B"])
      #expect(blank.status == 65 && blank.stderr.contains("title: Give the post a title."))
      let noTerminal = try await cli.run(api + ["post", "create", "--title", "T"])
      #expect(noTerminal.status == 2)
      #expect(noTerminal.stderr.contains("needs --title and --body when input is not a terminal"))
      #expect(server.journal.count(method: "POST", path: "/posts/add") == 1, "only the good one")
    }
  }
}
