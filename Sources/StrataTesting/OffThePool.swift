import Foundation

/// Runs CPU-heavy test work (thousands of generated inputs) on a thread of its own, so it never
/// holds one of the few threads of Swift's cooperative pool that every other test's tasks,
/// timers and deadlines need. The work must not record issues itself (they are attributed to
/// the test through a task-local): return what it found and assert on that.
public func offThePool<Result: Sendable>(
  _ work: @escaping @Sendable () throws -> Result
) async throws -> Result {
  try await withCheckedThrowingContinuation { continuation in
    let thread = Thread { continuation.resume(with: Swift.Result { try work() }) }
    thread.stackSize = 8 << 20
    thread.start()
  }
}
