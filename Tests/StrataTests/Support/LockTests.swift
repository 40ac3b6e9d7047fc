import Dispatch
import Foundation
import StrataConcurrency
import Testing

@Suite("The package's lock and atomics")
struct LockTests {
  @Test func theLockIsExclusiveAcrossThreads() {
    let lock = Lock(0)
    let unit = Lock()
    var unguarded = 0
    let unguardedLock = Lock(())
    DispatchQueue.concurrentPerform(iterations: 8) { _ in
      for _ in 0..<10_000 {
        lock.withLock { $0 += 1 }
        unit.withLock { _ in }
      }
    }
    unguardedLock.withLock { _ in unguarded += 1 }
    #expect(lock.withLock { $0 } == 80_000)
    #expect(unguarded == 1)
  }

  @Test func atomicsAddAndExchangeWithoutLosingUpdates() {
    let counter = AtomicInt(0)
    let winners = AtomicInt(0)
    DispatchQueue.concurrentPerform(iterations: 8) { thread in
      for _ in 0..<10_000 { counter.add(1) }
      if counter.compareExchange(expected: -1, desired: thread) { winners.add(1) }
    }
    #expect(counter.load() == 80_000)
    #expect(winners.load() == 0, "no value was ever -1")
    #expect(counter.compareExchange(expected: 80_000, desired: 5) && counter.loadAcquiring() == 5)
  }

  @Test func setIfEmptyKeepsTheFirstObject() {
    final class Box: Sendable {
      let id: Int
      init(_ id: Int) { self.id = id }
    }
    let reference = PublishedReference<Box>()
    #expect(reference.value == nil)
    let winners = Lock<Set<Int>>([])
    DispatchQueue.concurrentPerform(iterations: 8) { index in
      let kept = reference.setIfEmpty(Box(index))
      winners.withLock { _ = $0.insert(kept.id) }
    }
    #expect(winners.withLock { $0.count } == 1, "every thread saw the same object")
    #expect(reference.value?.id == winners.withLock { $0.first })
  }

  /// Each thread keeps its own copy: an update must reach a thread that read before it, on
  /// that thread's next read, and a thread that exits must drop the copy it held.
  @Test func aPerThreadSnapshotShowsEveryUpdateOnTheNextRead() throws {
    final class Tracked: Sendable {
      static let alive = AtomicInt(0)
      let value: Int
      init(_ value: Int) {
        self.value = value
        Self.alive.add(1)
      }
      deinit { Self.alive.add(-1) }
    }
    let snapshot = PerThreadSnapshot(Tracked(0))
    let (readOnce, updated, finished) = (
      DispatchSemaphore(value: 0), DispatchSemaphore(value: 0), DispatchSemaphore(value: 0)
    )
    let reads = Lock<[Int]>([])
    let reader = Thread {
      reads.withLock { $0.append(snapshot.read { $0.value }) }
      readOnce.signal()
      _ = updated.wait(timeout: .now() + 300)
      reads.withLock { $0.append(snapshot.read { $0.value }) }
      finished.signal()
    }
    reader.start()
    try #require(readOnce.wait(timeout: .now() + 300) == .success, "the reader's first read")
    snapshot.update {
      $0 = Tracked(1)
      return true
    }
    snapshot.update { _ in false }  // nothing published: readers keep what they hold
    updated.signal()
    try #require(finished.wait(timeout: .now() + 300) == .success, "the reader's second read")
    #expect(reads.withLock { $0 } == [0, 1])
    // The reader's copy of 1 goes with its thread once the snapshot holds another value.
    snapshot.update {
      $0 = Tracked(2)
      return true
    }
    #expect(snapshot.read { $0.value } == 2)
    let deadline = ContinuousClock.now + .seconds(300)
    while Tracked.alive.load() > 1, ContinuousClock.now < deadline {
      Thread.sleep(forTimeInterval: 0.01)
    }
    #expect(Tracked.alive.load() == 1, "only the current value is alive")
  }
}
