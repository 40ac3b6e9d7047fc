import Foundation

/// Values kept on this device beside the API — each with its ``SyncStatus`` — and the outbox
/// of changes made here that the server has not accepted yet, in one ``DocumentFile`` (so the
/// two never disagree after a crash).
///
/// Offline, or when the server cannot be reached, a change is written here at once
/// (``enqueue(kind:payload:)``, and the value with ``put(_:key:status:message:)``) and sent
/// later by ``sync(send:)``, in the order it was made, with the idempotency key it was given
/// when it was made. A change the server accepted is never sent again.
public actor LocalStore<Value: Codable & Sendable> {
  /// What the file holds.
  public struct Contents: Codable, Sendable {
    /// Values by key.
    public var records: [String: StoredRecord<Value>] = [:]
    /// Changes, oldest first.
    public var outbox: [OutboxEntry] = []
  }

  /// What one change's send came to.
  public struct Outcome: Sendable, Equatable {
    /// The change.
    public let entry: OutboxEntry
    /// `synced`, `failed` (refused: not sent again) or `pending` (could not be sent now).
    public var status: SyncStatus { entry.status }
  }

  /// What the server answered a change with: the value and the key it is kept under.
  public struct Settled: Codable, Sendable {
    /// The key.
    public let key: String
    /// The server's value.
    public let value: Value

    /// An answer (what `send` returns).
    public init(key: String, value: Value) {
      self.key = key
      self.value = value
    }
  }

  /// A record under its key: what an outcome writes.
  struct KeyedRecord: Codable {
    let key: String
    let record: StoredRecord<Value>
  }

  /// One sync outcome in the outcome log.
  struct LoggedOutcome: Codable {
    let entry: OutboxEntry
    let settled: KeyedRecord?
  }

  private let file: DocumentFile<Contents>
  private let log: OutcomeLog<LoggedOutcome>
  private let now: @Sendable () -> Date
  private var loaded: Contents?
  private var isSyncing = false

  /// A store in `file`; `now` stamps what is written.
  public init(file: DocumentFile<Contents>, now: @escaping @Sendable () -> Date = { Date() }) {
    self.file = file
    self.log = OutcomeLog(path: file.path + ".outcomes")
    self.now = now
  }

  // MARK: Values

  /// Every value, newest change first.
  /// - Throws: ``DocumentFile/Failure`` when the file cannot be read.
  public func records() throws -> [(key: String, record: StoredRecord<Value>)] {
    try contents().records.map { ($0.key, $0.value) }
      .sorted {
        $0.record.updatedAt > $1.record.updatedAt
          || ($0.record.updatedAt == $1.record.updatedAt && $0.key < $1.key)
      }
  }

  /// The value under `key`.
  public func record(_ key: String) throws -> StoredRecord<Value>? { try contents().records[key] }

  /// Writes `value` under `key`.
  /// - Throws: ``DocumentFile/Failure``.
  public func put(_ value: Value, key: String, status: SyncStatus, message: String? = nil) throws {
    try change {
      $0.records[key] = StoredRecord(
        value: value, status: status, updatedAt: now(), message: message)
    }
  }

  /// Replaces every `synced` value with `values` (a fresh page from the server), keeping the
  /// `pending` and `failed` ones.
  public func replaceSynced(with values: [(key: String, value: Value)]) throws {
    let stamp = now()
    try change { contents in
      contents.records = contents.records.filter { $0.value.status != .synced }
      for (key, value) in values where contents.records[key] == nil {
        contents.records[key] = StoredRecord(value: value, status: .synced, updatedAt: stamp)
      }
    }
  }

  // MARK: Outbox

  /// Records a change to send later; its idempotency key is fixed now.
  /// - Returns: The pending entry.
  @discardableResult
  public func enqueue(kind: String, payload: Data) throws -> OutboxEntry {
    let entry = OutboxEntry(kind: kind, payload: payload, createdAt: now())
    try change { $0.outbox.append(entry) }
    return entry
  }

  /// Every change, oldest first.
  public func outbox() throws -> [OutboxEntry] { try contents().outbox }

  /// Sends the pending changes, oldest first, one at a time, recording each outcome before the
  /// next send (a line appended to an outcome log, folded into the file when the sync ends; a
  /// killed process loses none of them): accepted → `synced` (`send`'s answer kept); refused (an error that trying
  /// again cannot fix) → `failed` with the reason, and the next change goes on; not reachable
  /// (offline, a timeout, a 5xx) → it stays `pending` and the sync stops, keeping the order.
  ///
  /// `send` gets the entry (send its ``OutboxEntry/idempotencyKey`` with it) and returns the
  /// value the server answered with, kept as `synced` under its key and as the entry's
  /// `result` (nil: nothing to keep).
  /// A sync already running on this store makes this call return nothing at once.
  /// - Returns: The outcome of every change that was tried.
  public func sync(
    send: @Sendable (OutboxEntry) async throws -> Settled?
  ) async throws -> [Outcome] {
    guard !isSyncing else { return [] }
    isSyncing = true
    defer { isSyncing = false }
    var outcomes: [Outcome] = []
    defer {
      // Fold the outcomes into the file once; if that fails, the log still has them.
      if !outcomes.isEmpty, let loaded, (try? file.save(loaded)) != nil { log.remove() }
    }
    let pending = try contents().outbox.filter { $0.status == .pending }
    for var entry in pending {
      entry.attempts += 1
      var settled: KeyedRecord?
      var transient = false
      do {
        let answer = try await send(entry)
        entry.status = .synced
        entry.message = nil
        entry.result = try answer.map { try JSONEncoder().encode($0) }
        if let answer {
          settled = KeyedRecord(
            key: answer.key,
            record: StoredRecord(value: answer.value, status: .synced, updatedAt: now()))
        }
      } catch {
        transient = Self.isTransient(error)
        entry.status = transient ? .pending : .failed
        entry.message = Self.reason(error)
        if !transient, var record = try contents().records[entry.idempotencyKey] {
          record.status = .failed
          record.message = entry.message
          settled = KeyedRecord(key: entry.idempotencyKey, record: record)
        }
      }
      // Read again after the send: other calls may have changed the store meanwhile.
      var contents = try contents()
      try log.append(LoggedOutcome(entry: entry, settled: settled))
      Self.apply(entry, settled, to: &contents)
      loaded = contents
      outcomes.append(Outcome(entry: entry))
      if transient { break }
    }
    return outcomes
  }

  // MARK: Internals

  private static func apply(
    _ entry: OutboxEntry, _ settled: KeyedRecord?, to contents: inout Contents
  ) {
    if let index = contents.outbox.firstIndex(where: { $0.id == entry.id }) {
      contents.outbox[index] = entry
    }
    if let settled { contents.records[settled.key] = settled.record }
  }

  /// Offline, timeouts, dropped connections, 408/429/5xx: the change may go through later.
  static func isTransient(_ error: any Error) -> Bool {
    if error is CancellationError { return true }
    guard let network = error as? NetworkError else { return error is URLError }
    return network.kind == .offline || network.isRetryable
  }

  private static func reason(_ error: any Error) -> String {
    if let network = error as? NetworkError, let message = network.serverMessage {
      return network.status.map { "HTTP \($0): \(message)" } ?? message
    }
    return UntrustedText.sanitize(String(describing: error), limit: 200)
  }

  private func contents() throws -> Contents {
    if let loaded { return loaded }
    var read = try file.load() ?? Contents()
    let outcomes = try log.lines()
    if !outcomes.isEmpty {
      // A sync ended without folding its outcomes in (the process was killed): do it now.
      for outcome in outcomes { Self.apply(outcome.entry, outcome.settled, to: &read) }
      try file.save(read)
      log.remove()
    }
    loaded = read
    return read
  }

  private func change(_ body: (inout Contents) throws -> Void) throws {
    var contents = try contents()
    try body(&contents)
    try file.save(contents)
    loaded = contents
  }
}
