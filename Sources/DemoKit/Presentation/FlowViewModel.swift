import Observation
import Strata

/// A multi-step flow — a sign-up, a checkout, a "new post" form split over screens: the steps
/// in order with their status, forward and back with each step checked before it is left, a
/// confirmation dialog before the last action, and the action's loading and failure.
///
/// The flow knows nothing of the fields: `validate` says what is wrong with a step (nil when
/// it may be left) and `submit` does the work at the end. A screen binds to ``current``,
/// ``status(of:)``, ``validationMessage``, ``dialog`` and ``state``.
@MainActor @Observable
public final class FlowViewModel<Step: Hashable & Sendable> {
  /// Where a step stands.
  public enum StepStatus: Sendable, Equatable {
    case pending
    /// The one on screen.
    case active
    case done
    /// Its action failed (the submit step), with the reason.
    case failed(String)
  }

  /// A question the flow asks before its last action.
  public struct Dialog: Sendable, Equatable {
    public var title: String
    public var message: String
    public var confirm: String

    /// A dialog (previews, the flow's owner).
    public init(title: String, message: String, confirm: String) {
      (self.title, self.message, self.confirm) = (title, message, confirm)
    }
  }

  /// The steps, in order; the last one's ``next()`` submits.
  public let steps: [Step]
  /// The index of the step on screen.
  public private(set) var currentIndex = 0
  /// Why the current step cannot be left yet.
  public private(set) var validationMessage: String?
  /// The confirmation on screen, if any.
  public private(set) var dialog: Dialog?
  /// The submit under way, or its failure.
  public private(set) var state = LoadState.idle
  /// The submit succeeded: the flow is over.
  public private(set) var isFinished = false
  @ObservationIgnored private var statuses: [Step: StepStatus] = [:]
  @ObservationIgnored private let validate: @MainActor (Step) -> String?
  @ObservationIgnored private let confirmation: @MainActor () -> Dialog?
  @ObservationIgnored private let submit: @MainActor () async throws -> Void

  /// A flow over `steps` (at least one).
  ///
  /// `validate` checks a step before it is left; `confirmation` builds the dialog shown before
  /// the submit (nil: none); `submit` does the work and throws what went wrong.
  public init(
    steps: [Step], validate: @escaping @MainActor (Step) -> String? = { _ in nil },
    confirmation: @escaping @MainActor () -> Dialog? = { nil },
    submit: @escaping @MainActor () async throws -> Void
  ) {
    precondition(!steps.isEmpty, "a flow has at least one step")
    self.steps = steps
    self.validate = validate
    self.confirmation = confirmation
    self.submit = submit
    if let first = steps.first { statuses[first] = .active }
  }

  /// The step on screen.
  public var current: Step { steps[currentIndex] }
  /// Whether ``next()`` on this step submits.
  public var isLastStep: Bool { currentIndex == steps.count - 1 }

  /// The status of `step`.
  public func status(of step: Step) -> StepStatus {
    _ = currentIndex  // observed: statuses change with it
    return statuses[step] ?? .pending
  }

  /// Checks the current step and moves on; on the last step, asks for confirmation (or submits
  /// when there is none).
  /// - Returns: Whether the flow moved (or the dialog appeared, or the submit succeeded).
  @discardableResult
  public func next() async -> Bool {
    guard !state.isLoading, !isFinished else { return false }
    validationMessage = validate(current)
    guard validationMessage == nil else { return false }
    guard isLastStep else {
      statuses[current] = .done
      currentIndex += 1
      statuses[current] = .active
      return true
    }
    if let question = confirmation() {
      dialog = question
      return true
    }
    return await perform()
  }

  /// Goes back one step (nothing on the first, or while submitting).
  public func back() {
    guard currentIndex > 0, !state.isLoading, !isFinished else { return }
    dialog = nil
    validationMessage = nil
    statuses[current] = .pending
    currentIndex -= 1
    statuses[current] = .active
  }

  /// Accepts the dialog: submits.
  /// - Returns: Whether the submit succeeded.
  @discardableResult
  public func confirm() async -> Bool {
    guard dialog != nil else { return false }
    dialog = nil
    return await perform()
  }

  /// Dismisses the dialog; the flow stays on its last step.
  public func cancel() { dialog = nil }

  private func perform() async -> Bool {
    state = .loading
    statuses[current] = .active
    do {
      try await submit()
      statuses[current] = .done
      isFinished = true
      state = .idle
      return true
    } catch {
      let failure = LoadState.Failure(error)
      statuses[current] = .failed(failure.message)
      state = .failed(failure)
      return false
    }
  }
}
