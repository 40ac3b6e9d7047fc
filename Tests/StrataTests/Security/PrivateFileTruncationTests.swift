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
  final class CountingFiles: ForwardingFiles {
    let truncations = Lock(0)
    func truncate(_ fd: Int32, to length: Int) -> Bool {
      truncations.withLock { $0 += 1 }
      return SystemFiles().truncate(fd, to: length)
    }
  }

  @Test func aNewOrEmptyFileIsNotCutAndAFileWithBytesIs() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path + "/part"
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
