import Foundation

/// Sending the outbox: one change at a time, each outcome on disk before the next send.
extension LocalStore {
  /// What one change's send came to.
  public struct Outcome: Sendable {
    /// The change as it now stands.
    public let entry: OutboxEntry
    /// The server's answer, as kept (nil when `send` returned none, or it was too large).
    public let settled: Settled?

    public init(entry: OutboxEntry, settled: Settled?) {
      (self.entry, self.settled) = (entry, settled)
    }
  }

  /// What the server answered a change with: the value, and the key the server knows it by.
  public struct Settled: Codable, Sendable {
    /// The key the server's id gives the value (`post-151`). The value stays under the
    /// change's ``OutboxEntry/recordKey`` — its key for life on the device — and this becomes
    /// its ``StoredRecord/serverKey`` when the two differ (something made here). Never assumed
    /// unique: two things made here may be given one id.
    public let key: String
    /// The value as the server now has it; kept as `synced` under the change's record key.
    public let value: Value
    /// The server's validator of `value` (its answer's `ETag`), when it gave one: the next
    /// change to the value goes with `If-Match` on it (``StoredRecord/version``).
    public let version: String?

    public init(key: String, value: Value, version: String? = nil) {
      (self.key, self.value, self.version) = (key, value, version)
    }
  }

  /// Sends the pending changes, oldest first, one at a time, recording each outcome
  /// before the next send:
  /// - `send` returns → `synced`; its answer is kept under its key (not when over 1 MiB: then
  ///   the change is synced with a note saying so).
  /// - `send` throws ``ChangeRefused``, or a ``NetworkError`` that amounts to one
  ///   (`ChangeRefused(error)`) → `failed` with the reason (a dead letter: kept, not
  ///   sent again until ``retryFailed(only:)``, or dropped by ``discard(_:)``); the next change goes on.
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
  ///
  /// `progress` is told, before each change is sent, how many of the changes pending when the
  /// sync began have their outcome recorded (``TransferProgress/completed``; 0 while the first
  /// is sent) of how many (``TransferProgress/total``; those queued since wait for the next
  /// sync), and the change about to go, as it stood before this attempt.
  ///
  /// `only` limits the sync to the changes with those identities (a command about one item
  /// sends its own change, never another's): a change among them that follows one not yet
  /// synced waits for it, unsent.
  /// - Throws: ``FileError/syncInProgress(path:)`` when a sync of this store is running;
  ///   ``FileError`` when an outcome cannot be recorded; `CancellationError` when cancelled
  ///   (the change in flight stays pending).
  public func sync(
    only: Set<UUID>? = nil, maxAttempts: Int = 5,
    progress: (@Sendable (TransferProgress, OutboxEntry) -> Void)? = nil,
    send: @Sendable (OutboxEntry) async throws -> Settled?
  ) async throws -> [Outcome] {
    guard !isSyncing else { throw FileError.syncInProgress(path: base) }
    isSyncing = true
    defer { isSyncing = false }
    try checkDirectory()
    let syncLock = try await syncLock()
    defer { syncLock.release() }
    let pending = try await reading {
      $0.outbox.filter { $0.status == .pending && only?.contains($0.id) ?? true }
    }
    var outcomes: [Outcome] = []
    // The change whose attempt the last outcome's record already holds (one `fdatasync` for
    // both: the cost of a sync stays one write per change).
    var recorded: UUID?
    for (done, original) in pending.enumerated() {
      if Task.isCancelled {
        if recorded == original.id { try? await takeBack(original.id) }
        throw CancellationError()
      }
      progress?(
        TransferProgress(.sending, completed: Int64(done), total: Int64(pending.count)), original)
      guard let (followed, refused) = try await followed(original) else { continue }
      var entry = followed
      if let refused {
        // Not sent, not an attempt: it could never go where the one it follows did not.
        (entry.status, entry.message) = (.failed, refused)
        outcomes.append(Outcome(entry: entry, settled: try await keepOutcome(&entry, nil).0))
        continue
      }
      guard
        let (answer, cancelled) = try await attempt(
          &entry, maxAttempts, send, counted: recorded == entry.id)
      else { break }  // not sent: it waits for its owner's session, as it was
      // The next change's attempt goes in the same record, when the sync goes on to it.
      let next = cancelled || entry.status == .pending ? nil : pending.dropFirst(done + 1).first
      let (kept, nextRecorded) = try await keepOutcome(&entry, answer, next: next?.id)
      recorded = nextRecorded ? next?.id : nil
      outcomes.append(Outcome(entry: entry, settled: kept))
      if cancelled { throw CancellationError() }
      if entry.status == .pending { break }
    }
    // Not this sync's failure if it cannot: the outcomes are recorded; the next write tries.
    if !outcomes.isEmpty { try? await pruneHistory() }
    return outcomes
  }

  /// Sends `entry`, its attempt on disk first, and says what the send made of it (`entry`'s
  /// status and message, not yet written) and the server's answer; whether it was cancelled.
  /// Nil when nothing was sent because its owner's session has ended: the attempt is taken
  /// back, and it waits as it was.
  /// `counted`: the attempt is on disk already (with the last outcome).
  private func attempt(
    _ entry: inout OutboxEntry, _ maxAttempts: Int,
    _ send: @Sendable (OutboxEntry) async throws -> Settled?, counted: Bool
  ) async throws -> (answer: Settled?, cancelled: Bool)? {
    // On disk before it goes: a change that may have reached the server is never rewritten
    // (a later edit follows it as a change of its own), even after a kill.
    if !counted {
      entry.attempts += 1
      try await writeAttempt(entry)
    }
    do {
      let sending = entry
      let answer = try await owner.run { try await send(sending) }
      (entry.status, entry.message) = (.synced, nil)
      return (answer, false)
    } catch let error as NetworkError where error.kind == .unauthorized(.sessionEnded) {
      try await takeBack(entry.id)
      return nil
    } catch let conflict as ChangeConflict {
      Self.conflicted(&entry, conflict)
    } catch let error as NetworkError where error.status == 412 {
      // A precondition the sender set (`If-Match`) and the server's value no longer meets;
      // a sender that reads the server's value throws a ChangeConflict holding it instead.
      Self.conflicted(&entry, ChangeConflict(encoded: nil, version: nil, fields: []))
    } catch let error as NetworkError where error.isAbsenceAfterDelete {
      // Gone already: an earlier send whose answer was lost (a killed process), or another
      // device, deleted it. What the deletion asked for holds; a 404 is not a failure.
      (entry.status, entry.message) = (.synced, Self.deletedEarlier)
    } catch {
      Self.settle(&entry, after: error, maxAttempts: maxAttempts)
      return (nil, error is CancellationError)
    }
    return (nil, false)
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

  /// A change as it stands now, addressed to the key the server knows its value by
  /// (``OutboxEntry/serverKey``), and why it cannot be sent: the one it follows
  /// (``OutboxEntry/after``) failed (its reason, passed down the chain). Nil when the one it
  /// follows is still to go (a sync of some changes only): it waits. A change that follows
  /// none, or one synced or forgotten since (only a synced change is), goes.
  private func followed(_ entry: OutboxEntry) async throws -> (OutboxEntry, refused: String?)? {
    let (current, before, record) = try await reading { state in
      (
        state.entry(entry.id), entry.after.flatMap { state.entry($0) },
        entry.recordKey.flatMap { state.records[$0] }
      )
    }
    var sent = current ?? entry
    if let key = sent.recordKey {
      sent.serverKey = record?.serverKey ?? (sent.serverKey ?? key)
    }
    guard let before, before.status != .synced else { return (sent, nil) }
    guard before.status == .failed else { return nil }
    let reason = before.message ?? "refused"
    return (sent, reason.hasPrefix(Self.followsRefused) ? reason : Self.followsRefused + reason)
  }

  /// A change the server's value moved away from: kept with the server's side, not sent again
  /// until resolved.
  /// The server's value is kept only when it holds no secret the process knows (a token a
  /// server echoed): without it, resolving `theirs` drops the value for the next page to bring
  /// back, as for a refused precondition.
  private static func conflicted(_ entry: inout OutboxEntry, _ conflict: ChangeConflict) {
    var conflict = conflict
    if let theirs = conflict.theirs, KnownSecrets.occur(in: theirs) {
      conflict = ChangeConflict(encoded: nil, version: conflict.version, fields: conflict.fields)
    }
    (entry.status, entry.conflict) = (.conflicted, conflict)
    entry.message = conflict.description + ": resolve it, keeping mine or theirs"
  }

  static var deletedEarlier: String {
    "already gone on the server (deleted by an earlier send or elsewhere)"
  }

  private static var followsRefused: String { "not sent: the change it follows failed: " }

  /// Records a send's outcome, and what of the answer is kept: nothing when it holds a secret
  /// (a token the server echoed) or is over the record limit — neither a reason to send the
  /// change again, so it is synced without it, and `entry.message` says why.
  /// With `next`, the attempt of the change about to go next is in the same record when it
  /// can go (pending, following no other); the second value says whether it is.
  private func keepOutcome(_ entry: inout OutboxEntry, _ answer: Settled?, next: UUID? = nil)
    async throws -> (Settled?, nextRecorded: Bool)
  {
    var kept = answer
    if let value = answer?.value, let json = try? encoder.encode(value),
      KnownSecrets.occur(in: json)
    {
      entry.message = "the server's answer holds a secret (a token it echoed): not kept"
      kept = nil
    }
    do {
      return (kept, try await writeOutcome(entry, kept, next: next))
    } catch FileError.tooLarge where kept != nil {
      entry.message =
        "the server's answer is over the \(options.maxRecordSize)-byte limit: not kept"
      return (nil, try await writeOutcome(entry, nil, next: next))
    }
  }

  /// Takes back an attempt recorded for a change that was then not sent (the sync was
  /// cancelled before it went, or its owner's session had ended).
  private func takeBack(_ id: UUID) async throws {
    try await writing { state in
      guard var entry = state.entry(id), entry.status == .pending, entry.attempts > 0 else {
        return (nil, ())
      }
      entry.attempts -= 1
      return (.rewrite(entry: entry, record: nil, formerKey: nil), ())
    }
  }

  /// Records that `entry` is about to be sent (its ``OutboxEntry/attempts`` counted), before
  /// it goes: from then on it is never rewritten, and a kill before its outcome is recorded
  /// leaves it to be sent again under its key.
  private func writeAttempt(_ entry: OutboxEntry) async throws {
    try await writing { _ in (.rewrite(entry: entry, record: nil, formerKey: nil), ()) }
  }

  /// Writes a send's outcome: the entry, and the value under its record key — the answer, or
  /// the value shown for it with the entry's status.
  private func writeOutcome(_ entry: OutboxEntry, _ answer: Settled?, next: UUID?) async throws
    -> Bool
  {
    let stamp = now()
    let server = answer.flatMap { try? encoder.encode($0.value) }
    return try await writing { state in
      let outcome = Self.settle(entry, answer, server: server, in: state, at: stamp)
      guard case .rewrite(let settled, let record, _) = outcome,
        var following = next.flatMap({ state.entry($0) }), following.status == .pending,
        following.after == nil
      else { return (outcome, false) }
      following.attempts += 1
      return (.outcome(entry: settled, record: record, next: following), true)
    }
  }

  /// `server`: the answer's value as JSON, which the value shown for changes still to go sits on.
  private static func settle(
    _ entry: OutboxEntry, _ answer: Settled?, server: Data?, in state: StoreState<Value>,
    at stamp: Date
  ) -> StoreChange<Value> {
    var entry = entry
    if let answer {
      let key = entry.recordKey ?? answer.key
      entry.recordKey = key
      // The value keeps its own key; the server's is an attribute beside it (not when it is
      // the key itself: a value read from the server).
      entry.serverKey = answer.key
      let serverKey = answer.key == key ? nil : answer.key
      // Changes that follow this one and are still to go: the device goes on showing what
      // they made of it until they are sent.
      if !state.followers(of: entry.id).isEmpty, var shown = state.records[key] {
        (shown.serverKey, shown.updatedAt, shown.version) = (serverKey, stamp, answer.version)
        shown.serverValue = server
        return .rewrite(entry: entry, record: shown, formerKey: nil)
      }
      return .rewrite(
        entry: entry,
        record: StoredRecord(
          value: answer.value, status: .synced, updatedAt: stamp, serverKey: serverKey,
          version: answer.version),
        formerKey: nil)
    }
    guard entry.status != .pending, let key = entry.recordKey, var record = state.records[key]
    else { return .rewrite(entry: entry, record: nil, formerKey: nil) }
    record.status = entry.status
    record.message = entry.message
    record.updatedAt = stamp
    return .rewrite(entry: entry, record: record, formerKey: nil)
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
