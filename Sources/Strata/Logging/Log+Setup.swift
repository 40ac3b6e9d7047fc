import StrataConcurrency

/// The process-wide logging set-up: one sink and the enabled levels, bootstrapped once by
/// the executable, plus scoped overrides for tests.
///
/// Silent by default: until the app calls `bootstrap(sink:revealPrivate:)` (or
/// ``bootstrap(config:sink:)``) nothing is written anywhere — a library never prints on its
/// own. ``levels`` says which levels are written, in code; set before that, they are the
/// levels bootstrap starts from.
///
/// A disabled log call costs two relaxed atomic loads: each category keeps its threshold in an
/// atomic that setting ``levels`` updates, and a counter says whether any scope is active. A
/// written one reads the sink with one more (acquire) load: no lock on either path.
extension Log {
  struct State: Sendable {
    /// Nothing is written until the app bootstraps logging: a library stays silent.
    var bootstrapped = false
    var levels: LogThresholds
    var categories: [String: LogCategoryState]
    /// Set-ups replaced by a later bootstrap: a log call in flight may still be using one.
    var retired: [Setup] = []
  }

  /// Where enabled records go, read by every written log call without a lock.
  final class Setup: Sendable {
    let sink: any LogSink
    let revealPrivate: Bool
    init(sink: any LogSink, revealPrivate: Bool) {
      (self.sink, self.revealPrivate) = (sink, revealPrivate)
    }
  }

  /// A scoped override: sink, levels and privacy for one task tree.
  struct Scope: Sendable {
    let sink: any LogSink
    let levels: LogThresholds
    let revealPrivate: Bool
  }

  static let state = Lock(State(levels: LogThresholds(), categories: [:]))
  static let setup: PublishedReference<Setup> = {
    let setup = PublishedReference<Setup>()
    setup.publish(Setup(sink: TextLogSink(), revealPrivate: false))
    return setup
  }()
  static let activeScopes = AtomicInt(0)
  @TaskLocal static var scope: Scope?

  // MARK: Set-up

  /// Installs the sink every logger uses, writing the levels ``levels`` enables (`info` and
  /// up unless set). Call once, early, from the executable; a later call replaces the sink.
  /// - Parameter sink: Where records go.
  /// - Parameter revealPrivate: Print `privacy: .private` values (never `Secret`s). Local debug only.
  public static func bootstrap(sink: any LogSink, revealPrivate: Bool = false) {
    state.withLock { state in
      if let previous = setup.publish(Setup(sink: sink, revealPrivate: revealPrivate)) {
        state.retired.append(previous)
      }
      state.bootstrapped = true
      apply(state.levels, to: &state)
    }
  }

  /// Bootstraps from configuration: the levels (`LOG_LEVEL`, `LOG_LEVEL_<CATEGORY>`) become
  /// ``levels``, `LOG_REVEAL_PRIVATE` says whether private values print, and records go to
  /// `sink` — else to standard error as `LOG_FORMAT` says (`text` or `json` lines). Call
  /// `Config/logDiagnostics(to:)` next, once the levels are final, to log what loading the
  /// configuration noticed.
  /// - Parameter config: The configuration.
  /// - Parameter sink: Where records go instead of the `LOG_FORMAT` lines (an app's own sink).
  /// - Throws: ``ConfigError`` for an unknown level or format.
  public static func bootstrap(config: Config, sink: (any LogSink)? = nil) throws {
    let levels = try LogThresholds(config: config)
    let chosen = try sink ?? formatSink(config: config)
    let revealPrivate = try config.bool(.logRevealPrivate, default: false)
    state.withLock { $0.levels = levels }
    bootstrap(sink: chosen, revealPrivate: revealPrivate)
  }

  private static func formatSink(config: Config) throws -> any LogSink {
    let format = try config.string(.logFormat, default: "text")
    switch format.lowercased() {
    case "text": return TextLogSink()
    case "json": return JSONLogSink()
    default:
      var location: SourceLocation?
      if case .file(let fileLocation) = config.value(.logFormat)?.origin { location = fileLocation }
      throw ConfigError(
        .invalidValue(key: Config.Key.logFormat.name, expected: "text or json"), at: location,
        "\(Config.Key.logFormat.name): expected text or json, got '\(format)'")
    }
  }

  /// The enabled levels of the global set-up (not a scope's). Setting them changes them at
  /// run time; before bootstrap, it records the levels bootstrap will start from.
  public static var levels: LogThresholds {
    get { state.withLock { $0.levels } }
    set { state.withLock { apply(newValue, to: &$0) } }
  }

  // MARK: Scoped overrides (tests)

  /// Runs `operation` with its own sink and levels; every log call made in this task and
  /// its child tasks goes to `sink` instead of the global one. Used by tests with
  /// `CapturingLogSink`, so parallel tests never see each other's records.
  /// - Parameter sink: Where records go during the operation.
  /// - Parameter levels: Levels enabled during the operation (default: everything).
  /// - Parameter revealPrivate: Print private values during the operation.
  /// - Parameter isolation: The caller's actor (inferred).
  /// - Parameter operation: The work.
  /// - Returns: What `operation` returns.
  /// - Throws: What `operation` throws.
  public static func withScope<R>(
    sink: any LogSink, levels: LogThresholds = LogThresholds(global: .trace),
    revealPrivate: Bool = false,
    isolation: isolated (any Actor)? = #isolation,
    _ operation: () async throws -> R
  ) async rethrows -> R {
    activeScopes.add(1)
    defer { activeScopes.add(-1) }
    let scope = Scope(sink: sink, levels: levels, revealPrivate: revealPrivate)
    return try await $scope.withValue(scope) { try await operation() }
  }

  /// The synchronous form of ``withScope(sink:levels:revealPrivate:isolation:_:)``.
  /// - Parameter sink: Where records go during the operation.
  /// - Parameter levels: Levels enabled during the operation.
  /// - Parameter revealPrivate: Print private values during the operation.
  /// - Parameter operation: The work.
  /// - Returns: What `operation` returns.
  /// - Throws: What `operation` throws.
  package static func withScope<R>(
    sink: any LogSink, levels: LogThresholds = .all, revealPrivate: Bool = false,
    _ operation: () throws -> R
  ) rethrows -> R {
    activeScopes.add(1)
    defer { activeScopes.add(-1) }
    let scope = Scope(sink: sink, levels: levels, revealPrivate: revealPrivate)
    return try $scope.withValue(scope) { try operation() }
  }

  // MARK: Internals

  static func categoryState(_ category: String) -> LogCategoryState {
    state.withLock { state in
      if let existing = state.categories[category] { return existing }
      let created = LogCategoryState(
        threshold: state.bootstrapped ? state.levels.level(for: category).rank : .max)
      state.categories[category] = created
      return created
    }
  }

  private static func apply(_ levels: LogThresholds, to state: inout State) {
    state.levels = levels
    for (name, category) in state.categories {
      category.threshold.storeReleasing(
        state.bootstrapped ? levels.level(for: name).rank : .max)
    }
  }
}

/// A category's current threshold, read without a lock on every log call.
final class LogCategoryState: Sendable {
  let threshold: AtomicInt

  /// `threshold`: the lowest level written, as a raw value (`Int.max`: nothing).
  init(threshold: Int) { self.threshold = AtomicInt(threshold) }
}
