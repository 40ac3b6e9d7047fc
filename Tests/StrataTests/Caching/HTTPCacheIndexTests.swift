import Foundation
import StrataTesting
import Testing

@testable import Strata

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The disk tier's index: what makes a process's first lookup cost one file's read, and
/// "least recently used" mean used by any process sharing the directory.
@Suite("HTTP cache index: no listing on a lookup, recency shared between processes, damage")
struct HTTPCacheIndexTests {
  private final class Clock: @unchecked Sendable {
    private let lock = NSLock()
    private var current = Date(timeIntervalSince1970: 1_800_000_000)
    var now: Date { lock.withLock { current } }
    func advance(_ seconds: TimeInterval) { lock.withLock { current += seconds } }
  }

  private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func add() { lock.withLock { value += 1 } }
    var count: Int { lock.withLock { value } }
  }

  /// A cache over `root` as one process opens it: a separate instance shares nothing with
  /// another but the directory.
  private static func process(_ root: String, budget: Int = 1 << 30, _ clock: Clock) -> HTTPCache {
    HTTPCache(
      app: "strata-tests", origin: exampleOrigin, maxBytes: budget,
      environment: ["XDG_CACHE_HOME": root, "HOME": root], now: { clock.now })
  }

  private static func request(_ number: Int) -> URLRequest {
    URLRequest(url: URL(string: "https://api.example/items/\(number)")!)
  }

  private static func answer(_ number: Int, _ clock: Clock) -> CachedResponse {
    CachedResponse(
      status: 200, headers: ["cache-control": "max-age=600"],
      body: Data(#"{"id":\#(number)}"#.utf8),
      requestTime: clock.now, responseTime: clock.now, varied: [:])
  }

  private static func keep(_ numbers: some Sequence<Int>, in cache: HTTPCache, _ clock: Clock) {
    for number in numbers {
      cache.store(answer(number, clock), for: request(number), owner: .device, epoch: nil)
    }
  }

  /// The directory of a cache that keeps `numbers`.
  private static func directory(keeping numbers: ClosedRange<Int>, _ root: String, _ clock: Clock)
    throws -> String
  {
    let cache = process(root, clock)
    keep(numbers, in: cache, clock)
    return try #require(cache.directory)
  }

  /// The entry file's name of `number`'s answer.
  private static func fileName(_ number: Int) -> String {
    HTTPCacheFiles.name(for: HTTPCache.key(request(number).url!, owner: .device), account: nil)
  }

  private static func isKept(_ number: Int, in cache: HTTPCache) -> Bool {
    cache.lookUp(request(number), owner: .device) != nil
  }

  /// A miss finds no file and writes nothing: no "removed" line for a file that never was, so
  /// a process reading many answers it does not have never touches the index.
  @Test func aMissWritesNothingToTheIndex() throws {
    let root = NSTemporaryDirectory() + "strata-index-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: root) }
    let clock = Clock()
    let directory = try Self.directory(keeping: 0...2, root, clock)
    let index = directory + "/index"
    let before = try FileManager.default.attributesOfItem(atPath: index)[.size] as? Int
    let next = Self.process(root, clock)
    #expect(!Self.isKept(7, in: next) && !Self.isKept(8, in: next))
    #expect(try FileManager.default.attributesOfItem(atPath: index)[.size] as? Int == before)
  }

  /// A process that finds 2,000 answers kept reads, misses and stores without listing the
  /// directory, and counts them from the index — no directory listing on any of those paths.
  @Test func noLookupStoreOrCountListsTheDirectory() throws {
    let root = NSTemporaryDirectory() + "strata-index-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: root) }
    let clock = Clock()
    Self.keep(0..<2_000, in: Self.process(root, clock), clock)
    let listings = Counter()
    let count: @Sendable () -> Void = { listings.add() }
    HTTPCacheFiles.$onListing.withValue(count) {
      let next = Self.process(root, clock)
      #expect(Self.isKept(1_234, in: next), "a hit")
      #expect(!Self.isKept(5_000, in: next), "a miss")
      Self.keep([5_000], in: next, clock)
      #expect(next.count == 2_001 && Self.process(root, clock).count == 2_001)
      next.invalidate(URL(string: "https://api.example/items/7")!, owner: .device)
      #expect(next.count == 2_000)
    }
    #expect(listings.count == 0)
  }

  /// Two processes share the directory, with room for three answers: the one the *other*
  /// process read most recently stays when a fourth comes, the least recently used goes —
  /// also when that read was served from its memory, recorded a while later.
  @Test func theLeastRecentlyUsedByAnyProcessGoesFirst() throws {
    let root = NSTemporaryDirectory() + "strata-index-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: root) }
    let clock = Clock()
    let fileBytes = { (cache: HTTPCache) in cache.byteCount / max(1, cache.count) }
    let first = Self.process(root, budget: 1 << 20, clock)
    Self.keep([1], in: first, clock)
    let budget = 3 * fileBytes(first)
    let writer = Self.process(root, budget: budget, clock)
    Self.keep([2, 3], in: writer, clock)
    #expect(Self.isKept(1, in: Self.process(root, budget: budget, clock)), "read by a third")
    Self.keep([4], in: writer, clock)
    let after = Self.process(root, budget: budget, clock)
    #expect(after.count == 3 && !Self.isKept(2, in: after), "2 was used least recently")
    #expect(Self.isKept(1, in: after) && Self.isKept(3, in: after) && Self.isKept(4, in: after))

    // A reader uses 3, 4, 1 from disk, then 3 again from its memory: once a while has
    // passed, that use reaches the disk too, and 4 is the least recently used.
    let reader = Self.process(root, budget: budget, clock)
    #expect(Self.isKept(3, in: reader) && Self.isKept(4, in: reader) && Self.isKept(1, in: reader))
    clock.advance(31)
    #expect(Self.isKept(3, in: reader), "from memory, and now recorded")
    Self.keep([5], in: writer, clock)
    let last = Self.process(root, budget: budget, clock)
    #expect(!Self.isKept(4, in: last), "4 was used least recently")
    #expect(Self.isKept(3, in: last) && Self.isKept(1, in: last) && Self.isKept(5, in: last))
  }

  /// A damaged index — torn, garbage, names that point outside the directory — is read for
  /// what it can say, never acted on outside the directory; a missing one is rebuilt from the
  /// directory, and a temporary file a killed writer left long ago goes then (a recent one is a
  /// write in progress and stays).
  @Test func aDamagedOrMissingIndexIsRebuiltAndNeverLeadsOutside() throws {
    let root = NSTemporaryDirectory() + "strata-index-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: root) }
    let clock = Clock()
    let directory = try Self.directory(keeping: 1...3, root, clock)
    let victim = root + "/victim"
    try Data("keep me".utf8).write(to: URL(fileURLWithPath: victim))
    let index = directory + "/index"
    let handle = try #require(FileHandle(forWritingAtPath: index))
    handle.seekToEndOfFile()
    handle.write(
      Data(
        "- ../../../../victim\n+ ../x.entry 5\n+ abc.entry 99999999999999999999\n= \n+ half.en"
          .utf8))
    try handle.close()
    let reopened = Self.process(root, clock)
    #expect(reopened.count == 3)
    Self.keep([4], in: reopened, clock)
    #expect(FileManager.default.fileExists(atPath: victim))
    #expect(Self.process(root, clock).count == 4, "the torn line did not swallow the next one")

    let old = directory + "/1.entry.tmp-1-2"
    let recent = directory + "/2.entry.tmp-1-2"
    for path in [old, recent] { try Data("half".utf8).write(to: URL(fileURLWithPath: path)) }
    try FileManager.default.setAttributes(
      [.modificationDate: Date().addingTimeInterval(-3_600)], ofItemAtPath: old)
    try FileManager.default.removeItem(atPath: index)
    #expect(Self.process(root, clock).count == 4, "rebuilt from the directory")
    #expect(!FileManager.default.fileExists(atPath: old))
    #expect(FileManager.default.fileExists(atPath: recent))

    // Writes in progress live in `tmp/`: a dead writer's is cleared by the next process that
    // reads the index, a live one's (this process's) stays.
    let folder = directory + "/tmp/"
    let dead = folder + "3.entry.tmp-\(Int32.max - 7)-1"
    let live = folder + "4.entry.tmp-\(getpid())-1"
    for path in [dead, live] { try Data("half".utf8).write(to: URL(fileURLWithPath: path)) }
    #expect(Self.process(root, clock).count == 4)
    #expect(!FileManager.default.fileExists(atPath: dead))
    #expect(FileManager.default.fileExists(atPath: live))

    try Data("not an index\n+ 1.entry 4096\n".utf8).write(to: URL(fileURLWithPath: index))
    #expect(Self.process(root, clock).count == 4, "a foreign header: rebuilt")
  }

  /// A file kept without its record (the index lost it: a full disk, a killed process) is
  /// adopted when the journal is next rewritten, least recently used, and counted; a record
  /// of a file that is gone is dropped then.
  @Test func aRewriteAdoptsWhatTheIndexMissed() throws {
    let root = NSTemporaryDirectory() + "strata-index-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: root) }
    let clock = Clock()
    let directory = try Self.directory(keeping: 1...2, root, clock)
    let files = try #require(HTTPCacheFiles(directory: directory))
    let stray = Self.fileName(9)
    files.write(
      Self.answer(9, clock), key: HTTPCache.key(Self.request(9).url!, owner: .device), name: stray)
    unlink(directory + "/" + Self.fileName(1))
    var index = HTTPCacheIndex(files: files)
    index.refresh()
    index.rewrite(fromScratch: false)
    #expect(index.entries.oldestFirst.map(\.key) == [stray, Self.fileName(2)])
    #expect(Self.process(root, clock).count == 2)
  }
}
