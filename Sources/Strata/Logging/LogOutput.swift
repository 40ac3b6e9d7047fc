import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

#if canImport(Darwin)
  private let systemWrite = Darwin.write
#elseif canImport(Musl)
  private let systemWrite = Musl.write
#else
  private let systemWrite = Glibc.write
#endif

/// A destination for formatted log lines: standard error, or any closure (tests, files).
public struct LogOutput: Sendable {
  private let sink: @Sendable (String) -> Void

  /// Creates an output from a closure that receives each complete line (newline included).
  /// - Parameter sink: Called once per record; must be thread-safe.
  public init(_ sink: @escaping @Sendable (String) -> Void) { self.sink = sink }

  /// Writes one line.
  /// - Parameter line: The formatted record, ending in a newline.
  public func write(_ line: String) { sink(line) }

  /// Standard error, one `write(2)` per record so concurrent records never interleave.
  public static let standardError = LogOutput { line in
    writeLock.withLock { _ in
      let bytes = Array(line.utf8)
      bytes.withUnsafeBytes { buffer in
        guard let base = buffer.baseAddress else { return }
        var offset = 0
        while offset < buffer.count {
          let written = systemWrite(2, base + offset, buffer.count - offset)
          if written <= 0 { return }
          offset += written
        }
      }
    }
  }

  private static let writeLock = Mutex(())
}
