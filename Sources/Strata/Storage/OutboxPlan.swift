import Foundation

/// What a change made to a value kept on the device does to the outbox: the answer of the
/// closure given to ``LocalStore/enqueue(_:_:)``, which sees the value and the newest change
/// to it not yet sent. Each case is named for what happens to the outbox, and is written to
/// the store's journal under the same name.
public enum OutboxPlan<Value: Codable & Sendable>: Sendable {
  /// A change of its own, appended: sent after every earlier one. When an earlier change to
  /// the same value is not yet synced, it follows that one (``OutboxEntry/after``). `showing`
  /// is the value as the device now shows it, pending; nil shows it deleted.
  case append(kind: String, payload: Data, showing: Value?)
  /// The change not yet sent (`unsent`) rewritten with this kind and payload, under its key
  /// and in its place — one send carries both, e.g. an edit folded into the creation it
  /// follows.
  case rewrite(kind: String, payload: Data, showing: Value?)
  /// The change not yet sent (`unsent`) discarded, with the value shown for it: nothing is
  /// sent — e.g. the deletion of something created here that the server never saw.
  case discard
}
