extension Config {
  /// Logs what loading noticed but did not reject: each duplicate definition with both
  /// locations (debug within one file, trace across includes), and each optional include that
  /// was absent (debug). The executable calls
  /// this once logging is bootstrapped (logging itself is configured from this config).
  /// - Parameter logger: Where to log (``Log/general`` by default).
  public func logDiagnostics(to logger: Log = Log.general) {
    for duplicate in duplicates {
      // Redefining a key from an included file is how layering works; twice in one file is
      // more likely a mistake, so it is the one shown at debug.
      logger.log(
        duplicate.previous.file == duplicate.winner.file ? .debug : .trace, "config: \(duplicate)")
    }
    for skipped in skippedIncludes {
      logger.trace("config: optional include at \(skipped) not found")
    }
  }
}
