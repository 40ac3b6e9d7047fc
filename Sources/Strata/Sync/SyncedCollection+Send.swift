import Foundation

/// One change carried to the server: the conflict protocol.
extension SyncedCollection {
  typealias Settled = LocalStore<Item>.Settled

  /// Sends one change through `api`: a creation (answered with the server's item, kept under
  /// its id), an edit (of `kinds.edit` or a former kind) or a deletion, to the server's id; nil
  /// for a deletion, which leaves nothing to keep. See ``sync(progress:)`` for the rules.
  /// - Throws: ``ChangeRefused`` for a kind this build does not know, or no server id;
  ///   ``ChangeConflict``.
  static func send(
    _ entry: OutboxEntry, to api: any RemoteCollection<Item>, kinds: ChangeKinds
  ) async throws -> Settled? {
    if entry.kind == kinds.create {
      let draft = try JSONDecoder().decode(Item.Draft.self, from: entry.payload)
      let made = try await api.create(draft, idempotencyKey: entry.idempotencyKey)
      return Settled(key: key(.server(made.id)), value: made)
    }
    guard kinds.edits.contains(entry.kind) || entry.kind == kinds.delete else {
      throw ChangeRefused("this build does not know a change of kind \(entry.kind)")
    }
    let id = try serverID(entry)
    let write = Write(entry: entry, id: id, api: api, isEdit: kinds.edits.contains(entry.kind))
    let version = try await precondition(write)
    do {
      return try await write.send(ifMatch: version)
    } catch let error as NetworkError where error.status == 412 {
      // Someone changed it since the version this change was based on: read what they made.
      let (theirs, now) = try await latest(id, from: api)
      let fields = try overlapping(write, with: theirs)
      guard fields.isEmpty else {
        throw try ChangeConflict(theirs: theirs, version: now, fields: fields)
      }
      // Their fields are not this change's: it goes on top of their version, once.
      do {
        return try await write.send(ifMatch: now)
      } catch let again as NetworkError where again.status == 412 {
        throw try ChangeConflict(theirs: theirs, version: now, fields: [])
      }
    }
  }

  /// An edit or a deletion, addressed to the server's id.
  struct Write: Sendable {
    let entry: OutboxEntry
    let id: Item.ID
    let api: any RemoteCollection<Item>
    let isEdit: Bool

    func send(ifMatch version: String?) async throws -> Settled? {
      let key = entry.idempotencyKey
      guard isEdit else {
        try await api.delete(id: id, idempotencyKey: key, ifMatch: version)
        return nil
      }
      let edit = try JSONDecoder().decode(Item.Edit.self, from: entry.payload)
      let (value, newVersion) = try await api.update(
        id: id, edit, idempotencyKey: key, ifMatch: version)
      return Settled(
        key: SyncedCollection.key(.server(id)), value: value,
        version: SyncedCollection.strong(newVersion))
    }
  }

  /// The server's id of the item a change is for: the key the server knows it by
  /// (``OutboxEntry/serverKey``, set by the sync), which for something made here is the id its
  /// creation was answered with.
  /// - Throws: ``ChangeRefused`` when it has none (the creation's answer was not kept).
  static func serverID(_ entry: OutboxEntry) throws -> Item.ID {
    let key = entry.serverKey ?? entry.recordKey
    guard let id = ItemReference<Item.ID>.server(in: key, Item.itemName) else {
      throw ChangeRefused(
        "the \(Item.itemName) has no id from the server: its creation was not kept")
    }
    return id
  }

  /// The version to send `If-Match` on: the change's base version; else, for a change made from
  /// a value read without one, the server's version once its value now is found to merge. A
  /// deletion whose read finds the item gone goes unconditioned, to be answered "gone" itself.
  /// - Throws: ``ChangeConflict`` when it does not merge.
  private static func precondition(_ write: Write) async throws -> String? {
    if let version = write.entry.baseVersion { return version }
    guard write.entry.base != nil else { return nil }
    let theirs: Item
    let version: String?
    do {
      (theirs, version) = try await latest(write.id, from: write.api)
    } catch let error as NetworkError where !write.isEdit && [404, 410].contains(error.status) {
      return nil
    }
    let fields = try overlapping(write, with: theirs)
    guard fields.isEmpty else {
      throw try ChangeConflict(theirs: theirs, version: version, fields: fields)
    }
    return version
  }

  /// The item as the server has it now, and its version when that can be matched.
  private static func latest(_ id: Item.ID, from api: any RemoteCollection<Item>) async throws
    -> (item: Item, version: String?)
  {
    let (item, version) = try await api.latest(id: id)
    return (item, strong(version))
  }

  /// A strong entity tag as it is; nil for a weak one (`W/"…"`, which Express puts on every
  /// JSON body): `If-Match` compares strongly (RFC 9110 §13.1.1), so a weak tag could never
  /// match, and a change is checked against the item's fields instead.
  static func strong(_ version: String?) -> String? {
    version.flatMap { $0.hasPrefix("W/") ? nil : $0 }
  }

  /// The fields both the change and the server changed since the change's base: the change's
  /// own fields for an edit; for a deletion, every field the server changed.
  private static func overlapping(_ write: Write, with theirs: Item) throws -> [String] {
    guard let base = write.entry.base else { return [] }
    let encoder = JSONEncoder()
    (encoder.outputFormatting, encoder.dateEncodingStrategy) = (.sortedKeys, .millisecondsSince1970)
    let now = try encoder.encode(theirs)
    return write.isEdit
      ? ChangeConflict.overlapping(base: base, mine: write.entry.payload, theirs: now)
      : ChangeConflict.changed(from: base, to: now)
  }
}
