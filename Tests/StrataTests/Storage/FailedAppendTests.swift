import Foundation
import Strata
import StrataConcurrency
import StrataTesting
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Real files whose next write, once armed, puts half its bytes on disk and fails as a full
/// disk does.
private final class HalfWriteFiles: ForwardingFiles {
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
      _ = try await store.enqueue { _, _ in
        .append(kind: "note.create", payload: Data(text.utf8), showing: Note(id: 0, text: text))
      }
    }
    try await queue("first")
    let journal = try #require(directory.logs.first)
    let before = try fileSize(journal)
    files.arm()
    await #expect(throws: FileError.self) { try await queue("refused") }
    #expect(try fileSize(journal) == before, "the file is as it was, at once")
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

@Suite("LocalStore: how often a change is sent")
struct SendLimitTests {
  /// A server that never takes the change: each sync sends it once — one call, with the
  /// service's retries — and after `maxAttempts` syncs it is a dead letter. The server saw
  /// exactly `maxAttempts × (1 + maxRetries)` requests, all under the change's one key.
  @Test func aChangeIsSentAtMostAttemptsTimesOneCallWithItsRetries() async throws {
    let directory = StoreDirectory()
    defer { directory.cleanUp() }
    let store = LocalStore<Note>(path: directory.base)
    _ = try await LocalStoreTests.queue(store, ["never taken"])
    let transport = MockTransport.statuses(Array(repeating: 503, count: 100))
    let service = makeService(transport, policy: RetryPolicy(maxRetries: 2))
    let (maxAttempts, maxRetries) = (3, 2)
    for _ in 0..<maxAttempts + 2 {
      _ = try await store.sync(maxAttempts: maxAttempts) { entry in
        var request = Request<Note>(path: "notes", method: .post, body: .json(["text": "t"]))
        request.idempotencyKey = entry.idempotencyKey
        return .init(key: "n", value: try await service.send(request).value)
      }
    }
    #expect(transport.requestCount == maxAttempts * (1 + maxRetries))
    let keys = Set(transport.requests.map { $0.value(forHTTPHeaderField: "Idempotency-Key") })
    #expect(keys.count == 1 && keys.first != nil)
    let entry = try #require(try await store.outbox().first)
    #expect(entry.status == .failed && entry.attempts == maxAttempts)
    #expect(entry.message?.hasPrefix("given up after 3 attempts") == true)
  }

  /// The one rule for what a failed send means: a refusal, or JSON the client cannot read
  /// after a 2xx, fails the change; a page that is not JSON, a 5xx or a 409 does not.
  @Test func aNetworkErrorIsARefusalByOneRule() {
    let refused = NetworkError.server(
      status: 422, body: Data(#"{"message":"bad"}"#.utf8), serverMessage: "bad")
    #expect(ChangeRefused(refused)?.reason == "HTTP 422: bad")
    let unreadable = NetworkError(
      .decoding(.init(status: 201, codingPath: "id", reason: "missing", bodyExcerpt: "{}")))
    #expect(ChangeRefused(unreadable)?.reason.hasPrefix("HTTP 201: the server took it") == true)
    let page = NetworkError(
      .decoding(.init(status: 200, codingPath: "", reason: "x", bodyExcerpt: "<9 bytes, not JSON>"))
    )
    #expect(ChangeRefused(page) == nil)
    #expect(ChangeRefused(NetworkError.server(status: 503)) == nil)
    #expect(ChangeRefused(NetworkError.server(status: 409)) == nil)
    #expect(ChangeRefused(NetworkError(.offline)) == nil)
  }

}

/// The size of the file at `path`, in bytes.
private func fileSize(_ path: String) throws -> Int {
  try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
}
