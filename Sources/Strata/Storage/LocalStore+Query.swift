/// Queries over a store's values, read from its files so a change another process made is
/// seen, and brought up to date cheaply for a live query.
extension LocalStore {
  /// The values `query` asks for, in its order — by default every value, newest change first;
  /// read from the files, so a change another process made is seen.
  public func records(_ query: ValueQuery<Value> = ValueQuery()) async throws
    -> [(key: String, record: StoredRecord<Value>)]
  {
    try await window(query, after: nil).page(query)
  }

  /// How many values `query` matches (its offset and limit aside).
  public func count(_ query: ValueQuery<Value> = ValueQuery()) async throws -> Int {
    try await reading { $0.records.count(query) }
  }

  /// `query`'s window now: from `earlier` and the values changed since it was read when this
  /// instance knows which (it applied every change since, and each named its values), else
  /// read from every value.
  func window(_ query: ValueQuery<Value>, after earlier: QueryWindow<Value>?) async throws
    -> QueryWindow<Value>
  {
    try await reading { state in
      if let earlier, let changed = history.keys(since: earlier.version) {
        if changed.isEmpty { return earlier }
        if let values = state.records.reselect(query, after: earlier.values, changed: changed) {
          return QueryWindow(version: history.version, values: values)
        }
      }
      return QueryWindow(version: history.version, values: state.records.select(query))
    }
  }
}

/// A query's first `offset + limit` values (every match without a limit) as of one version
/// of a store instance's ``StoreHistory``: what a live query keeps between changes.
struct QueryWindow<Value: Codable & Sendable>: Sendable {
  let version: Int
  let values: [(key: StoreKey, record: StoredRecord<Value>)]

  /// The values `query` returns: past its offset.
  func page(_ query: ValueQuery<Value>) -> [(key: String, record: StoredRecord<Value>)] {
    values.dropFirst(query.offset).prefix(query.limit ?? Int.max).map { ($0.key.string, $0.record) }
  }
}
