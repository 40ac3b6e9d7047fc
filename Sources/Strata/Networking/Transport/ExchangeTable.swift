import Foundation
import StrataConcurrency

/// The exchanges in flight, by task identifier, for the session delegate to feed.
final class ExchangeTable: Sendable {
  private let exchanges = Lock<[Int: Exchange]>([:])

  func insert(_ exchange: Exchange, for task: Int) { exchanges.withLock { $0[task] = exchange } }
  func remove(_ task: Int) { exchanges.withLock { _ = $0.removeValue(forKey: task) } }
  subscript(task: Int) -> Exchange? { exchanges.withLock { $0[task] } }
}
