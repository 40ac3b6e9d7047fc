import Foundation

/// A change the server's value moved away from: since the device's change was made, the server
/// took another — a field changed on both sides, to different values, or a write refused by
/// its precondition (`412 Precondition Failed` to an `If-Match`). A sync's `send` throws one
/// (with the server's current value, when it could read it); the change becomes
/// ``SyncStatus/conflicted`` — not failed, not sent again — and the store keeps the value it
/// was made from (``OutboxEntry/base``), the device's (the change and the value shown) and the
/// server's (``theirs``) until ``LocalStore/resolve(_:keeping:)`` settles it.
///
/// Fields changed on one side only are no conflict: a sender applies the device's fields on top
/// of the server's value (``overlapping(base:mine:theirs:)`` is empty).
public struct ChangeConflict: Error, LocalizedError, Sendable, Equatable, Codable,
  CustomStringConvertible
{
  /// The server's current value (JSON), nil when it could not be read.
  public let theirs: Data?
  /// Its validator (an `ETag`): a resend on top of it goes with `If-Match` on it.
  public let version: String?
  /// The fields changed on both sides, in order (empty for a refused precondition with no
  /// value to compare).
  public let fields: [String]

  /// The server's current value `theirs`, encoded as the store encodes values.
  public init<Value: Encodable>(theirs: Value?, version: String?, fields: [String] = []) throws {
    let encoder = JSONEncoder()
    (encoder.outputFormatting, encoder.dateEncodingStrategy) = (.sortedKeys, .millisecondsSince1970)
    self.theirs = try theirs.map { try encoder.encode($0) }
    (self.version, self.fields) = (version, fields)
  }

  public var description: String {
    let fields = fields.isEmpty ? "" : " (\(fields.joined(separator: ", ")))"
    return "changed on the server since this change was made\(fields)"
  }

  public var errorDescription: String? { description }

  /// A conflict whose server value is already JSON (or unknown: a refused precondition).
  init(encoded theirs: Data?, version: String?, fields: [String]) {
    (self.theirs, self.version, self.fields) = (theirs, version, fields)
  }

  /// The fields of `mine` — a JSON object: the fields a change sets, or the whole value it
  /// made — whose value differs from `base`'s where `theirs` differs from `base` too, to
  /// another value: changed on both sides. Empty when the two merge (each field changed on one
  /// side at most, or to the same value), or when any of the three is not a JSON object.
  public static func overlapping(base: Data, mine: Data, theirs: Data) -> [String] {
    guard let base = fields(base), let mine = fields(mine), let theirs = fields(theirs) else {
      return []
    }
    return mine.keys.sorted().filter { name in
      let (was, ours, now) = (base[name], mine[name], theirs[name])
      return ours != was && now != was && ours != now
    }
  }

  /// The fields whose value differs between two JSON objects (present in either), in order;
  /// every field when either is not a JSON object.
  public static func changed(from base: Data, to value: Data) -> [String] {
    guard let base = fields(base), let value = fields(value) else { return ["*"] }
    return Set(base.keys).union(value.keys).sorted().filter { base[$0] != value[$0] }
  }

  /// Each field of a JSON object as canonical JSON (keys sorted), so equal values compare
  /// equal whoever wrote them.
  private static func fields(_ json: Data) -> [String: Data]? {
    guard let object = try? JSONSerialization.jsonObject(with: json) as? [String: Any] else {
      return nil
    }
    var canonical: [String: Data] = [:]
    for (name, value) in object {
      canonical[name] = try? JSONSerialization.data(
        withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed])
    }
    return canonical
  }
}

/// How a ``SyncStatus/conflicted`` change is settled.
public enum ConflictResolution: String, Sendable, CaseIterable {
  /// The device's change goes again, on top of the server's current value: it is pending, its
  /// base now the server's value (`If-Match` on its version), and the next sync sends it.
  case mine
  /// The server's value is kept and the device's change dropped: the value shows what the
  /// server has, synced.
  case theirs
}

/// What an app does with a change that meets a conflict, per kind of value: ask its user
/// (the change waits, ``SyncStatus/conflicted``, until resolved), or settle it at once the same
/// way every time. Fields changed on one side only never come here: they merge.
public enum ConflictPolicy: Sendable, Equatable {
  /// Keep it conflicted, with both sides, for the user to resolve.
  case ask
  /// Settle it at once: `.theirs` (the server wins) or `.mine` (the device wins: sent again
  /// on top of the server's value, in the same sync).
  case always(ConflictResolution)
}
