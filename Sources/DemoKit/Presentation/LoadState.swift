import Strata

/// What a screen shows about its requests, as one value: nothing, a request under way, or the
/// last one's failure. Starting a request clears the failure; a screen binds to this instead of
/// loading, error, failure and offline flags that could disagree.
public enum LoadState: Sendable, Equatable {
  case idle
  case loading
  case failed(Failure)

  /// A failure as a screen shows it. Two failures are equal when they show the same thing.
  public struct Failure: Sendable, Equatable {
    /// The error itself (a command line maps it to an exit status).
    public let error: any Error
    public let message: String

    /// `context: ` and the error's sentence (a signed-out error says so, whatever the request).
    public init(_ error: any Error, context: String? = nil) {
      let sentence =
        switch error {
        case let network as NetworkError where network.isUnauthorized:
          Localized.current("load.signedOut")
        case let network as NetworkError: network.description
        default: String(describing: error)
        }
      self.init(error, message: (context.map { "\($0): " } ?? "") + sentence)
    }

    init(_ error: any Error, message: String) {
      (self.error, self.message) = (error, message)
    }

    /// Nothing could be sent for want of a network route: show an offline banner.
    public var isOffline: Bool { (error as? NetworkError)?.kind == .offline }

    public static func == (lhs: Failure, rhs: Failure) -> Bool {
      lhs.message == rhs.message && lhs.isOffline == rhs.isOffline
    }
  }

  public var isLoading: Bool { self == .loading }
  public var failure: Failure? {
    if case .failed(let failure) = self { failure } else { nil }
  }
  /// The failure's sentence, if the last request failed.
  public var message: String? { failure?.message }
  public var isOffline: Bool { failure?.isOffline ?? false }
}

extension LoadState {
  /// The state after `error`, with `context` before its sentence.
  static func failed(_ error: any Error, _ context: String? = nil) -> LoadState {
    .failed(Failure(error, context: context))
  }
}

/// A screen whose requests run through ``LoadState``: conform, keep a `state`, and wrap each
/// request in ``loading(_:_:)``, as every view model in DemoKit does.
@MainActor
public protocol LoadStateOwner: AnyObject {
  /// Set by ``loading(_:_:)``; a screen may set it to `.idle` to dismiss a failure.
  var state: LoadState { get set }
}

extension LoadStateOwner {
  /// `fetch`'s value, with the state `.loading` meanwhile and `.idle` after; nil, with the state
  /// `.failed` (`context` before the sentence), when it throws.
  public func loading<Value>(_ context: String? = nil, _ fetch: () async throws -> Value) async
    -> Value?
  {
    state = .loading
    do {
      let value = try await fetch()
      state = .idle
      return value
    } catch {
      state = .failed(error, context)
      return nil
    }
  }
}
