import Foundation
import Observation
import Strata

/// The users list, written in the Input → Output → Effect style:
/// one ``send(_:)`` entry point, one ``Output`` state value, one-shot ``Effect``s.
/// Loading and error state reset at the start of every fetch.
@MainActor @Observable
public final class UsersViewModel {
  /// What the view can ask for.
  public enum Input: Sendable, Equatable {
    /// First page (or reload).
    case load
    /// The page that starts after the first `skip` users (a deep link, a command line).
    case loadFrom(skip: Int)
    /// The next page, if any.
    case loadMore
    /// Filter by a query (empty: all users), from the first match or after `skip` of them.
    case search(String, skip: Int = 0)
    /// Repeat the last fetch after an error.
    case retry
    /// Pull-to-refresh: the first page again, from the server (revalidated), never a kept
    /// copy; ``Output/isRefreshing`` meanwhile.
    case refresh
    /// The user tapped a row.
    case select(id: Int)
  }

  /// Everything the view shows.
  public struct Output: Sendable, Equatable {
    /// Loaded users, in order.
    public var users: [User] = []
    /// How many users match in all.
    public var total = 0
    /// How many users come before the first loaded one.
    public var skip = 0
    public var query = ""
    /// A fetch under way, or the last one's failure.
    public var state = LoadState.idle
    /// A refresh is under way (the list stays on screen).
    public var isRefreshing = false
    /// Where the shown page came from; `.stale` while the server is away.
    public var source: ResponseSource?
    /// What to say about the shown page's age: "offline — from 12 min ago" when a stale
    /// answer stands in for a server that cannot be reached; nil when it is current.
    public var notice: String? {
      guard case .stale(let age) = source else { return nil }
      return Localized.current("users.staleNotice", ["age": Localized.current.age(age)])
    }

    /// Whether ``Input/loadMore`` would fetch anything.
    public var canLoadMore: Bool { skip + users.count < total }
  }

  /// One-shot events for the coordinator (navigation).
  public enum Effect: Sendable, Equatable {
    /// Show this user's detail.
    case showUser(id: Int)
  }

  public private(set) var output = Output()
  /// One-shot effects, in order.
  @ObservationIgnored public let effects: AsyncStream<Effect>
  @ObservationIgnored private let effectSink: AsyncStream<Effect>.Continuation
  @ObservationIgnored private let repo: any UsersRepository
  @ObservationIgnored private let pageSize: Int
  @ObservationIgnored private var lastFetchWasReset = true
  /// Bumped by every fetch: a response that arrives after a newer fetch started is dropped
  /// (the latest request wins, so a slow old search never overwrites a newer one).
  @ObservationIgnored private var fetchNumber = 0

  /// Creates the view model.
  public nonisolated init(repo: any UsersRepository, pageSize: Int = 10) {
    self.repo = repo
    self.pageSize = max(1, pageSize)
    (effects, effectSink) = AsyncStream.makeStream(of: Effect.self)
  }

  /// Handles one input; returns when its work is done.
  public func send(_ input: Input) async {
    switch input {
    case .load:
      output.skip = 0
      await fetch(reset: true)
    case .loadFrom(let skip):
      output.skip = max(0, skip)
      await fetch(reset: true)
    case .loadMore:
      guard output.canLoadMore, !output.state.isLoading else { return }
      await fetch(reset: false)
    case .search(let query, let skip):
      output.query = query.trimmingCharacters(in: .whitespaces)
      output.skip = max(0, skip)
      await fetch(reset: true)
    case .retry:
      await fetch(reset: lastFetchWasReset)
    case .refresh:
      guard output.query.isEmpty else {
        await fetch(reset: true)  // a search has no kept copy to skip
        return
      }
      output.skip = 0
      output.isRefreshing = true
      await fetch(reset: true, refresh: true)
      output.isRefreshing = false
    case .select(let id):
      effectSink.yield(.showUser(id: id))
    }
  }

  private func fetch(reset: Bool, refresh: Bool = false) async {
    fetchNumber += 1
    let number = fetchNumber
    lastFetchWasReset = reset
    output.state = .loading
    let skip = output.skip + (reset ? 0 : output.users.count)
    let query = output.query
    let result: Result<NetworkResponse<Page<User>>, any Error>
    do {
      result = .success(
        query.isEmpty
          ? try await repo.fetchPage(limit: pageSize, skip: skip, refresh: refresh)
          : NetworkResponse(try await repo.search(query, limit: pageSize, skip: skip)))
    } catch {
      result = .failure(error)
    }
    guard number == fetchNumber else { return }  // a newer fetch owns the state now
    switch result {
    case .success(let fetched):
      let page = fetched.value
      output.users = reset ? page.items : output.users + page.items
      output.total = page.total
      output.source = fetched.source
      output.state = .idle
    case .failure(let error):
      output.state = .failed(error)
    }
  }
}
