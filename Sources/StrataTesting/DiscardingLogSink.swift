import Strata

/// A sink that drops every record: what a test restores after bootstrapping logging globally,
/// so the rest of the suite stays as silent as an app that never set logging up.
public struct DiscardingLogSink: LogSink {
  public init() {}

  public func log(_ record: LogRecord) {}
}
