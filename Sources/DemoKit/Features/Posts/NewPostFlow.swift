import Observation
import Strata

/// Writing a post in steps — title, body, review — then creating it through the posts list
/// (so it appears there at once, optimistically). The same flow serves a screen and the CLI's
/// `post create`, interactive or with flags.
@MainActor @Observable
public final class NewPostFlow {
  /// The steps, in order.
  public enum Step: String, Sendable, CaseIterable {
    case title
    case body
    /// Everything, once more, before creating it.
    case review
  }

  /// The longest title accepted.
  public static let longestTitle = PostRules.longestTitle

  public var title = ""
  public var body = ""
  public var userId: Int
  /// The steps and their state.
  @ObservationIgnored public private(set) var flow: FlowViewModel<Step>!
  /// The list the post is created through.
  public let posts: PostsViewModel

  /// A flow creating its post through `posts`, written by user `userId`.
  public init(posts: PostsViewModel, userId: Int) {
    self.posts = posts
    self.userId = userId
    flow = FlowViewModel(
      steps: Step.allCases,
      validate: { [unowned self] step in self.problem(with: step) },
      confirmation: { [unowned self] in
        .init(
          title: "Create this post?",
          message: "\"\(self.trimmedTitle)\" by user \(self.userId) — sent once, never retried.",
          confirm: "Create")
      },
      submit: { [unowned self] in
        guard
          await self.posts.create(
            title: self.trimmedTitle, body: self.trimmedBody, userId: self.userId)
        else { throw self.posts.state.failure?.error ?? NewPostFailure.notCreated }
      })
  }

  /// The post as written (trimmed).
  public var draft: PostDraft { PostDraft(title: trimmedTitle, body: trimmedBody, userId: userId) }

  /// What is wrong with the fields, checking every step (nil: all good).
  public func problem() -> String? { validationError()?.message }

  /// The first rule the post breaks, with its field (nil: all good).
  public func validationError() -> ValidationError? {
    do {
      _ = try PostRules.validated(PostDraft(title: title, body: body, userId: userId))
      return nil
    } catch { return error }
  }

  /// What the review step shows.
  public var summary: [(String, String)] {
    [("Title", trimmedTitle), ("Body", trimmedBody), ("User", String(userId))]
  }

  /// The post the server created, once it did.
  public var created: Post? { flow.isFinished ? posts.created : nil }

  private var trimmedTitle: String { title.trimmingCharacters(in: .whitespacesAndNewlines) }
  private var trimmedBody: String { body.trimmingCharacters(in: .whitespacesAndNewlines) }

  private func problem(with step: Step) -> String? {
    switch step {
    case .title: PostRules.titleProblem(trimmedTitle)
    case .body: PostRules.bodyProblem(trimmedBody)
    case .review: validationError()?.message
    }
  }
}

/// The post was not created and the list gave no reason.
enum NewPostFailure: Error { case notCreated }
