import Foundation
import Testing

@testable import Strata

/// The cross-process lock: a waiter whose file was removed and replaced as its holder let go
/// takes the lock of the file now at the path, so two holders never run at once.
struct FileLockTests {
  @Test(.timeLimit(.minutes(1)))  // a hang guard only
  func aWaiterOnARemovedFileTakesTheNewFilesLock() async throws {
    let folder = try TemporaryDirectory()
    let path = folder.path + "/download.part.lock"
    let first = try await FileLock.acquire(path, exclusive: true, timeout: nil)
    let waiter = Task { try await FileLock.acquire(path, exclusive: true, timeout: .seconds(60)) }
    try await Task.sleep(for: .milliseconds(30))  // the waiter has its descriptor by now
    first.release(removing: path)
    let second = try await waiter.value
    defer { second.release() }
    #expect(FileManager.default.fileExists(atPath: path), "the waiter made the file anew")
    // Anyone else now meets the waiter's lock on that file, not a free one.
    await #expect(throws: FileLock.Failure.busy) {
      _ = try await FileLock.acquire(path, exclusive: true, timeout: nil)
    }
  }
}
