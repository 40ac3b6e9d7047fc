import Strata

/// `config show`: every value with its origin, secrets redacted.
enum ConfigCommand {
  struct Row: Encodable {
    let key: String
    let value: String
    let origin: String
  }

  static func show(_ invocation: Invocation) throws {
    let (config, file) = try AppContext.loadConfig(invocation)
    let rows = config.entries.map {
      Row(key: $0.key, value: $0.displayValue, origin: $0.origin.description)
    }
    if invocation.json { return Terminal.out(try TableRenderer.json(rows)) }
    Terminal.out("configuration file: \(file ?? "(none)")")
    Terminal.out(
      TableRenderer.table(
        ["KEY", "VALUE", "FROM"], rows.map { [$0.key, $0.value, $0.origin] }, maxWidth: 60))
  }
}
