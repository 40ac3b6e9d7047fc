import Observation
import Strata

/// Writing a post in steps — title, body, review — then creating it with
/// ``PostsViewModel/create(_:keepOffline:)`` (so it appears on the list at once). A screen, or
/// the CLI's interactive `post create`, edits ``fields`` and walks ``wizard``.
@MainActor
public final class NewPostFlow {
  /// The steps, in order.
  public enum Step: String, Sendable, CaseIterable {
    case title
    case body
    /// Everything, once more, before creating it.
    case review
  }

  /// What the person types, and what came of it.
  @MainActor @Observable
  public final class Fields {
    public var title = ""
    public var body = ""
    public var userId: Int
    /// The post as created (`synced`) or kept on this device (`pending`), once it is.
    public internal(set) var created: OfflinePosts.Item?

    init(userId: Int) { self.userId = userId }

    /// The post as written; ``PostRules`` trims it when it is created.
    public var draft: PostDraft { PostDraft(title: title, body: body, userId: userId) }

    /// What the review step shows (trimmed, as it will be sent).
    public var summary: [(String, String)] {
      let text = Localized.current
      return [
        (text("label.title"), trimmed(title)), (text("label.body"), trimmed(body)),
        (text("label.user"), String(userId)),
      ]
    }

    func problem(with step: Step) -> String? {
      switch step {
      case .title: PostRules.titleProblem(trimmed(title))
      case .body: PostRules.bodyProblem(trimmed(body))
      case .review: nil  // the create checks the whole post, once
      }
    }

    private func trimmed(_ text: String) -> String {
      text.trimmingCharacters(in: .whitespacesAndNewlines)
    }
  }

  /// The longest title accepted.
  public static let longestTitle = PostRules.longestTitle

  public let fields: Fields
  /// The steps and their state; its last step creates the post.
  public let wizard: FlowViewModel<Step>

  /// A flow creating its post through `posts`, written by user `userId`; kept on this device
  /// for a sync to send when `keepOffline`.
  public init(posts: PostsViewModel, userId: Int, keepOffline: Bool = false) {
    // The closures hold the fields and the list, never the flow: nothing refers back to it.
    let fields = Fields(userId: userId)
    self.fields = fields
    wizard = FlowViewModel(
      steps: Step.allCases,
      validate: { step in fields.problem(with: step) },
      confirmation: {
        let text = Localized.current
        return .init(
          title: text("newPost.confirmTitle"),
          message: text(
            keepOffline ? "newPost.confirmKept" : "newPost.confirmSent",
            ["title": fields.summary[0].1, "user": String(fields.userId)]),
          confirm: text("newPost.confirm"))
      },
      submit: { fields.created = try await posts.create(fields.draft, keepOffline: keepOffline) })
  }

  /// The post, once created or kept.
  public var created: OfflinePosts.Item? { fields.created }
}
