/// A category logger, and (through its static members) the process's logging set-up.
/// ```swift
/// Log.networking.info("GET \(path) → \(status)")
/// Log.auth.debug("refreshing for \(user, privacy: .private)")
/// ```
/// A category of an app's own:
/// ```swift
/// extension Log {
///   static let payments = Log(category: "payments")
/// }
/// ```
///
/// Cheap to copy; create once (`static let`) and reuse. Messages are autoclosures: a disabled
/// level never evaluates (or formats) its message. Every message that is written has the
/// process's ``KnownSecrets`` masked, at every level. Nothing is written until the app calls
/// `bootstrap(sink:revealPrivate:)` (or runs inside a `withScope`).
public struct Log: Sendable {
  /// Strata's request lines (one per attempt, with its ``RequestRecord`` as fields).
  public static let networking = Log(category: "networking")
  /// Strata's sign-in, refresh and sign-out lines.
  public static let auth = Log(category: "auth")
  /// Anything else, including what loading the configuration noticed.
  public static let general = Log(category: "general")

  /// The category name, e.g. `networking`.
  public let category: String
  private let state: LogCategoryState

  /// Creates (or finds) the logger for a category.
  /// - Parameter category: The category name; its level comes from `LOG_LEVEL_<CATEGORY>`.
  public init(category: String) {
    self.category = category
    self.state = Log.categoryState(category)
  }

  /// Whether `level` would be written right now (in this task).
  /// - Returns: True when a record at `level` would reach a sink.
  public func isEnabled(_ level: LogLevel) -> Bool {
    if Log.activeScopes.load() > 0, let scope = Log.scope {
      return level >= scope.levels.level(for: category)
    }
    return level.rank >= state.threshold.load()
  }

  /// Logs `message` at `level` if that level is enabled: for a level decided at run time, or
  /// structured values beside the message.
  /// ```swift
  /// Log.general.log(
  ///   status >= 500 ? .error : .notice, "checkout failed", fields: ["status": "\(status)"])
  /// ```
  /// - Parameter level: The severity.
  /// - Parameter message: The message; evaluated only when the level is enabled.
  /// - Parameter file: The source file (defaults to the caller's).
  /// - Parameter line: The source line (defaults to the caller's).
  /// - Parameter fields: Structured values the record carries (JSON lines write them as
  ///   `fields`); evaluated only when the level is enabled. Their values are masked like the
  ///   message; names are written as given.
  public func log(
    _ level: LogLevel, _ message: @autoclosure () -> LogMessage, file: String = #fileID,
    line: UInt = #line, fields: @autoclosure () -> [String: String] = [:]
  ) {
    if Log.activeScopes.load() > 0, let scope = Log.scope {
      guard level >= scope.levels.level(for: category) else { return }
      write(
        level, message(), to: scope.sink, revealingPrivate: scope.revealPrivate, file, line,
        fields())
      return
    }
    guard level.rank >= state.threshold.load() else { return }
    writeGlobally(level, message(), file, line, fields())
  }

  /// Out of line, so the disabled path that inlines into every call site stays two loads.
  @inline(never)
  private func writeGlobally(
    _ level: LogLevel, _ message: @autoclosure () -> LogMessage, _ file: String, _ line: UInt,
    _ fields: @autoclosure () -> [String: String]
  ) {
    guard let setup = Log.setup.unmanaged else { return }
    // Borrowed, not retained: every thread that logs reads this one object, and retaining it
    // made its reference count the contended line. A replaced set-up is kept for ever
    // (`State.retired`), so the borrow cannot outlive it.
    setup._withUnsafeGuaranteedRef { setup in
      write(
        level, message(), to: setup.sink, revealingPrivate: setup.revealPrivate, file, line,
        fields())
    }
  }

  /// Out of line too: without it the disabled call, which never reaches it, measured 12 ns
  /// instead of 6.5 (`strata-bench --core`) once it masked the fields.
  @inline(never)
  private func write(
    _ level: LogLevel, _ message: LogMessage, to sink: any LogSink, revealingPrivate reveal: Bool,
    _ file: String, _ line: UInt, _ fields: [String: String]
  ) {
    sink.log(
      LogRecord(
        level: level, category: category,
        message: KnownSecrets.mask(message.rendered(revealingPrivate: reveal)),
        file: file, line: line,
        fields: fields.isEmpty ? fields : fields.mapValues(KnownSecrets.mask)))
  }

  // MARK: Levels

  /// - Parameter message: The message; evaluated only when enabled.
  /// - Parameter file: The source file.
  /// - Parameter line: The source line.
  /// - Parameter fields: Structured values, as in ``log(_:_:file:line:fields:)``.
  public func trace(
    _ message: @autoclosure () -> LogMessage, file: String = #fileID, line: UInt = #line,
    fields: @autoclosure () -> [String: String] = [:]
  ) { log(.trace, message(), file: file, line: line, fields: fields()) }

  /// - Parameter message: The message; evaluated only when enabled.
  /// - Parameter file: The source file.
  /// - Parameter line: The source line.
  /// - Parameter fields: Structured values, as in ``log(_:_:file:line:fields:)``.
  public func debug(
    _ message: @autoclosure () -> LogMessage, file: String = #fileID, line: UInt = #line,
    fields: @autoclosure () -> [String: String] = [:]
  ) { log(.debug, message(), file: file, line: line, fields: fields()) }

  /// - Parameter message: The message; evaluated only when enabled.
  /// - Parameter file: The source file.
  /// - Parameter line: The source line.
  /// - Parameter fields: Structured values, as in ``log(_:_:file:line:fields:)``.
  public func info(
    _ message: @autoclosure () -> LogMessage, file: String = #fileID, line: UInt = #line,
    fields: @autoclosure () -> [String: String] = [:]
  ) { log(.info, message(), file: file, line: line, fields: fields()) }

  /// - Parameter message: The message; evaluated only when enabled.
  /// - Parameter file: The source file.
  /// - Parameter line: The source line.
  /// - Parameter fields: Structured values, as in ``log(_:_:file:line:fields:)``.
  public func notice(
    _ message: @autoclosure () -> LogMessage, file: String = #fileID, line: UInt = #line,
    fields: @autoclosure () -> [String: String] = [:]
  ) { log(.notice, message(), file: file, line: line, fields: fields()) }

  /// - Parameter message: The message; evaluated only when enabled.
  /// - Parameter file: The source file.
  /// - Parameter line: The source line.
  /// - Parameter fields: Structured values, as in ``log(_:_:file:line:fields:)``.
  public func warning(
    _ message: @autoclosure () -> LogMessage, file: String = #fileID, line: UInt = #line,
    fields: @autoclosure () -> [String: String] = [:]
  ) { log(.warning, message(), file: file, line: line, fields: fields()) }

  /// - Parameter message: The message; evaluated only when enabled.
  /// - Parameter file: The source file.
  /// - Parameter line: The source line.
  /// - Parameter fields: Structured values, as in ``log(_:_:file:line:fields:)``.
  public func error(
    _ message: @autoclosure () -> LogMessage, file: String = #fileID, line: UInt = #line,
    fields: @autoclosure () -> [String: String] = [:]
  ) { log(.error, message(), file: file, line: line, fields: fields()) }

  /// - Parameter message: The message; evaluated only when enabled.
  /// - Parameter file: The source file.
  /// - Parameter line: The source line.
  /// - Parameter fields: Structured values, as in ``log(_:_:file:line:fields:)``.
  public func critical(
    _ message: @autoclosure () -> LogMessage, file: String = #fileID, line: UInt = #line,
    fields: @autoclosure () -> [String: String] = [:]
  ) { log(.critical, message(), file: file, line: line, fields: fields()) }
}
