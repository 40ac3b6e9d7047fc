import Foundation

/// Sending the outbox, and settling what the server refused or disputed.
extension SyncedCollection {
  /// Sends every pending change in the order it was made (``LocalStore/sync(only:maxAttempts:progress:send:)``
  /// keeps the order, the account line and the record of each attempt).
  ///
  /// Never silently over a newer version: an edit or deletion made from the server's value as
  /// last seen goes `If-Match` on that value's version when it had one; else the server's value
  /// now is read first — a field changed on the server only merges (the change sets its own
  /// fields on top), a field changed on both sides, or any change under a deletion, is a
  /// conflict (``ChangeConflict``). A 412 reads the server's value and decides the same way (a
  /// merge goes once more, on the version read; a second 412 is a conflict). A conflict is
  /// kept, `conflicted`, with base, mine and theirs, unless the collection's ``ConflictPolicy``
  /// settles it at once (`mine` goes again in the same sync, once). A deletion meeting an item
  /// already gone (404 or 410, to the deletion or to the read before it) is done. A change
  /// made from no value of the server's (one that follows a change of the device's) goes as it
  /// is: the last write wins.
  ///
  /// A change fails for good (a dead letter) when the server refuses it, or after
  /// `maxAttempts` sends; any other failure keeps it pending and stops the sync.
  /// - Throws: `FileError.syncInProgress` when another sync of this store is running.
  public func sync(progress: (@Sendable (TransferProgress, OutboxEntry) -> Void)? = nil)
    async throws -> [Outcome]
  {
    try await sync(await store(), only: nil, progress: progress)
  }

  func sync(
    _ store: LocalStore<Item>, only: Set<UUID>?,
    progress: (@Sendable (TransferProgress, OutboxEntry) -> Void)?
  ) async throws -> [Outcome] {
    // Its own task: cancelling the sync must not abandon a send half done.
    let sending: @Sendable (OutboxEntry) async throws -> LocalStore<Item>.Settled? = {
      [api, kinds] entry in
      try await Task { try await Self.send(entry, to: api, kinds: kinds) }.value
    }
    let outcomes = try await store.sync(
      only: only, maxAttempts: maxAttempts, progress: progress, send: sending)
    guard case .always(let choice) = conflicts else { return outcomes }
    return try await settle(outcomes, choice, in: store, sending: sending)
  }

  /// The policy's answer to the conflicts of one sync: `theirs` keeps the server's value;
  /// `mine` goes again at once, on top of the server's value, once (a second conflict waits for
  /// the user).
  private func settle(
    _ outcomes: [Outcome], _ choice: ConflictResolution, in store: LocalStore<Item>,
    sending: @escaping @Sendable (OutboxEntry) async throws -> LocalStore<Item>.Settled?
  ) async throws -> [Outcome] {
    let conflicted = outcomes.filter { $0.entry.status == .conflicted }.map(\.entry.id)
    guard !conflicted.isEmpty else { return outcomes }
    for id in conflicted { try await store.resolve(id, keeping: choice) }
    if choice == .mine {
      let again = try await store.sync(
        only: Set(conflicted), maxAttempts: maxAttempts, send: sending)
      return outcomes.filter { !conflicted.contains($0.entry.id) } + again
    }
    let settled = try await store.outbox().filter { conflicted.contains($0.id) }
    return outcomes.map { outcome in
      settled.first { $0.id == outcome.entry.id }.map { .init(entry: $0, settled: nil) }
        ?? outcome
    }
  }

  /// Settles the conflicted change to the item `reference` names: `mine` goes again, on the
  /// server's current version, with the next sync; `theirs` keeps the server's value.
  /// - Returns: Whether it had a conflicted change.
  /// - Throws: ``AmbiguousKey`` for a server id several items made here were given.
  @discardableResult
  public func resolve(_ reference: ItemReference<Item.ID>, keeping choice: ConflictResolution)
    async throws -> Bool
  {
    let conflicted = try await changes(to: reference).filter { $0.status == .conflicted }
    let items = Set(conflicted.compactMap(\.recordKey))
    guard items.count < 2 else {
      throw AmbiguousKey(key: Self.key(reference), matching: items.sorted())
    }
    guard let change = conflicted.last else { return false }
    return try await resolve(change.id, keeping: choice)
  }

  /// Settles the conflicted change `change` (see ``LocalStore/resolve(_:keeping:)``).
  /// - Returns: Whether there was such a change.
  @discardableResult
  public func resolve(_ change: UUID, keeping choice: ConflictResolution) async throws -> Bool {
    try await store().resolve(change, keeping: choice)
  }

  /// Drops a refused change for good, with those that follow it: the item goes
  /// back to the server's value (one the server never had is dropped).
  /// - Returns: Whether there was such a change.
  @discardableResult
  public func discard(_ change: UUID) async throws -> Bool { try await store().discard(change) }

  /// Puts the refused changes — or those with the identities in `only` — back in the queue for
  /// the next sync.
  /// - Returns: How many.
  @discardableResult
  public func retryFailed(only: Set<UUID>? = nil) async throws -> Int {
    try await store().retryFailed(only: only)
  }
}
