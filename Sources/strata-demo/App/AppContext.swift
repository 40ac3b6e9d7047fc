import DemoKit
import Foundation
import Strata
import StrataSandbox

/// The sandbox's clock: real time plus an offset the tour moves to expire tokens instantly.
final class SandboxClock: Sendable {
  private let offset = Locked<TimeInterval>(0)
  var now: Date { Date().addingTimeInterval(offset.withLock { $0 }) }
  func advance(by seconds: TimeInterval) { offset.withLock { $0 += seconds } }
}

/// Everything one run needs: configuration (built-in defaults, or the file named by `--config`
/// or `STRATA_CONFIG`, never one found in the working directory), logging, the embedded sandbox
/// when `API` is `sandbox`, and the container `DemoContainer` (the composition root) builds
/// from that one configuration.
final class AppContext: Sendable {
  let config: Config
  let configFile: String?
  let container: DependencyContainer
  let sandbox: SandboxServer?
  let sandboxClock: SandboxClock
  /// The `--http-log` and `--analytics-log` files, asked at the end whether they were written.
  private let logs: [JSONLinesFile]
  /// `--har FILE`: every attempt, written to the file when the run ends.
  private let har: (recorder: HARRecorder, path: String)?
  private let harProblem = Locked<String?>(nil)

  private init(
    config: Config, configFile: String?, container: DependencyContainer, sandbox: SandboxServer?,
    sandboxClock: SandboxClock, logs: [JSONLinesFile], har: (HARRecorder, String)?
  ) {
    self.har = har
    self.config = config
    self.configFile = configFile
    self.container = container
    self.sandbox = sandbox
    self.sandboxClock = sandboxClock
    self.logs = logs
  }

  /// One sentence per log file that could not be written (a full disk).
  var logProblems: [String] {
    logs.compactMap(\.problem) + [harProblem.withLock { $0 }].compactMap { $0 }
  }

  /// Loads config (layers: --set/--api, STRATA_*, file, defaults), opens the HTTP log, starts
  /// the sandbox (if asked) and builds the container once, checking all of it: a bad value is
  /// one line and exit 78 before anything is sent (the sandbox, only listening, is stopped).
  static func start(_ invocation: Invocation, overrides extra: [Config.Key: String] = [:])
    async throws -> AppContext
  {
    var (config, file) = try loadConfig(invocation, extra: extra)
    try bootstrapLogging(config, invocation)
    let httpLog = try invocation.httpLog.map { try JSONLinesFile(path: $0) }
    let analyticsLog = try invocation.analyticsLog.map {
      try JSONLinesFile(path: $0, name: Localized.current("log.analytics"))
    }
    config.logDiagnostics()

    let clock = SandboxClock()
    var sandbox: SandboxServer?
    var sandboxKeepsIdentity = true
    if try config.string(.api) == "sandbox" {
      let app = try config.string(.appName, default: "strata-demo")
      let (server, keepsIdentity) = try SandboxServer.startWithMachineIdentity(
        at: AppDirectories(app: app).data + "/sandbox-identity.json",
        configuration: .init(now: { clock.now }))
      (sandbox, sandboxKeepsIdentity) = (server, keepsIdentity)
      var sandboxed: [Config.Key: String] = [.api: server.baseURL.absoluteString]
      if !keepsIdentity {
        // Its usual port was taken: this run's origin is its own, so its session and answers
        // are kept in memory (a directory for a one-off port would stay behind).
        sandboxed[.tokenStore] = "memory"
        if try config.string(.httpCache, default: "disk").lowercased() == "disk" {
          sandboxed[.httpCache] = "memory"
        }
      }
      // Loaded again with the sandbox's address: what refers to `API` follows it.
      (config, file) = try loadConfig(invocation, extra: extra.merging(sandboxed) { $1 })
    }
    let har = invocation.har.map { (HARRecorder(), $0) }
    if let (recorder, path) = har {
      // Written empty now, as --http-log is opened now: an unwritable path is exit 73 before
      // anything is sent; the run's entries replace it at the end.
      do {
        try recorder.write(to: path)
      } catch {
        throw CantCreate(
          Localized.current("log.harUnwritable", ["path": path, "reason": "\(error)"]))
      }
    }
    let observers = [har?.0.observer, Self.notices(httpLog: httpLog)].compactMap { $0 }
    let container = DemoContainer.make(
      config: config, observer: .all(observers),
      analytics: analyticsLog.map(AnalyticsLog.init(file:)) ?? NoAnalytics())
    do {
      try container.validate()
    } catch {
      await sandbox?.stop()
      throw error
    }
    if let sandbox {
      Log.general.info("embedded sandbox on \(sandbox.baseURL.absoluteString)")
      if !sandboxKeepsIdentity {
        Log.general.notice("the sandbox's usual port is taken; this run's session is not kept")
      }
    }
    return AppContext(
      config: config, configFile: file, container: container, sandbox: sandbox, sandboxClock: clock,
      logs: [httpLog, analyticsLog].compactMap { $0 }, har: har)
  }

  /// Stops the sandbox and writes the `--har` file (a failure to is one of ``logProblems``).
  func shutdown() async {
    await sandbox?.stop()
    guard let har else { return }
    do {
      try har.recorder.write(to: har.path)
    } catch {
      harProblem.withLock {
        $0 = Localized.current("log.harUnwritable", ["path": har.path, "reason": "\(error)"])
      }
    }
  }

  func resolve<T: Sendable>(_ type: T.Type = T.self) throws -> T { try container.resolve(type) }

  /// The registered `T`, or nil when none is (a feature turned off).
  func resolve<T: Sendable>(_ type: T?.Type = T?.self) throws -> T? { try container.resolve() }

  /// The API the session belongs to, as a person would name it (in English for `--json`).
  func apiName(_ text: Localized = .current) -> String {
    if sandbox != nil { return text("api.sandbox") }
    return (try? container.resolve(Origin.self).description) ?? text("api.unnamed")
  }

  // MARK: Configuration

  static func loadConfig(_ invocation: Invocation, extra: [Config.Key: String] = [:]) throws -> (
    Config, String?
  ) {
    // Only a file the user names is read: a config file lying in the working directory could
    // otherwise point the stored session's credentials at another server.
    let file = invocation.configPath ?? ProcessInfo.processInfo.environment["STRATA_CONFIG"]
    var overrides: [Config.Key: String] = [:]
    for (key, value) in invocation.sets { overrides[Config.Key(key)] = value }
    if let api = invocation.api { overrides[.api] = api }
    if invocation.noCache { overrides[.httpCache] = "off" }
    if invocation.sandbox { overrides[.api] = "sandbox" }
    for (key, value) in extra { overrides[key] = value }
    // The environment it names (or the build's) fills in everything else.
    let (_, config) = try AppEnvironment.resolve { defaults in
      var defaults = defaults
      defaults[.appName] = "strata-demo"
      return try Config(file: file, overrides: overrides, defaults: defaults)
    }
    return (config, file)
  }

  /// A command is quiet on success: warnings and errors only (and no networking errors: the
  /// command reports a failed call itself), unless `-v`/`--verbose`
  /// (info), `--log-level`, or `LOG_LEVEL` (configuration, `STRATA_LOG_LEVEL` or the plain
  /// `LOG_LEVEL` variable) asks for more.
  static func bootstrapLogging(_ config: Config, _ invocation: Invocation) throws {
    try Log.bootstrap(config: config)
    var levels = Log.levels
    // Levels an environment supplies by default (development: debug) are for an app's own
    // console; on the command line only what the user asked for counts.
    let asked = { (key: String) in config.value(Config.Key(key))?.origin != .defaults }
    levels.categories = levels.categories.filter { asked(Config.Key.logLevel(for: $0.key).name) }
    if !asked(Config.Key.logLevel.name) {
      levels.global = invocation.verbose ? .info : .warning
      if !invocation.verbose, let name = ProcessInfo.processInfo.environment["LOG_LEVEL"] {
        guard let level = LogLevel(name: name) else {
          throw ConfigError(
            .invalidValue(key: "LOG_LEVEL", expected: "a log level"), at: nil,
            Localized.current(
              "error.logLevel", ["names": LogLevel.names, "got": Invocation.quoted(name)]))
        }
        levels.global = level
      }
    }
    if let name = invocation.logLevel {
      guard let level = LogLevel(name: name) else {
        throw UsageError.global(
          Localized.current(
            "usage.logLevel", ["names": LogLevel.names, "got": Invocation.quoted(name)]))
      }
      levels.global = level
    }
    let quiet =
      !invocation.verbose && invocation.logLevel == nil && !asked(Config.Key.logLevel.name)
      && ProcessInfo.processInfo.environment["LOG_LEVEL"] == nil
    if quiet, levels.categories["networking"] == nil {
      // A command says in words why a call failed; the networking log's `error` line for it
      // would say it twice. `-v` or any level asked for shows it.
      levels.categories["networking"] = .critical
    }
    Log.levels = levels
  }
}

extension LogLevel {
  static var names: String { allCases.map(\.description).joined(separator: ", ") }
}

extension AppContext {
  /// `--limit` (default: the `page-size` setting) and `--skip`.
  func paging(_ invocation: Invocation) async throws -> (limit: Int, skip: Int) {
    try invocation.paging(limit: try await resolve(Preferences.self).value(DemoSettings.pageSize))
  }

  /// Whether a change is kept on this device: asked with `--offline`, or the `offline-first`
  /// setting is on (and the offline feature with it: a person's setting does not turn on what
  /// the app's configuration turned off).
  func keepsOffline(_ invocation: Invocation) async throws -> Bool {
    guard invocation.option("offline") == nil else { return true }
    guard try resolve(FeatureFlags.self).isOn(.offline) else { return false }
    return try await resolve(Preferences.self).value(DemoSettings.offlineFirst)
  }

  /// What the CLI makes of every record: a `--http-log` line, the "how old" notice of an
  /// answer that stood in, and the "retrying in 2s (2/3)…" line when the info log is off.
  nonisolated private static func notices(httpLog: JSONLinesFile?) -> CallObserver {
    CallObserver { record in
      httpLog?.sink(record)
      if case .stale(let age) = record.source {
        // The command succeeds with what was kept: say how old it is, once per answer.
        // How old, in the one form every line uses (`0 s`, `12 min`).
        let text = Localized.current
        let age = text.age(age)
        let reason =
          record.error.map(Self.inWords)
          ?? text("notice.unavailable", ["status": String(record.status ?? 0)])
        Terminal.error(
          text("notice.stale", ["request": record.request, "reason": reason, "age": age]))
      }
      // The info log line already says it when shown.
      guard let retry = record.retry, !Log.networking.isEnabled(.info) else { return }
      let delay = Duration.milliseconds(Int64(retry.delayMilliseconds.rounded()))
      Terminal.error(
        Localized.current(
          "notice.retrying",
          [
            "delay": Output.duration(delay), "number": String(retry.number),
            "max": String(retry.maxRetries), "request": record.request,
            "reason": Self.inWords(retry.reason),
          ]))
    }
  }

  /// A record's reason in the user's words: a status stays a number; a failure without an
  /// answer (`could not connect to the server (URLError -1004)`) is said as the strings say
  /// that code, else as the library said it.
  nonisolated static func inWords(_ reason: String) -> String {
    guard let open = reason.range(of: "(URLError "), reason.hasSuffix(")"),
      let code = Int(reason[open.upperBound...].dropLast())
    else { return reason }
    return Failure.sayURLError(code) ?? reason
  }
}
