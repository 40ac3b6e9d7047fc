import DemoKit
import Strata

/// `settings`, `settings set KEY VALUE`, `settings reset [KEY]`: the user's own choices
/// (``DemoSettings``), per account, through ``SettingsViewModel``.
@MainActor
enum SettingsCommands {
  nonisolated static let commands = [
    Command(
      "settings", example: "strata-demo settings", run: .inApp(list)),
    Command(
      "settings set", positionals: ["KEY", "VALUE"],
      example: "strata-demo settings set page-size 20",
      run: .inApp(set)),
    Command(
      "settings reset", positionals: ["[KEY]"], example: "strata-demo settings reset page-size",
      run: .inApp(reset)),
  ]

  static func list(_ app: AppContext, _ invocation: Invocation) async throws -> Output {
    let model = try app.resolve(SettingsViewModel.self)
    await model.load()
    if let failure = model.state.failure { throw failure.error }
    return table(model.entries)
  }

  static func set(_ app: AppContext, _ invocation: Invocation) async throws -> Output {
    guard invocation.positionals.count == 2 else {
      throw UsageError(Localized.current("settings.needsValue"), invocation.command)
    }
    let model = try app.resolve(SettingsViewModel.self)
    guard await model.set(invocation.positionals[0], to: invocation.positionals[1]) else {
      throw model.state.failure?.error ?? CommandFailure(Localized.current("settings.notChanged"))
    }
    return table(model.entries.filter { $0.key == invocation.positionals[0] })
  }

  static func reset(_ app: AppContext, _ invocation: Invocation) async throws -> Output {
    let model = try app.resolve(SettingsViewModel.self)
    guard await model.reset(invocation.positionals.first) else {
      throw model.state.failure?.error ?? CommandFailure(Localized.current("settings.notChanged"))
    }
    return table(model.entries)
  }

  private static func table(_ entries: [Preferences.Entry]) -> Output {
    Output(
      text: .table(
        headers: Headings.of("setting", "value", "from", "allowed"),
        rows: entries.map { [$0.key, $0.value, Self.origin($0), DemoSettings.allowed($0)] },
        footer: Localized.current("settings.footer")),
      json: entries.map {
        [
          "name": $0.key, "value": $0.value, "from": Self.origin($0),
          "allowed": DemoSettings.allowed($0),
        ]
      })
  }

  /// Where a setting's value came from: `account`, `device`, or `default` (nothing set).
  private static func origin(_ entry: Preferences.Entry) -> String {
    entry.origin?.rawValue ?? "default"
  }
}
