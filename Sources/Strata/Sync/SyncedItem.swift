import Foundation

/// An item an app keeps on the device and changes offline (a post, a todo): what creating one
/// sends (``Draft``), what changing one sends (``Edit``), and how the device shows each before
/// the server answers. Its `id` is the server's number or name for it; the device gives each
/// item it makes a local id of its own for life (``SyncedCollection``), so the server's id is
/// never assumed unique.
public protocol SyncedItem: Codable, Sendable, Equatable, Identifiable
where ID: LosslessStringConvertible & Sendable {
  associatedtype Draft: Codable & Sendable & Equatable
  associatedtype Edit: ItemEdit where Edit.Item == Self
  /// What one is called in the device's keys and the outbox's kinds: `post` gives the keys
  /// `post-12` and the kinds of ``changeKinds``.
  static var itemName: String { get }
  /// The kinds of change the outbox keeps for it; by default `<itemName>.create`,
  /// `<itemName>.update` and `<itemName>.delete`.
  static var changeKinds: ChangeKinds { get }
  /// The item `draft` makes, as the device shows it until the server answers.
  init(_ draft: Draft)
  /// What creating this item as it stands sends: an edit of an item whose creation is not
  /// sent yet becomes part of the creation.
  var draft: Draft { get }
}

extension SyncedItem {
  public static var changeKinds: ChangeKinds { ChangeKinds(itemName) }
}

/// A change to an item: the fields it gives are replaced, the others left as they are.
public protocol ItemEdit: Codable, Sendable, Equatable {
  associatedtype Item
  /// This edit, then `later` on top of it: one edit saying both (folded while neither was sent).
  func then(_ later: Self) -> Self
  /// `item` with this edit made.
  func applied(to item: Item) -> Item
}

/// The outbox kinds of an item's changes: what a change is, written with it, so a later build
/// still knows how to send what an earlier one kept.
public struct ChangeKinds: Sendable, Equatable {
  /// A creation (its payload a `Draft`).
  public var create: String
  /// An edit (its payload an `Edit`).
  public var edit: String
  /// A deletion (no payload).
  public var delete: String
  /// Kinds of edit an earlier build wrote, still sent from the outboxes it kept (each payload
  /// reads as an `Edit`).
  public var formerEdits: Set<String>

  public init(create: String, edit: String, delete: String, formerEdits: Set<String> = []) {
    (self.create, self.edit, self.delete, self.formerEdits) = (create, edit, delete, formerEdits)
  }

  /// `<name>.create`, `<name>.update`, `<name>.delete`.
  public init(_ name: String) {
    self.init(create: name + ".create", edit: name + ".update", delete: name + ".delete")
  }

  /// Every kind of edit this build sends.
  var edits: Set<String> { formerEdits.union([edit]) }
}
