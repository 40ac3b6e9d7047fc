import Foundation
import StrataConcurrency

/// Scripted misbehaviour: "the next N requests matching METHOD PATH get status S / are
/// delayed D / have the connection dropped". Faults are consumed in the order they were added.
public final class FaultInjector: Sendable {
  /// What happens to a matching request.
  public enum Action: Sendable {
    /// Answer with this status (and optional headers such as `Retry-After`, and body) instead
    /// of the real route.
    case respond(status: Int, headers: [String: String] = [:], body: String? = nil)
    /// Wait this long, then serve the request normally.
    case delay(Duration)
    /// Close the connection without answering.
    case dropConnection
    /// Do the work (a POST creates its resource), then close the connection without
    /// answering: the change happened and the client never heard.
    case dropAfterHandling
    /// Send the real response's head and half its body, then close.
    case truncateBody
    /// Send the status line and the start of the next header line, then close: a server
    /// that dies while answering. FoundationNetworking before Swift 6.4 ends the client's
    /// process on this (swiftlang/swift-corelibs-foundation#5285); from 6.4 it is a lost
    /// connection, retried as any.
    case truncateHead
    /// Answer with this status and a body that echoes the request back — every header (the
    /// `Authorization` value in the message itself) and the body — as a careless or hostile
    /// server does in its error pages.
    case echo(status: Int)
    /// Answer 200 and stream a JSON array that never ends, until the client goes away or the
    /// server stops (at most 60 s).
    case endlessBody
    /// Calls `body` on the connection's thread before answering: a test blocks there to hold
    /// the request in flight, then lets it go on (not terminal: the request is answered).
    case hold(@Sendable () -> Void)
    /// Serve the request normally, with this header on the answer (a 304 included) in place
    /// of any of that name: tests and the tour drive a client cache per route — its freshness,
    /// what it varies on — as a real deployment's CDN or framework would (not terminal).
    case header(name: String, value: String)
    /// Someone else changes the post or todo the path names first (`/posts/1`, `/todos/3`):
    /// its `title` or `todo` gains " (edited elsewhere)", kept as a write is — so a change based
    /// on the version read before meets a newer one (412 to its `If-Match`). Needs the sandbox
    /// to keep writes; not terminal: the request is then served.
    case editedElsewhere

    /// ``header(name:value:)`` for `Cache-Control`.
    public static func cacheControl(_ value: String) -> Action {
      .header(name: "Cache-Control", value: value)
    }
  }

  public struct Fault: Sendable {
    /// Every ACTION a spec may name (`METHOD PATH ACTION[xCOUNT]`), as help and refusals list
    /// them: one list, so neither can leave one out.
    public static let actionSpellings = [
      "a status (100-599)", "drop", "lose-answer", "truncate", "truncate-head", "endless",
      "edited-elsewhere",
      "echo=STATUS", "delay=DURATION", "cache=CACHE-CONTROL", "vary=HEADERS",
    ]

    /// The method to match, or nil for any.
    public var method: String?
    /// The path to match: exact, or a prefix when it ends in `*`.
    public var path: String
    /// How many more requests it applies to.
    public var remaining: Int
    public var action: Action

    /// - Parameter method: Method to match (nil: any).
    /// - Parameter path: Exact path, or prefix ending in `*`.
    /// - Parameter count: How many matching requests it applies to.
    /// - Parameter action: What happens to them.
    public init(method: String? = nil, path: String, count: Int = 1, action: Action) {
      self.method = method?.uppercased()
      self.path = path
      self.remaining = count
      self.action = action
    }

    func matches(_ request: SandboxRequest) -> Bool {
      if let method, method != request.method { return false }
      if path.hasSuffix("*") { return request.path.hasPrefix(String(path.dropLast())) }
      return path == request.path
    }
  }

  private let faults = Lock<[Fault]>([])
  /// How many faults are queued, so a request with none to take never takes the lock.
  private let queued = AtomicInt(0)

  /// Creates an injector with no faults.
  public init() {}

  public func add(_ fault: Fault) {
    faults.withLock {
      $0.append(fault)
      queued.storeReleasing($0.count)
    }
  }

  /// Shorthand: the next `count` requests matching `method` `path` get `status`.
  /// - Parameter status: The status to answer.
  /// - Parameter method: Method to match (nil: any).
  /// - Parameter path: Path to match.
  /// - Parameter count: How many requests.
  /// - Parameter headers: Extra response headers, e.g. `["Retry-After": "3"]`.
  public func fail(
    _ status: Int, method: String? = nil, path: String, count: Int = 1,
    headers: [String: String] = [:]
  ) {
    add(
      Fault(
        method: method, path: path, count: count, action: .respond(status: status, headers: headers)
      ))
  }

  /// Removes every pending fault.
  public func reset() {
    faults.withLock {
      $0.removeAll()
      queued.storeReleasing(0)
    }
  }

  /// How many faulted requests are still scripted.
  public var pending: Int { faults.withLock { $0.reduce(0) { $0 + $1.remaining } } }

  /// Takes the actions that apply to `request` (at most one per fault), consuming them.
  func take(for request: SandboxRequest) -> [Action] {
    guard queued.loadAcquiring() > 0 else { return [] }
    return faults.withLock { faults in
      var actions: [Action] = []
      for index in faults.indices
      where faults[index].remaining > 0 && faults[index].matches(request) {
        actions.append(faults[index].action)
        faults[index].remaining -= 1
        if case .delay = faults[index].action { continue }
        if case .hold = faults[index].action { continue }
        if case .header = faults[index].action { continue }
        break  // one terminal action per request
      }
      faults.removeAll { $0.remaining <= 0 }
      queued.storeReleasing(faults.count)
      return actions
    }
  }
}
