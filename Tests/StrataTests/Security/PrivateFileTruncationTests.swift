import Foundation
import StrataConcurrency
import Testing

@testable import Strata

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `O_TRUNC` through the one file primitive: a file with bytes is emptied; an empty one — a
/// download's new part — is left alone, since on ext4 cutting even an empty file makes its
/// close allocate and flush every block written since (what made 200 MB downloads a quarter
/// slower). The benchmark shows the speed; this shows the rule.
@Suite("PrivateFile: only a file with bytes is truncated")
struct PrivateFileTruncationTests {
  /// The system's files, counting the truncations asked for.
  final class CountingFiles: DurableFiles {
    let system = SystemFiles()
    let truncations = Lock(0)
    func open(_ path: String, _ flags: Int32) -> Int32 { system.open(path, flags) }
    func close(_ fd: Int32) { system.close(fd) }
    func write(_ fd: Int32, _ bytes: [UInt8]) -> Bool { system.write(fd, bytes) }
    func sync(_ fd: Int32) -> Bool { system.sync(fd) }
    func truncate(_ fd: Int32, to length: Int) -> Bool {
      truncations.withLock { $0 += 1 }
      return system.truncate(fd, to: length)
    }
    func rename(_ from: String, _ to: String) -> Bool { system.rename(from, to) }
    func unlink(_ path: String) { system.unlink(path) }
    func syncDirectory(of path: String) -> Bool { system.syncDirectory(of: path) }
  }

  @Test func aNewOrEmptyFileIsNotCutAndAFileWithBytesIs() throws {
    let directory = FileManager.default.temporaryDirectory.path + "/strata-trunc-\(UUID())"
    #expect(PrivateFile.makeDirectory(directory) == nil)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let path = directory + "/part"
    let files = CountingFiles()

    let made = try #require(
      try PrivateFile.open(path, O_WRONLY | O_TRUNC, creating: .ifMissing, files: files))
    #expect(files.truncations.withLock { $0 } == 0, "a new file is empty: nothing to cut")
    #expect(FileDescriptor.writeAll(made, [1, 2, 3]))
    close(made)

    let again = try #require(
      try PrivateFile.open(path, O_WRONLY | O_TRUNC, creating: .ifMissing, files: files))
    close(again)
    #expect(files.truncations.withLock { $0 } == 1, "three bytes: cut")
    #expect(PrivateFile.size(of: path) == 0)

    let empty = try #require(try PrivateFile.open(path, O_WRONLY | O_TRUNC, files: files))
    close(empty)
    #expect(files.truncations.withLock { $0 } == 1, "empty already: not cut again")
  }
}
