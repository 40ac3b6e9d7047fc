import Dispatch
import Foundation
import StrataConcurrency

/// The embedded DummyJSON-compatible HTTP/1.1 server on 127.0.0.1.
/// ```swift
/// let sandbox = SandboxServer()
/// try sandbox.start()                 // port 0: a free port
/// sandbox.faults.fail(503, method: "GET", path: "/users", count: 2)
/// let url = sandbox.baseURL.appending(path: "users")
/// ...
/// await sandbox.stop()
/// ```
///
/// One thread accepts; each connection is served by its own thread with blocking sockets
/// (keep-alive, Content-Length bodies, limits). Malformed input is answered 4xx and the
/// connection closed; the server keeps serving.
public final class SandboxServer: Sendable {
  /// Settings for one server.
  public struct Configuration: Sendable {
    /// The port to bind on 127.0.0.1; 0 picks a free one.
    public var port: UInt16
    /// Size and time limits.
    public var limits: SandboxLimits
    /// The clock tokens expire by (inject one to expire tokens without sleeping).
    public var now: @Sendable () -> Date
    /// Largest `?delay=` honoured, as DummyJSON caps it.
    public var maxDelay: Duration
    /// How many requests the journal keeps.
    public var journalCapacity: Int
    /// Each refresh token works once: using it again is 403 "Invalid refresh token", as with
    /// servers that rotate refresh tokens (DummyJSON does not).
    public var rotatesRefreshTokens: Bool
    /// Whether a repeated `Idempotency-Key` gets the first answer (true) or is carried out again,
    /// as by the real DummyJSON, which ignores the header (false). Changes are
    /// counted either way (``SandboxServer/changesDone(path:)``).
    public var honoursIdempotencyKeys = true
    /// The key its tokens are signed and checked with (HMAC-SHA256); nil: a random one, so no
    /// other server accepts them.
    public var signingKey: [UInt8]?
    /// Whether writes are kept, so a post created can then be read, edited and deleted by its
    /// id (false: answered and forgotten, as DummyJSON does). Lists stay the seed's.
    public var keepsWrites = false

    /// - Parameter port: Port on 127.0.0.1 (0: any free port).
    /// - Parameter limits: Size and time limits.
    /// - Parameter maxDelay: Cap on `?delay=ms`.
    /// - Parameter journalCapacity: Requests kept in the journal (newest win).
    /// - Parameter now: The token clock.
    public init(
      port: UInt16 = 0, limits: SandboxLimits = SandboxLimits(), maxDelay: Duration = .seconds(5),
      journalCapacity: Int = 10_000, rotatesRefreshTokens: Bool = false,
      now: @escaping @Sendable () -> Date = { Date() }
    ) {
      self.rotatesRefreshTokens = rotatesRefreshTokens
      self.port = port
      self.limits = limits
      self.maxDelay = maxDelay
      self.journalCapacity = journalCapacity
      self.now = now
    }
  }

  /// Errors from starting the server.
  public enum StartError: Error, CustomStringConvertible {
    /// The server is already running.
    case alreadyStarted
    /// Binding or listening failed (port in use, …).
    case socket(String)

    public var description: String {
      switch self {
      case .alreadyStarted: "sandbox already started"
      case .socket(let message): "sandbox could not listen: \(message)"
      }
    }
  }

  private struct State {
    /// The write end of the pipe that ends the accept loop (``Socket/wake(_:)``).
    var wake: Int32?
    var port: UInt16 = 0
    var running = false
    var connections: [Int32: ConnectionActivity] = [:]
  }

  /// The seeded demo account: `emilys` / `emilyspass`, as on dummyjson.com.
  public static let demoAccount = (username: "emilys", password: "emilyspass")

  /// The requests received, for assertions (bounded by the configuration's capacity).
  public let journal: RequestJournal
  public let faults = FaultInjector()
  let ledger: IdempotencyLedger

  /// How many POST or PATCH requests to `path` the sandbox really carried out (answered 2xx),
  /// a replay of an `Idempotency-Key` not counted: what "was the post created twice?" asks.
  public func changesDone(path: String) -> Int { ledger.changesDone(path: path) }

  /// How many answers, and how many bytes of them, are kept for `Idempotency-Key` replays.
  public var keptIdempotentAnswers: (answers: Int, bytes: Int) { ledger.kept }
  /// The configuration it was created with.
  public let configuration: Configuration

  let api: SandboxAPI
  private let state = Lock(State())
  private let threads = DispatchGroup()

  /// Creates a stopped server.
  public init(configuration: Configuration = Configuration()) {
    self.configuration = configuration
    self.journal = RequestJournal(capacity: configuration.journalCapacity)
    self.ledger = IdempotencyLedger(
      maxAnswers: configuration.limits.maxIdempotentAnswers,
      maxBytes: configuration.limits.maxIdempotentBytes,
      honoursKeys: configuration.honoursIdempotencyKeys)
    self.api = SandboxAPI(
      now: configuration.now, rotatesRefreshTokens: configuration.rotatesRefreshTokens,
      signingKey: configuration.signingKey, keepsWrites: configuration.keepsWrites)
  }

  /// Whether writes are kept now (see ``Configuration/keepsWrites``): a running server can
  /// start keeping them, and stop (what it kept is then no longer seen).
  public var keepsWrites: Bool {
    get { api.kept.isOn.withLock { $0 } }
    set { api.kept.isOn.withLock { $0 = newValue } }
  }

  // MARK: Lifecycle

  /// Binds 127.0.0.1 and starts serving.
  /// - Returns: The port it listens on.
  @discardableResult
  public func start() throws -> Int {
    let listener: (fd: Int32, port: UInt16)
    let wake: (read: Int32, write: Int32)
    do {
      listener = try Socket.listen(port: configuration.port)
      do { wake = try Socket.wakePipe() } catch {
        Socket.close(listener.fd)
        throw error
      }
    } catch {
      throw StartError.socket(String(describing: error))
    }
    let started = state.withLock { state -> Bool in
      guard !state.running else { return false }
      state.wake = wake.write
      state.port = listener.port
      state.running = true
      return true
    }
    guard started else {
      for fd in [listener.fd, wake.read, wake.write] { Socket.close(fd) }
      throw StartError.alreadyStarted
    }
    threads.enter()
    let thread = Thread { [self] in
      acceptLoop(listener.fd, wake: wake.read)
      Socket.close(wake.read)
      // Closed by the loop that uses it, once `accept` has failed: closed by `stop` while
      // this thread could still call `accept` (a starved thread, past `stop`'s wait), the
      // number could already be another server's listener in this process, and this loop
      // would take — and, stopped, close — that server's connections.
      Socket.close(listener.fd)
      threads.leave()
    }
    thread.name = "sandbox-accept"
    thread.start()
    return Int(listener.port)
  }

  /// The port it listens on (0 before ``start()``).
  public var port: Int { Int(state.withLock { $0.port }) }

  public var baseURL: URL {
    URL(string: "http://127.0.0.1:\(port)") ?? URL(fileURLWithPath: "/")
  }

  /// Whether it is serving.
  public var isRunning: Bool { state.withLock { $0.running } }

  /// Stops accepting, closes every connection and waits for the server's threads to finish.
  public func stop() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      DispatchQueue.global().async {
        self.stopAndWait()
        continuation.resume()
      }
    }
  }

  /// The blocking form of ``stop()``, for command-line tools.
  public func stopAndWait() {
    let wake = state.withLock { state -> Int32? in
      state.running = false
      defer { state.wake = nil }
      // Under the lock, for the reason given in `acceptLoop`.
      for connection in state.connections.keys { Socket.shutdown(connection) }
      return state.wake
    }
    if let wake { Socket.wake(wake) }
    api.kept.feed.wakeAll()  // event streams waiting for a write see the server stop
    _ = threads.wait(timeout: .now() + 10)
  }

  /// Blocks the calling thread until the server stops (for `sandbox serve`).
  public func wait() { threads.wait() }

  // MARK: Accepting

  /// Accepts connections. At the connection limit one connection is closed to make room: an
  /// idle one first, then one still sending its request, and one whose request is being
  /// answered only when every connection is; the least recently active within each, but the
  /// most recently active among those being answered. Many slow
  /// or silent clients can never lock everyone else out, a client waiting on its answer is not
  /// cut off by a flood of new connections, and the thread count stays bounded.
  private func acceptLoop(_ listener: Int32, wake: Int32) {
    while let client = Socket.accept(listener, wake: wake) {
      let activity = ConnectionActivity()
      let admitted = state.withLock { state -> Bool in
        guard state.running else { return false }
        if state.connections.count >= configuration.limits.maxConnections,
          let evicted = state.connections.min(by: { $0.value.evictionRank < $1.value.evictionRank }
          )?
          .key
        {
          // Under the lock: a connection's thread closes its descriptor only after removing
          // it here, so the number cannot have been reused by another socket yet.
          Socket.shutdown(evicted)
          state.connections[evicted] = nil
        }
        state.connections[client] = activity
        return true
      }
      guard admitted else {
        Socket.close(client)
        break
      }
      threads.enter()
      let thread = Thread { [self] in
        Connection(fd: client, server: self, activity: activity).serve()
        state.withLock { state in
          if state.connections[client] === activity { state.connections[client] = nil }
        }
        Socket.close(client)
        threads.leave()
      }
      thread.stackSize = 256 * 1024
      thread.start()
    }
  }

  // MARK: Serving (used by Connection)

  var limits: SandboxLimits { configuration.limits }

  func handle(_ request: SandboxRequest) -> (
    actions: [FaultInjector.Action], response: () -> SandboxResponse
  ) {
    journal.record(request)
    return (
      faults.take(for: request), { self.ledger.respond(request) { self.api.handle(request) } }
    )
  }

  /// Sleeps in short slices so a stopping server is not held up by a long `?delay`.
  func pause(_ duration: Duration) {
    let deadline = ContinuousClock.now + min(duration, .seconds(60))
    while isRunning, ContinuousClock.now < deadline {
      let left = deadline - ContinuousClock.now
      Thread.sleep(
        forTimeInterval: min(
          0.05, Double(left.components.seconds) + Double(left.components.attoseconds) / 1e18))
    }
  }
}

/// What a connection is doing and when it last received or sent something (monotonic
/// nanoseconds), read by the accept loop to choose whom to close at the connection limit.
final class ConnectionActivity: Sendable {
  /// In eviction order: an idle connection goes first, one with a request in progress last.
  enum Phase: Int, Comparable {
    /// Between requests, or connected and silent.
    case idle
    /// Part of a request has arrived.
    case receiving
    /// A whole request arrived and is being answered (a `?delay`, a held fault).
    case handling

    static func < (lhs: Phase, rhs: Phase) -> Bool { lhs.rawValue < rhs.rawValue }
  }

  private let stamp = AtomicInt(Int(truncatingIfNeeded: DispatchTime.now().uptimeNanoseconds))
  private let phaseValue = AtomicInt(Phase.idle.rawValue)

  var lastActive: UInt64 { UInt64(truncatingIfNeeded: stamp.load()) }
  var phase: Phase { Phase(rawValue: phaseValue.load()) ?? .idle }

  /// Who to close first: the lowest phase, then the least recently active — except among
  /// connections whose requests are being answered, where the newest goes first: the one
  /// answered longest (a held or delayed request) has waited the most, and a connection that
  /// has just sent its answer may not have marked itself idle yet on a loaded machine.
  var evictionRank: (Phase, UInt64) {
    let stamp = lastActive
    return (phase, phase == .handling ? UInt64.max - stamp : stamp)
  }

  func touch(_ phase: Phase) {
    phaseValue.storeReleasing(phase.rawValue)
    stamp.storeReleasing(Int(truncatingIfNeeded: DispatchTime.now().uptimeNanoseconds))
  }
}
