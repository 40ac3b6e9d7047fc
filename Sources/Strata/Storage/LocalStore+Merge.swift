import Foundation

/// The server's values taken in: merged under the device's changes, what the server deleted
/// taken out, and where the next listing of changes starts.
extension LocalStore {
  /// Merges the server's `values` (by its keys): a synced value takes the server's, one with
  /// a change on top keeps the change over the server's value. What the server deleted goes —
  /// the values under `removed`, and after a `complete` listing (every value the server has)
  /// each one it had and no longer lists: a synced value is dropped, a deletion waiting to go
  /// is done, any other change to it becomes ``SyncStatus/conflicted`` (the server deleted
  /// what the device changed). A complete listing sets ``refreshedAt()``; a `cursor` is
  /// kept, in the same write, as ``changeCursor()``.
  /// - Returns: How many values went, and how many changes became conflicts.
  /// - Throws: ``FileError/tooLarge(path:size:limit:)`` for a cursor over 2,048 UTF-8 bytes
  ///   (nothing is merged).
  @discardableResult
  public func merge(
    _ values: [(key: String, value: Value)], complete: Bool, removing removed: [String] = [],
    cursor: String? = nil
  ) async throws -> (removed: Int, conflicted: Int) {
    let listing = Dictionary(
      values.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
    let stamp = now()
    if let cursor, cursor.utf8.count > StoreSnapshot<Value>.maxCursor {
      throw FileError.tooLarge(
        path: snapshotPath, size: cursor.utf8.count, limit: StoreSnapshot<Value>.maxCursor)
    }
    return try await writing { state in
      let count = state.mergeCount(listing, complete: complete, removing: removed)
      let change = StoreChange.merge(
        values: listing, complete: complete, at: stamp, removed: removed.isEmpty ? nil : removed,
        cursor: cursor)
      return (change, (count.removed, count.conflicted))
    }
  }

  /// When the server last listed every value (a complete ``merge(_:complete:removing:cursor:)``);
  /// nil when it never has.
  public func refreshedAt() async throws -> Date? { try await reading { $0.refreshedAt } }

  /// Where the server's next listing of changes starts: the last `cursor` merged; nil when
  /// none was.
  public func changeCursor() async throws -> String? { try await reading { $0.cursor } }
}
