import Strata

/// The system's own files, for a test double that changes one or two calls: it conforms, writes
/// only what it changes, and every other call is the system call.
protocol ForwardingFiles: DurableFiles {}

extension ForwardingFiles {
  func open(_ path: String, _ flags: Int32) -> Int32 { SystemFiles().open(path, flags) }
  func close(_ fd: Int32) { SystemFiles().close(fd) }
  func write(_ fd: Int32, _ bytes: [UInt8]) -> Bool { SystemFiles().write(fd, bytes) }
  func sync(_ fd: Int32) -> Bool { SystemFiles().sync(fd) }
  func truncate(_ fd: Int32, to length: Int) -> Bool { SystemFiles().truncate(fd, to: length) }
  func rename(_ from: String, _ to: String) -> Bool { SystemFiles().rename(from, to) }
  func unlink(_ path: String) { SystemFiles().unlink(path) }
  func syncDirectory(of path: String) -> Bool { SystemFiles().syncDirectory(of: path) }
}
