import Foundation

/// Sending the outbox: one change at a time, each outcome on disk before the next send.
extension LocalStore {
  /// What one change's send came to.
  public struct Outcome: Sendable {
    /// The change as it now stands.
    public let entry: OutboxEntry
    /// The server's answer, as kept (nil when `send` returned none, or it was too large).
    public let settled: Settled?
  }

  /// What the server answered a change with: the value and the key it is kept under.
  public struct Settled: Codable, Sendable {
    /// The record key it replaces: usually the change's ``OutboxEntry/recordKey``, or the
    /// server's own id for something created offline (the record kept under the change's
    /// key then moves there).
    public let key: String
    /// The value as the server now has it; kept as `synced` under `key`.
    public let value: Value

    public init(key: String, value: Value) {
      (self.key, self.value) = (key, value)
    }
  }

  /// How far a sync is: `done` of `total` changes sent, `entry` the one being sent.
  public struct Progress: Sendable {
    /// Changes whose outcome is recorded in this sync (0 while the first is being sent).
    public let done: Int
    /// The changes pending when the sync began; those queued since wait for the next one.
    public let total: Int
    /// The change about to be sent, as it stood before this attempt.
    public let entry: OutboxEntry
  }

  /// Sends the pending changes, oldest first, one at a time, recording each outcome
  /// before the next send:
  /// - `send` returns → `synced`; its answer is kept under its key (not when over 1 MiB: then
  ///   the change is synced with a note saying so).
  /// - `send` throws ``ChangeRefused``, or a ``NetworkError`` that amounts to one
  ///   (`ChangeRefused(error)`) → `failed` with the reason (a dead letter: kept, not
  ///   sent again until ``retryFailed()``, or dropped by ``discard(_:)``); the next change goes on.
  /// - any other error (offline, timeout, 5xx, a page that is not the API's, a session that
  ///   could not be refreshed) → the change stays `pending` and the sync stops, keeping order —
  ///   unless it has now been sent `maxAttempts` times (over all syncs): then it is `failed`
  ///   too, with the last error, and the queue moves on.
  /// - ``NetworkError/Unauthorized/sessionEnded``: the store's ``owner`` is not signed in
  ///   (nothing was sent; another account signed in, or its owner signed out, meanwhile) → the
  ///   sync stops and the change waits, unchanged and not counted as an attempt, for its owner.
  ///
  /// Each `send` runs as the store's ``owner`` (``DataOwner``): a ``NetworkService`` sends
  /// nothing in it unless that owner is the one signed in, and nothing of the device's with a
  /// token. An answer holding a secret the process knows (a token a server echoed) is not kept:
  /// the change is synced with a note saying so.
  ///
  /// `send` gets the entry (send its ``OutboxEntry/idempotencyKey`` with it). Changes queued
  /// while the sync runs wait for the next one. When an outcome cannot be written (a full
  /// disk) the sync throws at once and sends nothing more; the next sync starts with that
  /// change, under the same key.
  /// - Throws: ``FileError/syncInProgress(path:)`` when a sync of this store is running;
  ///   ``FileError`` when an outcome cannot be recorded; `CancellationError` when cancelled
  ///   (the change in flight stays pending).
  public func sync(
    maxAttempts: Int = 5,
    progress: (@Sendable (Progress) -> Void)? = nil,
    send: @Sendable (OutboxEntry) async throws -> Settled?
  ) async throws -> [Outcome] {
    guard !isSyncing else { throw FileError.syncInProgress(path: base) }
    isSyncing = true
    defer { isSyncing = false }
    try checkDirectory()
    let syncLock = try await syncLock()
    defer { syncLock.release() }
    let pending = try await reading { $0.outbox.filter { $0.status == .pending } }
    var outcomes: [Outcome] = []
    for (done, original) in pending.enumerated() {
      try Task.checkCancellation()
      progress?(Progress(done: done, total: pending.count, entry: original))
      var (entry, refused) = try await followed(original)
      if let refused {
        // Not sent, not an attempt: it could never go where the one it follows did not.
        (entry.status, entry.message) = (.failed, refused)
        outcomes.append(Outcome(entry: entry, settled: try await keepOutcome(&entry, nil)))
        continue
      }
      entry.attempts += 1
      var answer: Settled?
      var cancelled = false
      do {
        answer = try await DataOwner.$acting.withValue(owner) { try await send(entry) }
        entry.status = .synced
        entry.message = nil
      } catch let error as NetworkError where error.kind == .unauthorized(.sessionEnded) {
        break  // not sent: it waits for its owner's session, as it was
      } catch {
        cancelled = error is CancellationError
        Self.settle(&entry, after: error, maxAttempts: maxAttempts)
      }
      let kept = try await keepOutcome(&entry, answer)
      outcomes.append(Outcome(entry: entry, settled: kept))
      if cancelled { throw CancellationError() }
      if entry.status == .pending { break }
    }
    // Not this sync's failure if it cannot: the outcomes are recorded; the next write tries.
    if !outcomes.isEmpty { try? await pruneHistory() }
    return outcomes
  }

  /// The sync lock, or ``FileError/syncInProgress(path:)`` when another sync holds it. A busy
  /// lock is tried once more after a moment: a change being kept takes it for an instant to
  /// see whether a sync runs, and that must not look like one.
  private func syncLock() async throws -> FileLock {
    do {
      return try await lock(base + ".sync-lock", exclusive: true, wait: false)
    } catch FileError.syncInProgress {
      try await Task.sleep(for: .milliseconds(20))
      return try await lock(base + ".sync-lock", exclusive: true, wait: false)
    }
  }

  /// A change that follows another (``OutboxEntry/after``) as it stands now — moved to the
  /// server's key when that one was synced — and why it cannot be sent: the one it follows
  /// failed (its reason, passed down the chain). A change that follows none, or one synced or
  /// forgotten since (only a synced change is), goes as it is.
  private func followed(_ entry: OutboxEntry) async throws -> (OutboxEntry, refused: String?) {
    guard let after = entry.after else { return (entry, nil) }
    let (current, before) = try await reading { ($0.entry(entry.id), $0.entry(after)) }
    guard let before, before.status == .failed else { return (current ?? entry, nil) }
    let reason = before.message ?? "refused"
    return (
      current ?? entry,
      reason.hasPrefix(Self.followsRefused) ? reason : Self.followsRefused + reason
    )
  }

  private static var followsRefused: String { "not sent: the change it follows failed: " }

  /// Records a send's outcome, and what of the answer is kept: nothing when it holds a secret
  /// (a token the server echoed) or is over the record limit — neither a reason to send the
  /// change again, so it is synced without it, and `entry.message` says why.
  private func keepOutcome(_ entry: inout OutboxEntry, _ answer: Settled?) async throws
    -> Settled?
  {
    var kept = answer
    if let value = answer?.value, let json = try? encoder.encode(value),
      KnownSecrets.occur(in: json)
    {
      entry.message = "the server's answer holds a secret (a token it echoed): not kept"
      kept = nil
    }
    do {
      try await writeOutcome(entry, kept)
    } catch FileError.tooLarge where kept != nil {
      entry.message =
        "the server's answer is over the \(options.maxRecordSize)-byte limit: not kept"
      kept = nil
      try await writeOutcome(entry, nil)
    }
    return kept
  }

  /// Writes a send's outcome: the entry, and the value under its record key — the answer, or
  /// the value shown for it with the entry's status.
  private func writeOutcome(_ entry: OutboxEntry, _ answer: Settled?) async throws {
    let stamp = now()
    try await writing { state in (Self.settle(entry, answer, in: state, at: stamp), ()) }
  }

  private static func settle(
    _ entry: OutboxEntry, _ answer: Settled?, in state: StoreState<Value>, at stamp: Date
  ) -> StoreChange<Value> {
    var entry = entry
    if let answer {
      let former = entry.recordKey
      entry.recordKey = answer.key
      // A key the value had before the server's stays beside it, through every later answer.
      let local = former == answer.key ? former.flatMap { state.records[$0]?.localKey } : former
      // Changes that follow this one and are still to go: the device goes on showing what
      // they made of it, under the server's key, until they are sent.
      let following = state.followers(of: entry.id).contains { $0.recordKey == former }
      if following, let former, var shown = state.records[former] {
        (shown.localKey, shown.updatedAt) = (local, stamp)
        return .settle(entry: entry, record: shown, formerKey: former)
      }
      return .settle(
        entry: entry,
        record: StoredRecord(
          value: answer.value, status: .synced, updatedAt: stamp, localKey: local),
        formerKey: former)
    }
    guard entry.status != .pending, let key = entry.recordKey, var record = state.records[key]
    else { return .settle(entry: entry, record: nil, formerKey: nil) }
    record.status = entry.status
    record.message = entry.message
    record.updatedAt = stamp
    return .settle(entry: entry, record: record, formerKey: nil)
  }

  /// What a failed send makes of its change: `failed` when the failure is a refusal
  /// (``ChangeRefused``) or the change has now been sent `maxAttempts` times; else still
  /// pending, with the reason. A change is thus sent at most `maxAttempts` times, each send
  /// one call of the service's with its own retries: at most `maxAttempts × (1 + maxRetries)`
  /// requests, all under the change's one `Idempotency-Key`.
  private static func settle(_ entry: inout OutboxEntry, after error: any Error, maxAttempts: Int) {
    let refusal = error as? ChangeRefused ?? (error as? NetworkError).flatMap(ChangeRefused.init)
    if let refusal {
      (entry.status, entry.message) = (.failed, refusal.reason)
      return
    }
    let reason = UntrustedText.sanitize(String(describing: error), limit: 200)
    guard !(error is CancellationError), entry.attempts >= max(1, maxAttempts) else {
      entry.message = reason
      return
    }
    entry.status = .failed
    entry.message = "given up after \(entry.attempts) attempts: \(reason)"
  }
}
