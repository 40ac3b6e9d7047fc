import Foundation
import StrataConcurrency
import Testing

@testable import Strata

/// The hand-over between the transport's delivery thread and a stream's reader, and the wait
/// a stream that fell behind makes before it reconnects.
struct StreamChannelTests {
  /// A task waiting in `drained()`, once it waits (or has returned: a wait that never
  /// starts must fail the test, not spin it), and whether it has returned.
  private static func waitForDrain(_ channel: StreamChannel<Int>) async
    -> (waiter: Task<Void, Never>, returned: Lock<Bool>)
  {
    let returned = Lock(false)
    let waiter = Task {
      await channel.drained()
      returned.withLock { $0 = true }
    }
    while !channel.isWaitingToDrain && !returned.withLock({ $0 }) { await Task.yield() }
    return (waiter, returned)
  }

  @Test(.timeLimit(.minutes(1)))
  func drainedReturnsAtOnceWhenNothingIsHeldOrTheStreamHasEnded() async {
    let empty = StreamChannel<Int>(capacity: 10)
    await empty.drained()
    #expect(!empty.isWaitingToDrain)

    let ended = StreamChannel<Int>(capacity: 10)
    #expect(ended.push([1], bytes: 4) == .taken)
    ended.finish()
    await ended.drained()
    #expect(!ended.isWaitingToDrain, "an ended stream is not waited for, even with batches held")
  }

  @Test(.timeLimit(.minutes(1)))
  func drainedWaitsUntilTheReaderHasTakenWhatIsHeld() async throws {
    let channel = StreamChannel<Int>(capacity: 10)
    #expect(channel.push([1, 2], bytes: 10) == .taken)
    #expect(channel.push([3], bytes: 1) == .behind, "the reader is a whole capacity behind")
    let (waiter, returned) = await Self.waitForDrain(channel)
    #expect(!returned.withLock { $0 }, "nothing has been read yet")
    #expect(try await channel.next() == [1, 2])
    await waiter.value
    #expect(returned.withLock { $0 })
    #expect(channel.push([3], bytes: 10) == .taken, "room for a whole capacity again")
  }

  @Test(.timeLimit(.minutes(1)))
  func aReaderThatGoesAwayReleasesTheWait() async {
    let channel = StreamChannel<Int>(capacity: 10)
    #expect(channel.push([1], bytes: 10) == .taken)
    let (waiter, returned) = await Self.waitForDrain(channel)
    #expect(!returned.withLock { $0 }, "nothing has been read yet")
    channel.cancel()
    await waiter.value
    #expect(channel.push([2], bytes: 1) == .gone)
  }
}
