import Strata

/// How a sync went, counted: the `sync_completed` event's properties.
struct SyncCounts {
  var synced = 0
  var waiting = 0
  var refused = 0
  var conflicted = 0

  init<Value>(_ outcomes: [LocalStore<Value>.Outcome]) {
    for outcome in outcomes {
      switch outcome.entry.status {
      case .synced: synced += 1
      case .failed: refused += 1
      case .pending: waiting += 1
      case .conflicted: conflicted += 1
      }
    }
  }

  func properties(kind: String) -> [String: AnalyticsValue] {
    [
      "\(kind)_synced": .count(synced), "\(kind)_waiting": .count(waiting),
      "\(kind)_refused": .count(refused), "\(kind)_conflicted": .count(conflicted),
    ]
  }
}
