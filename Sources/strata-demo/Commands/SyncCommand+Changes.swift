import DemoKit
import Foundation
import Strata

/// `sync`'s options about single changes: `--show`, `--discard`, `--retry-failed` and
/// `--resolve`, each naming a change by its item's id or local id, or by its key.
extension SyncCommand {
  /// The changes in `statuses` that `id` names — the local id of an item made here, the server
  /// id of a post or todo (its own key, or the one the server gave an item made here), or the
  /// first characters (four or more) of the change's key — and whether each is a todo's.
  private static func changes(
    _ id: String, in statuses: Set<SyncStatus>, _ posts: OfflinePosts, _ todos: OfflineTodos
  ) async throws -> [(entry: OutboxEntry, isTodo: Bool)] {
    let keys: Set<String> =
      switch ItemID(id) {
      case .local(let local)?: [SyncedCollection<Post>.key(.local(local))]
      case .server(let number)?: ["post-\(number)", "todo-\(number)"]
      case nil: []
      }
    let wanted = id.uppercased()
    let named = { (entry: OutboxEntry) in
      statuses.contains(entry.status)
        && (keys.contains(entry.recordKey ?? "") || keys.contains(entry.serverKey ?? "")
          || (wanted.count >= 4 && entry.idempotencyKey.hasPrefix(wanted)))
    }
    // A server id names a post's change or a todo's by the key's prefix, never both.
    let postChanges = try await posts.outbox().filter {
      named($0) && !($0.recordKey ?? "").hasPrefix("todo-")
    }
    let todoChanges = try await todos.outbox().filter {
      named($0) && !($0.recordKey ?? "").hasPrefix("post-")
    }
    return postChanges.map { ($0, false) } + todoChanges.map { ($0, true) }
  }

  /// The one change `id` names (see ``changes(_:in:_:_:)``); none or several: exit 65, saying
  /// so with `none` or `several`.
  private static func one(
    _ id: String, in statuses: Set<SyncStatus>, _ posts: OfflinePosts, _ todos: OfflineTodos,
    none: String, several: String
  ) async throws -> (entry: OutboxEntry, isTodo: Bool) {
    let found = try await changes(id, in: statuses, posts, todos)
    guard found.count == 1, let change = found.first else {
      throw DataError(
        Localized.current(found.isEmpty ? none : several, ["id": Invocation.quoted(id)]))
    }
    return change
  }

  /// The one refused change `key` names (its item's id or local id, or its key's start).
  private static func refused(_ key: String, _ posts: OfflinePosts, _ todos: OfflineTodos)
    async throws -> (entry: OutboxEntry, isTodo: Bool)
  {
    try await one(
      key, in: [.failed], posts, todos, none: "discard.none", several: "discard.several")
  }

  /// `sync --retry-failed`: every refused change back in the queue; `--retry-failed=ID`: the
  /// one of the item `ID` (or whose change key starts with it).
  static func retry(_ wanted: String, _ posts: OfflinePosts, _ todos: OfflineTodos)
    async throws
  {
    var requeued = 0
    if wanted.isEmpty {
      requeued = try await posts.collection.retryFailed() + todos.collection.retryFailed()
    } else {
      let (entry, isTodo) = try await refused(wanted, posts, todos)
      requeued =
        isTodo
        ? try await todos.collection.retryFailed(only: [entry.id])
        : try await posts.collection.retryFailed(only: [entry.id])
    }
    Terminal.error(Localized.current.plural("sync.requeued", count: requeued))
  }

  /// `sync --discard ID`: the one refused change of the item `ID` (or whose change key starts
  /// with it) is dropped, with those that follow it; the item goes back to the server's value.
  static func discard(_ key: String, _ posts: OfflinePosts, _ todos: OfflineTodos) async throws
    -> Output
  {
    let (entry, isTodo) = try await refused(key, posts, todos)
    _ =
      isTodo
      ? try await todos.collection.discard(entry.id) : try await posts.collection.discard(entry.id)
    return Output(
      text: .line(
        Localized.current(
          "discard.done", ["kind": entry.kind, "key": String(entry.idempotencyKey.prefix(8))])),
      json: Row(entry) { _ in "discarded" })
  }

  /// `sync --resolve ID mine|theirs`: the one conflicted change of the item `ID` names — its
  /// local id, its server id, or the start of the change's key — is settled (the sync that
  /// follows sends a `mine`). Unknown or ambiguous: exit 65, nothing settled.
  static func resolve(
    _ id: String, _ invocation: Invocation, _ posts: OfflinePosts, _ todos: OfflineTodos
  ) async throws {
    let text = Localized.current
    guard invocation.positionals.count == 1,
      let choice = ConflictResolution(rawValue: invocation.positionals[0])
    else { throw UsageError(text("resolve.choice", ["id": id]), invocation.command) }
    let (entry, isTodo) = try await one(
      id, in: [.conflicted], posts, todos, none: "resolve.none", several: "resolve.several")
    _ =
      isTodo
      ? try await todos.collection.resolve(entry.id, keeping: choice)
      : try await posts.collection.resolve(entry.id, keeping: choice)
    Terminal.error(
      text(
        "resolve.\(choice.rawValue)",
        ["kind": entry.kind, "key": String(entry.idempotencyKey.prefix(8))]))
  }

  /// `sync --show ID`: one change not yet synced, whole — its key, kind, status, attempts, the
  /// server's reason, what it sends (mine), and for a conflict the fields and theirs — so a
  /// user settles it knowing both sides. Unknown or ambiguous: exit 65.
  static func show(_ id: String, _ posts: OfflinePosts, _ todos: OfflineTodos) async throws
    -> Output
  {
    let (entry, _) = try await one(
      id, in: [.pending, .failed, .conflicted], posts, todos, none: "show.none",
      several: "show.several")
    let change = Change(entry)
    let lines: [(String, String?)] = [
      ("change", change.key), ("kind", change.kind), ("status", change.status),
      ("attempts", String(change.attempts)), ("reason", change.message), ("mine", change.mine),
      ("base", change.base), ("fields", change.fields?.joined(separator: ", ")),
      ("theirs", change.theirs),
    ]
    let shown = lines.compactMap { name, value in
      value.map { (Headings.label(name), UntrustedText.sanitize($0, limit: 2_000)) }
    }
    return Output(text: .detail(shown), json: change)
  }

  /// `sync --show --json`: one change, in English.
  struct Change: Encodable {
    let key: String
    let kind: String
    let status: String
    let attempts: Int
    let message: String?
    let mine: String
    let base: String?
    let fields: [String]?
    let theirs: String?

    init(_ entry: OutboxEntry) {
      let json = { (data: Data?) in data.map { String(decoding: $0, as: UTF8.self) } }
      (key, kind, status, attempts) = (
        entry.idempotencyKey, entry.kind, entry.status.rawValue, entry.attempts
      )
      (message, mine, base) = (entry.message, json(entry.payload) ?? "", json(entry.base))
      (fields, theirs) = (entry.conflict?.fields, json(entry.conflict?.theirs))
    }
  }
}
