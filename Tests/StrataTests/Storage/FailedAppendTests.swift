import Foundation
import Strata
import StrataConcurrency
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Real files whose next write, once armed, puts half its bytes on disk and fails as a full
/// disk does.
private final class HalfWriteFiles: DurableFiles {
  private let armed = Lock(false)
  private let system = SystemFiles()

  func arm() { armed.withLock { $0 = true } }

  func write(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
    let fails = armed.withLock { armed in
      defer { armed = false }
      return armed
    }
    guard fails else { return system.write(fd, bytes) }
    _ = system.write(fd, Array(bytes.prefix(bytes.count / 2)))
    errno = ENOSPC
    return false
  }

  func open(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 {
    system.open(path, flags, mode)
  }
  func close(_ fd: Int32) { system.close(fd) }
  func sync(_ fd: Int32) -> Bool { system.sync(fd) }
  func truncate(_ fd: Int32, to length: Int) -> Bool { system.truncate(fd, to: length) }
  func rename(_ from: String, _ to: String) -> Bool { system.rename(from, to) }
  func unlink(_ path: String) { system.unlink(path) }
  func syncDirectory(of path: String) -> Bool { system.syncDirectory(of: path) }
}

@Suite("LocalStore: a failed append")
struct FailedAppendTests {
  /// An append that failed half-way is taken back at once (a process that dies next leaves
  /// no torn line): the change is refused with the disk's error, and the next one is whole
  /// when the store is opened again, with no damage to report.
  @Test func isCutBackSoTheNextChangeIsWhole() async throws {
    let directory = StoreDirectory()
    defer { directory.cleanUp() }
    let files = HalfWriteFiles()
    var options = LocalStore<Note>.Options()
    options.files = files
    let store = LocalStore<Note>(path: directory.base, options: options)
    func queue(_ text: String) async throws {
      _ = try await store.enqueue(
        kind: "note.create", payload: Data(text.utf8), showing: Note(id: 0, text: text))
    }
    try await queue("first")
    let journal = try #require(directory.logs.first)
    let before = FileDescriptor.size(of: journal)
    files.arm()
    await #expect(throws: FileError.self) { try await queue("refused") }
    #expect(FileDescriptor.size(of: journal) == before, "the file is as it was, at once")
    try await queue("after")

    let reopened = LocalStore<Note>(path: directory.base)
    let texts = try await reopened.outbox().map { String(decoding: $0.payload, as: UTF8.self) }
    #expect(texts == ["first", "after"])
    #expect(try await reopened.damage().isEmpty)
  }
}

@Suite("LocalStore: the writer's lock")
struct WriterLockTests {
  /// A write takes the store's lock exclusively: while another process holds it shared (a
  /// reader), a change waits and, past the lock's time limit, is refused — never written
  /// beside the reader. Reading goes on meanwhile. The verdict does not depend on timing: an
  /// exclusive lock cannot be had while a shared one is held, however long the wait.
  @Test func aWriteWaitsForEveryReader() async throws {
    let directory = StoreDirectory()
    defer { directory.cleanUp() }
    var options = LocalStore<Note>.Options()
    options.lockTimeout = .milliseconds(50)
    let store = LocalStore<Note>(path: directory.base, options: options)
    _ = try await LocalStoreTests.queue(store, ["before"])
    let reader = try await FileLock.acquire(
      directory.base + ".lock", exclusive: false, timeout: .seconds(120))
    await #expect(throws: FileError.self) {
      _ = try await LocalStoreTests.queue(store, ["while read"])
    }
    #expect(try await store.outbox().count == 1, "reads share the lock")
    reader.release()
    _ = try await LocalStoreTests.queue(store, ["after"])
    let texts = try await store.outbox().map { String(decoding: $0.payload, as: UTF8.self) }
    #expect(texts == ["before", "after"])
  }
}
