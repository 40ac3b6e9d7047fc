import DemoKit
import Strata

/// `config show`: every value with its origin, secrets redacted.
enum ConfigCommand {
  nonisolated static let commands = [
    Command(
      "config show", example: "strata-demo --config Config/Release.xcconfig config show",
      run: .standalone(show))
  ]

  struct Row: Encodable {
    let key: String
    let value: String
    let origin: String
  }

  @MainActor
  static func show(_ invocation: Invocation) throws -> Output {
    let (config, file) = try AppContext.loadConfig(invocation)
    let rows = config.entries.map {
      Row(key: $0.key, value: $0.displayValue, origin: $0.origin.description)
    }
    return Output(
      text: .line(
        Localized.current("config.file", ["file": file ?? Localized.current("config.none")])
          + "\n"
          + Output.table(
            Headings.of("key", "value", "from"), rows.map { [$0.key, $0.value, $0.origin] },
            maxWidth: 60)),
      json: rows)
  }
}
