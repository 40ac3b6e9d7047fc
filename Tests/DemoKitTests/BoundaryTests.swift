import DemoKit
import Testing

/// Rules at their exact bounds: the last accepted value and the first refused one, so an
/// off-by-one either way fails.
@Suite("Domain rules at their bounds")
struct BoundaryTests {
  @Test func aPostAtTheLongestTitleAndBodyIsAcceptedOneMoreIsNot() throws {
    let title = String(repeating: "t", count: PostRules.longestTitle)
    let body = String(repeating: "b", count: PostRules.longestBody)
    #expect(PostRules.longestTitle == 120 && PostRules.longestBody == 10_000)
    let kept = try PostRules.validated(PostDraft(title: title, body: body, userId: 1))
    #expect(kept.title.count == 120 && kept.body.count == 10_000)
    #expect(throws: ValidationError.self) {
      try PostRules.validated(PostDraft(title: title + "t", body: body, userId: 1))
    }
    #expect(throws: ValidationError.self) {
      try PostRules.validated(PostDraft(title: title, body: body + "b", userId: 1))
    }
  }
}
