import Foundation

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Raw descriptor I/O shared by the log output, the token file and downloads.
package enum FileDescriptor {
  /// Writes every byte of `bytes` to `fd`, resuming after partial writes and `EINTR`.
  /// - Returns: False if the descriptor refused (closed pipe, full disk, …); `errno` says why.
  @discardableResult
  package static func writeAll(_ fd: Int32, _ bytes: some Sequence<UInt8>) -> Bool {
    Array(bytes).withUnsafeBytes { writeAll(fd, $0) }
  }

  /// The same for bytes already in memory (a download's pieces): no copy.
  @discardableResult
  package static func writeAll(_ fd: Int32, _ buffer: UnsafeRawBufferPointer) -> Bool {
    guard let base = buffer.baseAddress else { return true }
    var offset = 0
    while offset < buffer.count {
      let written = write(fd, base + offset, buffer.count - offset)
      if written < 0 && errno == EINTR { continue }
      if written <= 0 { return false }
      offset += written
    }
    return true
  }
}
