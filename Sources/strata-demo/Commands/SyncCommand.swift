import DemoKit
import Foundation
import Strata

/// `sync`: sends what was kept on this device (posts, then todo changes), each change once.
@MainActor
enum SyncCommand {
  nonisolated static let commands = [
    Command(
      "sync", positionals: ["[mine|theirs]"],
      options: [
        OptionSpec(name: "retry-failed", valueName: nil, inlineValueName: "ID"),
        OptionSpec(name: "discard", valueName: "ID"),
        OptionSpec(name: "resolve", valueName: "ID"),
        OptionSpec(name: "show", valueName: "ID"),
        OptionSpec(name: "watch", valueName: nil),
      ],
      example: "strata-demo sync", feature: .offline, run: .inApp(sync))
  ]

  static func sync(_ app: AppContext, _ invocation: Invocation) async throws -> Output {
    if invocation.option("watch") != nil { return try await watch(app, json: invocation.json) }
    let posts = try app.resolve(OfflinePosts.self)
    let todos = try app.resolve(OfflineTodos.self)
    if let key = invocation.option("discard") { return try await discard(key, posts, todos) }
    if let id = invocation.option("show") { return try await show(id, posts, todos) }
    if let id = invocation.option("resolve") {
      try await resolve(id, invocation, posts, todos)
    } else if !invocation.positionals.isEmpty {
      throw UsageError(Localized.current("usage.noArguments"), invocation.command)
    }
    if let wanted = invocation.option("retry-failed") {
      try await retry(wanted, posts, todos)
    }
    let owner = await posts.collection.currentOwner()
    let progress = ProgressLine(shown: Terminal.errorIsTerminal && !invocation.json)
    let postOutcomes: [LocalStore<Post>.Outcome]
    let todoOutcomes: [LocalStore<Todo>.Outcome]
    do {
      defer { progress.finish() }
      postOutcomes = try await posts.sync {
        progress.update(Self.sending($0, $1))
      }
      todoOutcomes = try await todos.sync {
        progress.update(Self.sending($0, $1))
      }
    }
    // `--json` says each result in English; the table, in the user's language.
    let rows =
      postOutcomes.map { outcome in
        Row(outcome.entry) { text in
          outcome.settled.map { text("thing.postNumber", ["id": String($0.value.id)]) }
            ?? Self.deleted(outcome.entry, text)
        }
      }
      + todoOutcomes.map { outcome in
        Row(outcome.entry) { text in
          outcome.settled.map {
            let state = text($0.value.completed ? "done" : "notDone")
            return text("thing.todoNumber", ["id": String($0.value.id), "state": state])
          } ?? Self.deleted(outcome.entry, text)
        }
      }
    // The owner whose sync this was, even when their session ended while it ran (here or in
    // another process): what of theirs is left waits for them.
    let ended = await posts.collection.currentOwner() != owner
    let left = try await posts.collection.outbox(of: owner) + todos.collection.outbox(of: owner)
    return report(rows, left: left, owner: owner, sessionEnded: ended)
  }

  /// The sync's table (or "nothing to send"), whose changes they were, what is left, and the
  /// exit status that says the same: 1 when a change was refused, 75 while one waits.
  private static func report(
    _ rows: [Row], left: [OutboxEntry], owner: DataOwner, sessionEnded: Bool = false
  ) -> Output {
    let refused = left.filter { $0.status == .failed }.count
    // Refused as gone: the item is not on the server any more; only a discard settles it.
    let gone = left.filter { $0.status == .failed && $0.message?.hasPrefix("HTTP 404") == true }
      .count
    let conflicted = left.filter { $0.status == .conflicted }.count
    let waiting = left.filter { $0.status == .pending }.count
    let status: ExitStatus =
      refused + conflicted > 0 ? .failure : waiting > 0 ? .tempFail : .ok
    let text = Localized.current
    let reason =
      sessionEnded
      ? text("sync.sessionEnded")
      : left.first { $0.status == .pending }?.message ?? text("sync.unreachable")
    let footer = [
      waiting > 0 ? text.plural("sync.waiting", count: waiting, ["reason": reason]) : nil,
      refused > 0 ? text("sync.refused", ["count": String(refused)]) : nil,
      gone > 0 ? text("sync.gone", ["count": String(gone)]) : nil,
      conflicted > 0 ? text("sync.conflicted", ["count": String(conflicted)]) : nil,
    ].compactMap { $0 }
    let json = Summary(
      account: owner.jsonAccount, changes: rows, waiting: waiting, refused: refused,
      conflicted: conflicted)
    // Whose changes went: another account's wait, unseen, for its own session.
    let whose = ["owner": text.owner(owner), "others": text("sync.others")]
    guard !rows.isEmpty else {
      return Output(
        text: .line(([text("sync.nothing", whose)] + footer).joined(separator: "\n")),
        json: json, status: status)
    }
    return Output(
      text: .table(
        headers: Headings.of("change", "localId", "kind", "status", "attempts", "result"),
        rows: rows.map(\.cells),
        footer: ([text("sync.changesOf", whose)] + footer).joined(separator: "\n")),
      json: json, status: status)
  }

  /// `sync --watch`: the app's scheduler in the foreground, a line per pass that sent or left
  /// something. SIGINT or SIGTERM stops it after the change in flight (exit 0); a failing
  /// local store (damaged, full, unreadable) stops it with exit 1, since waiting cannot help.
  /// With `--json`, a JSON object per pass on one line (`{"sent":N,"waiting":M}`).
  static func watch(_ app: AppContext, json: Bool) async throws -> Output {
    let scheduler = try app.resolve(SyncScheduler.self)
    let connectivity = try app.resolve(Connectivity.self)
    // The first signal lets the change in flight finish; a second ends the process at once
    // (128 + the signal, as a shell says): that change, if the server took it unrecorded, is
    // sent once more by the next sync, under its key.
    let signals = Locked(0)
    let stopping = onSignals([SIGINT, SIGTERM]) { number, delivered in
      let count = signals.withLock { count in
        count += delivered
        return count
      }
      guard count > 1 else {
        Terminal.error(Localized.current("watch.stopping"))
        Task { await scheduler.stop() }
        return
      }
      Terminal.error(Localized.current("watch.stoppedAtOnce"))
      exit(128 + number)
    }
    defer { for source in stopping { source.cancel() } }
    Terminal.error(Localized.current("watch.started"))
    let problem = Locked<String?>(nil)
    // A change kept by another process (or a sign-in there) wakes the scheduler at once.
    let (triggers, trigger) = AsyncStream.makeStream(of: SyncScheduler.Trigger.self)
    let watching = [
      Self.waiting(try app.resolve(OfflinePosts.self).collection, trigger),
      Self.waiting(try app.resolve(OfflineTodos.self).collection, trigger),
    ]
    defer { for task in watching { task.cancel() } }
    await scheduler.run(following: connectivity, triggers: triggers) { pass in
      if let trouble = pass.problem {
        problem.withLock { $0 = $0 ?? trouble }
        Task { await scheduler.stop() }
      }
      guard pass.sent > 0 || pass.waiting > 0 else { return }
      if json {
        let counts = ["sent": pass.sent, "waiting": pass.waiting]
        if let line = try? Output.json(counts, pretty: false) { Terminal.out(line) }
        return
      }
      Terminal.out(
        Localized.current(
          pass.waiting > 0 ? "watch.passWaiting" : "watch.pass",
          ["sent": String(pass.sent), "waiting": String(pass.waiting)]))
    }
    if let trouble = problem.withLock({ $0 }) {
      throw CommandFailure(Localized.current("watch.storeFailed", ["reason": trouble]))
    }
    return json ? .none : Output(text: .line(Localized.current("watch.stopped")), json: nil)
  }

  /// Tells `trigger` each time what waits to be sent in `collection` changes — kept by this
  /// process or another — and when another owner signs in (the query of the one before ends).
  nonisolated static func waiting<Item: SyncedItem>(
    _ collection: SyncedCollection<Item>, _ trigger: AsyncStream<SyncScheduler.Trigger>.Continuation
  ) -> Task<Void, Never> {
    Task {
      var first = true
      while !Task.isCancelled {
        for await _ in await collection.updates(ValueQuery(statuses: [.pending])) {
          if !first { trigger.yield(.changed) }
          first = false
        }
        guard !Task.isCancelled else { return }
        trigger.yield(.signedIn)
        first = true
      }
    }
  }

  /// SIGINT or SIGTERM cancels `task` (a command that follows something until interrupted
  /// ends with exit 0); a second one ends the process at once (128 + the signal). Returns how
  /// many arrived so far (zero: the task ended on its own) and the sources to cancel when the
  /// task is done.
  nonisolated static func interrupting<Success, Failure>(_ task: Task<Success, Failure>) -> (
    signals: Locked<Int>, sources: [any DispatchSourceSignal]
  ) {
    let signals = Locked(0)
    let sources = onSignals([SIGINT, SIGTERM]) { number, delivered in
      let count = signals.withLock { count in
        count += delivered
        return count
      }
      guard count > 1 else {
        task.cancel()
        return
      }
      exit(128 + number)
    }
    return (signals, sources)
  }

  /// Runs `handler` on a global queue at each of `signals` (no longer delivered as usual),
  /// with how many arrived since it last ran: signals sent close together reach a dispatch
  /// source as one event. Nonisolated, so the handler is not formed on the main actor: run on
  /// another queue, a main-actor closure traps under Swift 6's isolation checks.
  nonisolated static func onSignals(
    _ signals: [Int32], _ handler: @escaping @Sendable (_ signal: Int32, _ count: Int) -> Void
  ) -> [any DispatchSourceSignal] {
    signals.map { number in
      signal(number, SIG_IGN)  // delivered to the source instead
      let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
      // The source is cancelled when the watch ends, which lets the handler (and it) go.
      source.setEventHandler { handler(number, max(1, Int(source.data))) }
      source.resume()
      return source
    }
  }

  /// `sending 3 of 10: post.create 1A2B3C4D`.
  private nonisolated static func sending(_ progress: TransferProgress, _ entry: OutboxEntry)
    -> String
  {
    Localized.current(
      "sync.sending",
      [
        "number": String(progress.completed + 1), "total": String(progress.total ?? 0),
        "kind": entry.kind,
        "key": String(entry.idempotencyKey.prefix(8)),
      ])
  }

  /// `sync --json`: the table's rows and its footer's counts (what is left waiting or refused
  /// in the whole queue, not only among the changes this run tried).
  struct Summary: Encodable {
    /// Whose changes these are (null: the device's, made signed out).
    let account: String?
    let changes: [Row]
    let waiting: Int
    let refused: Int
    let conflicted: Int

    private enum Key: String, CodingKey { case account, changes, waiting, refused, conflicted }

    func encode(to encoder: any Encoder) throws {
      var fields = encoder.container(keyedBy: Key.self)
      try fields.encode(account, forKey: .account)  // null, not left out: the device's
      try fields.encode(changes, forKey: .changes)
      try fields.encode(waiting, forKey: .waiting)
      try fields.encode(refused, forKey: .refused)
      try fields.encode(conflicted, forKey: .conflicted)
    }
  }

  /// The result of a deletion the server took: nothing kept, so its id from the change
  /// (`post-3`: "post #3 deleted").
  private static func deleted(_ entry: OutboxEntry, _ text: Localized) -> String? {
    guard entry.status == .synced, entry.kind.hasSuffix(".delete"),
      let key = entry.serverKey ?? entry.recordKey, let dash = key.firstIndex(of: "-")
    else { return nil }
    let id = String(key[key.index(after: dash)...])
    return text(
      entry.kind.hasPrefix("todo") ? "thing.todoDeleted" : "thing.postDeleted", ["id": id])
  }

  /// One change's outcome, as the table (in the user's language) and `--json` (in English)
  /// show it.
  struct Row: Encodable {
    let key: String
    /// The local id of the item it changes, for one made on this device (its key for life).
    let localId: String?
    let kind: String
    let status: SyncStatus
    let attempts: Int
    let result: String?
    let message: String?
    private let shownResult: String?

    private enum CodingKeys: String, CodingKey {
      case key, localId, kind, status, attempts, result, message
    }

    func encode(to encoder: any Encoder) throws {
      var fields = encoder.container(keyedBy: CodingKeys.self)
      try fields.encode(key, forKey: .key)
      try fields.encode(localId, forKey: .localId)  // null, not left out: made elsewhere
      try fields.encode(kind, forKey: .kind)
      try fields.encode(status, forKey: .status)
      try fields.encode(attempts, forKey: .attempts)
      try fields.encodeIfPresent(result, forKey: .result)
      try fields.encodeIfPresent(message, forKey: .message)
    }

    /// `result` says what became of the change, in the language it is given.
    init(_ entry: OutboxEntry, result: (Localized) -> String?) {
      key = entry.idempotencyKey
      localId = entry.recordKey.flatMap(ItemID.local(in:))
      kind = entry.kind
      status = entry.status
      attempts = entry.attempts
      self.result = result(Localized(language: "en"))
      shownResult = result(.current)
      message = entry.message
    }

    var cells: [String] {
      [
        String(key.prefix(8)), localId ?? "-", kind,
        Headings.status(status), String(attempts),
        shownResult ?? message ?? "",
      ]
    }
  }
}
