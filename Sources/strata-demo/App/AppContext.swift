import DemoKit
import Foundation
import Strata
import StrataConcurrency
import StrataSandbox

/// The sandbox's clock: real time plus an offset the tour moves to expire tokens instantly.
final class SandboxClock: Sendable {
  private let offset = Lock<TimeInterval>(0)
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

  private init(
    config: Config, configFile: String?, container: DependencyContainer, sandbox: SandboxServer?,
    sandboxClock: SandboxClock
  ) {
    self.config = config
    self.configFile = configFile
    self.container = container
    self.sandbox = sandbox
    self.sandboxClock = sandboxClock
  }

  /// Loads config (layers: --set/--api, STRATA_*, file, defaults), bootstraps logging, starts
  /// the sandbox if asked, builds and validates the container.
  static func start(_ invocation: Invocation, overrides extra: [Config.Key: String] = [:]) throws
    -> AppContext
  {
    var (config, file) = try loadConfig(invocation, extra: extra)
    try bootstrapLogging(config, invocation)
    config.logDiagnostics()

    let clock = SandboxClock()
    var sandbox: SandboxServer?
    if try config.string(.api) == "sandbox" {
      let server = SandboxServer(configuration: .init(now: { clock.now }))
      try server.start()
      Log.general.info("embedded sandbox on \(server.baseURL.absoluteString)")
      sandbox = server
      // The embedded sandbox's tokens die with it, so its session is kept in memory only.
      config = config.overriding([.api: server.baseURL.absoluteString, .tokenStore: "memory"])
    }
    let httpLog = try invocation.httpLog.map(HTTPLogFile.init(path:))
    let container = DemoContainer.make(
      config: config,
      onRetry: { notice in
        guard !Log.networking.isEnabled(.info) else { return }  // the log line already says it
        Terminal.error(
          "retrying in \(notice.delay.shortDescription) (\(notice.retry)/\(notice.maxRetries)): \(notice.request) → \(notice.reason)…"
        )
      },
      onRequestRecord: httpLog?.sink)
    try container.validate()
    return AppContext(
      config: config, configFile: file, container: container, sandbox: sandbox, sandboxClock: clock)
  }

  func shutdown() async { await sandbox?.stop() }

  func resolve<T: Sendable>(_ type: T.Type = T.self) throws -> T { try container.resolve(type) }

  /// The API the session belongs to, as a person would name it.
  var apiName: String {
    if sandbox != nil { return "the embedded sandbox" }
    return (try? container.resolve(Origin.self).description) ?? "the API"
  }

  // MARK: Configuration

  static func loadConfig(_ invocation: Invocation, extra: [Config.Key: String] = [:]) throws -> (
    Config, String?
  ) {
    // Only a file the user names is read: a config file lying in the working directory could
    // otherwise point the stored session's credentials at another server.
    let file = invocation.configPath ?? ProcessInfo.processInfo.environment["STRATA_CONFIG"]
    var overrides: [String: String] = [:]
    for (key, value) in invocation.sets { overrides[key] = value }
    if let api = invocation.api { overrides[Config.Key.api.name] = api }
    if invocation.sandbox { overrides[Config.Key.api.name] = "sandbox" }
    for (key, value) in extra { overrides[key.name] = value }
    let loaded = try Config(file: file, overrides: overrides, defaults: [.appName: "strata-demo"])
    // The environment it names (or the build's) fills in everything else.
    let (_, config) = try AppEnvironment.resolve(loaded)
    return (config, file)
  }

  static func bootstrapLogging(_ config: Config, _ invocation: Invocation) throws {
    try Log.bootstrap(config: config)
    if let name = invocation.logLevel {
      guard let level = LogLevel(name: name) else {
        throw UsageError(
          "--log-level must be one of \(LogLevel.allCases.map(\.description).joined(separator: ", ")), got '\(name)'",
          invocation.command)
      }
      Log.setLevels(LogThresholds(global: level))
    }
  }
}
