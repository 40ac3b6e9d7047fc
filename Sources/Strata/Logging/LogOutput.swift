import StrataConcurrency

/// A destination for formatted log lines: standard error, or any closure (tests, files).
public struct LogOutput: Sendable {
  private let sink: @Sendable (String) -> Void

  /// Creates an output from a closure that receives each complete line (newline included).
  /// - Parameter sink: Called once per record; must be thread-safe.
  public init(_ sink: @escaping @Sendable (String) -> Void) { self.sink = sink }

  /// - Parameter line: The formatted record, ending in a newline.
  package func write(_ line: String) { sink(line) }

  /// Standard error, one `write(2)` per record so concurrent records never interleave.
  public static let standardError = LogOutput { line in
    writeLock.withLock { _ in _ = FileDescriptor.writeAll(2, line.utf8) }
  }

  private static let writeLock = Lock(())
}
