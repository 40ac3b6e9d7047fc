import DemoKit
import Foundation
import Strata

/// What `posts --local` and `todos --local` print: the items the device keeps for the owner
/// signed in now (an account, or the device when signed out), with where each stands with the
/// server — a table whose footer names the owner, or JSON rows
/// `{"<name>": item, "status", "message", "account", "changes"}` (`account` null for the
/// device's; `changes` the keys of its changes not yet synced).
enum DeviceList {
  /// The items `invocation` asks for (``LocalQuery``: `--where`, `--sort`, `--limit`,
  /// `--skip` over `fields`), after a full read from the server with `--pull`; with `--follow`,
  /// the list again each time it changes, until SIGINT or SIGTERM (exit 0).
  @MainActor static func output<Item: SyncedItem>(
    _ collection: SyncedCollection<Item>, name: Row<Item>.Name, headers: [String],
    invocation: Invocation, fields: [QueryField<Item>],
    row: @escaping (SyncedCollection<Item>.Entry) -> [String]
  ) async throws -> Output {
    let query = try LocalQuery.parse(invocation, fields: fields)
    if invocation.option("pull") != nil { _ = try await collection.pull() }
    let owner = await collection.currentOwner()
    let pulled = try await collection.lastPulled()
    func listing(_ entries: [SyncedCollection<Item>.Entry]) -> Output {
      let text = Localized.current
      let age = pulled.map { text.age(Int(max(0, Date().timeIntervalSince($0)))) }
      let footer =
        text.plural("device.count", count: entries.count, ["owner": text.owner(owner)]) + "\n"
        + (age.map { text("device.pulled", ["age": $0]) } ?? text("device.neverPulled"))
      return Output(
        text: .table(headers: headers, rows: entries.map(row), footer: footer),
        json: entries.map { Row(name: name, entry: $0, account: owner.jsonAccount) })
    }
    guard invocation.option("follow") != nil else {
      return listing(try await collection.local(query))
    }
    let json = invocation.json
    let reader = Task { @MainActor in
      for await entries in await collection.updates(query) {
        if json {
          let rows = entries.map { Row(name: name, entry: $0, account: owner.jsonAccount) }
          if let line = try? Output.json(rows, pretty: false) { Terminal.out(line) }
        } else if let shown = try? listing(entries).rendered(json: false) {
          Terminal.out(shown + "\n")
        }
      }
    }
    // The first signal ends the list (exit 0); a second ends the process at once.
    let stopping = SyncCommand.interrupting(reader).sources
    defer { for source in stopping { source.cancel() } }
    await reader.value
    return json ? .none : Output(text: .line(Localized.current("watch.stopped")), json: nil)
  }

  /// What a change kept on the device says: `what` (e.g. `post abcd1234`) is pending — for
  /// whom, and that a sync sends it — as a line, or its row in JSON.
  /// - Throws: ``CommandFailure`` (exit 1) with the server's reason when it was refused.
  static func kept<Item: SyncedItem>(
    _ entry: SyncedCollection<Item>.Entry, _ what: String, name: Row<Item>.Name,
    owner: DataOwner
  ) throws -> Output {
    let text = Localized.current
    let local =
      entry.localId.map { what.hasSuffix($0) ? "" : text("change.localId", ["id": $0]) } ?? ""
    guard entry.status != .failed else {
      throw CommandFailure(
        text(
          "change.refused",
          ["what": what, "local": local, "reason": entry.message ?? text("change.noReason")]))
    }
    let change = text(entry.deleted ? "change.deleted" : "change.changed")
    return Output(
      text: .line(
        text(
          "change.kept",
          ["what": what, "local": local, "change": change, "owner": text.owner(owner)])),
      json: Row(name: name, entry: entry, account: owner.jsonAccount))
  }

  /// What `post delete` and `todo delete` print.
  static func deletion<Item: SyncedItem>(
    _ deletion: SyncedCollection<Item>.Deletion, _ what: String, name: Row<Item>.Name,
    owner: DataOwner
  ) throws -> Output {
    switch deletion {
    case .withdrawn:
      Output(
        text: .line(Localized.current("deletion.withdrawn", ["what": what])),
        json: ["deleted": what, "sent": "no"])
    case .deleted:
      Output(
        text: .line(Localized.current("deletion.done", ["what": what])),
        json: ["deleted": what, "sent": "yes"])
    case .kept(let entry):
      try kept(entry, what, name: name, owner: owner)
    }
  }

  /// One kept item in JSON.
  struct Row<Item: SyncedItem>: Encodable
  where Item.ID == Int {
    /// The item's key: what it is.
    enum Name: String, CodingKey { case post, todo }
    private enum Key: String, CodingKey {
      case status, message, account, localId, deleted, changes
    }

    let name: Name
    let entry: SyncedCollection<Item>.Entry
    let account: String?

    func encode(to encoder: any Encoder) throws {
      var item = encoder.container(keyedBy: Name.self)
      // `id` null until the server numbers it (a model says 0 meanwhile).
      try item.encode(
        UnnumberedItem(item: entry.item, numbered: entry.item.id != 0), forKey: name)
      var fields = encoder.container(keyedBy: Key.self)
      try fields.encode(entry.status.rawValue, forKey: .status)
      try fields.encodeIfPresent(entry.message, forKey: .message)
      try fields.encode(account, forKey: .account)
      try fields.encode(entry.localId, forKey: .localId)
      if entry.deleted { try fields.encode(true, forKey: .deleted) }
      // The keys `sync --discard`, `--retry-failed` and `--resolve` take, oldest first.
      try fields.encode(entry.changes, forKey: .changes)
    }
  }
}

extension DataOwner {
  /// The account as `--json` names it: its name, null for the device's.
  var jsonAccount: String? {
    if case .account(let name) = self { return name }
    return nil
  }
}
