import DemoKit
import DemoKitTesting
import Foundation
import Strata
import StrataTesting
import Testing

@MainActor
@Suite("FlowViewModel and the new-post flow")
struct FlowTests {
  enum Step: Hashable, Sendable { case one, two, three }

  final class Box {
    var problems: [Step: String] = [:]
    var submitted = 0
    var failure: (any Error)?
  }

  func flow(_ box: Box, confirm: Bool = true) -> FlowViewModel<Step> {
    FlowViewModel(
      steps: [.one, .two, .three], validate: { box.problems[$0] },
      confirmation: {
        confirm ? .init(title: "Sure?", message: "It is final.", confirm: "Do it") : nil
      },
      submit: {
        box.submitted += 1
        if let failure = box.failure { throw failure }
      })
  }

  @Test func stepsMoveOnlyWhenTheyCheckOut() async {
    let box = Box()
    let flow = flow(box)
    #expect(flow.current == .one && flow.status(of: .one) == .active)
    #expect(flow.status(of: .two) == .pending)
    box.problems[.one] = "fill one"
    #expect(await flow.next() == false)
    #expect(flow.current == .one && flow.validationMessage == "fill one")
    box.problems[.one] = nil
    #expect(await flow.next())
    #expect(flow.current == .two && flow.status(of: .one) == .done && flow.validationMessage == nil)
    flow.back()
    #expect(flow.current == .one && flow.status(of: .two) == .pending)
    flow.back()
    #expect(flow.current == .one, "nothing before the first step")
  }

  @Test func theLastStepAsksThenSubmits() async {
    let box = Box()
    let flow = flow(box)
    await flow.next()
    await flow.next()
    #expect(flow.isLastStep)
    #expect(await flow.next())
    #expect(flow.dialog?.title == "Sure?" && box.submitted == 0, "asked first")
    flow.cancel()
    #expect(flow.dialog == nil && !flow.isFinished && box.submitted == 0)
    await flow.next()
    #expect(await flow.confirm())
    #expect(box.submitted == 1 && flow.isFinished && flow.status(of: .three) == .done)
    #expect(await flow.next() == false, "a finished flow stays finished")
  }

  @Test func aFailedSubmitSaysWhyAndCanBeTriedAgain() async {
    let box = Box()
    box.failure = NetworkError.server(status: 503, serverMessage: "busy")
    let flow = flow(box, confirm: false)
    await flow.next()
    await flow.next()
    #expect(await flow.next() == false)
    #expect(
      flow.status(of: .three) == .failed("HTTP 503: busy") && flow.state.message == "HTTP 503: busy"
    )
    box.failure = nil
    #expect(await flow.next())
    #expect(flow.isFinished && box.submitted == 2 && flow.state.message == nil)
  }

  @Test func theNewPostFlowCreatesThroughTheListOptimistically() async throws {
    let script = FakeScript()
    let gate = script.hold("create")
    let posts = PostsViewModel(repo: FakePostsRepository(script: script))
    await posts.load(limit: 5)
    let new = NewPostFlow(posts: posts, userId: 2)
    let wizard = new.wizard
    #expect(await wizard.next() == false)
    #expect(wizard.validationMessage == "Give the post a title.")
    new.fields.title = String(repeating: "x", count: 121)
    #expect(await wizard.next() == false)
    #expect(wizard.validationMessage == "A title has at most 120 characters.")
    new.fields.title = "  Hello  "
    #expect(await wizard.next())
    #expect(
      await wizard.next() == false && wizard.validationMessage == "Write something in the post.")
    new.fields.body = "World"
    #expect(await wizard.next() && wizard.current == .review)
    #expect(new.fields.summary.map(\.1) == ["Hello", "World", "2"])
    #expect(await wizard.next() && wizard.dialog?.message.contains("\"Hello\" by user 2") == true)
    let confirming = Task { await wizard.confirm() }
    try await gate.waitUntilEntered()
    #expect(
      wizard.state.isLoading && posts.rows.map(\.item).first?.title == "Hello",
      "on the list already")
    gate.open()
    #expect(await confirming.value)
    #expect(new.created?.item.id == 6 && wizard.isFinished && !wizard.state.isLoading)
    #expect(script.calls.last?.hasPrefix("create(Hello, World, 2, key ") == true)
  }
}
