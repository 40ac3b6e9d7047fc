import Dispatch
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
}
