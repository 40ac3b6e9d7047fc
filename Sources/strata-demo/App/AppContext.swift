import DemoKit
import Foundation
import Strata
import StrataSandbox
import Synchronization

/// The sandbox's clock: real time plus an offset the tour moves to expire tokens instantly.
final class SandboxClock: Sendable {
  private let offset = Mutex<TimeInterval>(0)
  var now: Date { Date().addingTimeInterval(offset.withLock { $0 }) }
  func advance(by seconds: TimeInterval) { offset.withLock { $0 += seconds } }
}

/// Everything one run needs: configuration, logging, the embedded sandbox when `API` is
/// `sandbox`, and the DemoContainer — the composition root is the only place that builds
/// concrete types.
final class AppContext: Sendable {
  let config: Config
  let configFile: String?
  let container: Container
  let sandbox: SandboxServer?
  let sandboxClock: SandboxClock

  private init(
    config: Config, configFile: String?, container: Container, sandbox: SandboxServer?,
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
  static func start(_ invocation: Invocation, overrides extra: [String: String] = [:]) throws
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
      (config, file) = try loadConfig(
        invocation, extra: extra.merging(["API": server.baseURL.absoluteString]) { $1 })
    }
    let container = DemoContainer.make(config: config) { notice in
      guard !Log.networking.isEnabled(.info) else { return }  // the log line already says it
      Terminal.error(
        "retrying in \(notice.delay.shortDescription) (\(notice.retry)/\(notice.maxRetries)): \(notice.request) → \(notice.reason)…"
      )
    }
    try container.validate()
    return AppContext(
      config: config, configFile: file, container: container, sandbox: sandbox, sandboxClock: clock)
  }

  func shutdown() async { await sandbox?.stop() }

  func resolve<T: Sendable>(_ type: T.Type = T.self) throws -> T { try container.resolve(type) }

  // MARK: Configuration

  static func loadConfig(_ invocation: Invocation, extra: [String: String] = [:]) throws -> (
    Config, String?
  ) {
    let file = invocation.configPath ?? defaultConfigFile()
    var overrides: [String: String] = [:]
    for (key, value) in invocation.sets { overrides[key] = value }
    if let api = invocation.api { overrides["API"] = api }
    if invocation.sandbox { overrides["API"] = "sandbox" }
    overrides.merge(extra) { $1 }
    let config = try Config(
      file: file, overrides: overrides, defaults: [.api: "sandbox", .appName: "strata-demo"])
    return (config, file)
  }

  /// `Config/Debug.xcconfig` in the working directory, else next to the package this binary
  /// was built from.
  static func defaultConfigFile() -> String? {
    let relative = "Config/Debug.xcconfig"
    var candidates = [FileManager.default.currentDirectoryPath]
    var executable = URL(fileURLWithPath: CommandLine.arguments.first ?? "")
      .resolvingSymlinksInPath()
    for _ in 0..<5 {
      executable.deleteLastPathComponent()
      candidates.append(executable.path)
    }
    candidates.append(
      URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path)
    return candidates.map { $0 + "/" + relative }.first {
      FileManager.default.fileExists(atPath: $0)
    }
  }

  static func bootstrapLogging(_ config: Config, _ invocation: Invocation) throws {
    try LogSystem.bootstrap(config: config)
    if let name = invocation.logLevel {
      guard let level = LogLevel(name: name) else {
        throw UsageError(
          "--log-level must be one of \(LogLevel.allCases.map(\.description).joined(separator: ", ")), got '\(name)'",
          invocation.command)
      }
      LogSystem.setLevels(LogLevels(global: level))
    }
  }
}
