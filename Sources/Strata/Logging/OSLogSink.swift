#if canImport(os)
  import os

  /// Sends records to Apple's unified logging (`os.Logger`) under a subsystem, one
  /// `os.Logger` per category. Messages arrive already redacted, so they are logged public.
  public struct OSLogSink: LogSink {
    /// The subsystem, e.g. your bundle identifier.
    public let subsystem: String

    public init(subsystem: String) { self.subsystem = subsystem }

    /// Writes one record to unified logging.
    public func log(_ record: LogRecord) {
      let logger = os.Logger(subsystem: subsystem, category: record.category)
      let type: OSLogType
      switch record.level {
      case .trace, .debug: type = .debug
      case .info: type = .info
      case .notice: type = .default
      case .warning, .error: type = .error
      case .critical: type = .fault
      }
      logger.log(level: type, "\(record.message, privacy: .public)")
    }
  }
#endif
