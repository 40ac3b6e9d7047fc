import Foundation
import StrataConcurrency
import Testing

@testable import Strata

/// A closure kept behind a lock is called at the same depth however often it was read: kept
/// bare, each access wrapped it in two more thunks, so a hook resolved 100,000 times
/// overflowed an 8 MB stack (and each call cost more than the last).
@Suite("Closures kept behind a lock")
struct KeptClosureTests {
  /// Where a call stands on its thread's stack.
  private static func depth() -> UInt {
    var local = 0
    return withUnsafeMutablePointer(to: &local) { UInt(bitPattern: $0) }
  }

  @Test func aHookIsCalledAtTheSameDepthAfterThousandsOfResolves() throws {
    final class Hooked: Sendable {}
    let container = DependencyContainer()
    let depths = Lock<[UInt]>([])
    container.register(Hooked.self) { _ in Hooked() }
      .initCompleted { _, _ in depths.withLock { $0.append(Self.depth()) } }
    for _ in 0..<5_000 { _ = try container.resolve(Hooked.self) }
    let seen = depths.withLock { $0 }
    #expect(seen.count == 5_000)
    #expect(seen.first == seen.last, "\(Int(seen.first ?? 0) - Int(seen.last ?? 0)) bytes deeper")
  }

  @Test func aProgressHandlerIsCalledAtTheSameDepthAfterThousandsOfReports() {
    let depths = Lock<[UInt]>([])
    let (gate, report) = ProgressGate.around { _ in depths.withLock { $0.append(Self.depth()) } }
    for done in 0..<5_000 {
      report?(TransferProgress(.receiving, completed: Int64(done), total: 5_000))
    }
    gate?.close()
    let seen = depths.withLock { $0 }
    #expect(seen.count == 5_000)
    #expect(seen.first == seen.last, "\(Int(seen.first ?? 0) - Int(seen.last ?? 0)) bytes deeper")
  }

  /// A failing store write names its fault through the same kind of lock.
  @Test func anInjectedFaultIsReadAtTheSameDepth() {
    let depths = Lock<[UInt]>([])
    StoreCrashPoint.faults.withLock { kept in
      let previous = kept?.value
      kept = Boxed { path in
        if path == "/kept-closure-test" { depths.withLock { $0.append(Self.depth()) } }
        return previous?(path)
      }
    }
    for _ in 0..<2_000 { _ = StoreCrashPoint.injectedFailure("/kept-closure-test") }
    let seen = depths.withLock { $0 }
    #expect(seen.count == 2_000 && seen.first == seen.last)
  }

  /// What a debug build refuses to keep bare (and what it lets be).
  @Test func theLockTellsABareClosureFromACollectionOfThem() {
    #expect(Lock<(@Sendable () -> Void)?>.isBareFunction)
    #expect(Lock<@Sendable (Int) -> Int>.isBareFunction)
    #expect(Lock<(Int, @Sendable () -> Void)>.isBareFunction)
    #expect(!Lock<[@Sendable () -> Void]>.isBareFunction)
    #expect(!Lock<[String: @Sendable () -> Void]>.isBareFunction)
    #expect(!Lock<Boxed<@Sendable () -> Void>?>.isBareFunction)
    #expect(!Lock<Int?>.isBareFunction)
  }
}
