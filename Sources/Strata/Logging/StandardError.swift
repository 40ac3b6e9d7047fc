import StrataConcurrency

/// Where the line sinks write unless given another place: standard error, one `write(2)` per
/// record, under a lock, so records written at once never interleave.
enum StandardError {
  static func write(_ line: String) {
    lock.withLock { _ in _ = FileDescriptor.writeAll(2, line.utf8) }
  }

  private static let lock = Lock(())
}
