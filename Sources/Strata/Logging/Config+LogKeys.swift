extension Config.Key {
  /// Global log level: trace, debug, info, notice, warning, error, critical.
  public static let logLevel: Config.Key = "LOG_LEVEL"
  /// Log output format: `text` or `json`.
  public static let logFormat: Config.Key = "LOG_FORMAT"
  /// Print values logged with `privacy: .private`, and personal-data fields (ssn, iban, …) in
  /// logged bodies — local debugging only; tokens and passwords stay hidden.
  public static let logRevealPrivate: Config.Key = "LOG_REVEAL_PRIVATE"

  /// The per-category level key, e.g. `LOG_LEVEL_NETWORKING` for `networking`.
  public static func logLevel(for category: String) -> Config.Key {
    Config.Key("LOG_LEVEL_" + category.uppercased())
  }
}
