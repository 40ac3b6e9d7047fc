import Foundation

/// What a change made to a value kept on the device does to the outbox: the answer of the
/// closure given to ``LocalStore/enqueue(updating:_:)``, which sees the value and the newest
/// change to it not yet sent.
public enum OutboxPlan<Value: Codable & Sendable>: Sendable {
  /// A change of its own, sent after every earlier one. When an earlier change to the same
  /// value is not yet synced, it follows that one (``OutboxEntry/after``). `showing` is the
  /// value as the device now shows it, pending; nil shows it deleted.
  case add(kind: String, payload: Data, showing: Value?)
  /// Rewrites the change not yet sent (`unsent`) with this kind and payload, under its key and
  /// in its place — one send carries both, e.g. an edit folded into the creation it follows.
  case fold(kind: String, payload: Data, showing: Value?)
  /// Drops the change not yet sent (`unsent`) and the value shown for it: nothing is sent —
  /// e.g. the deletion of something created here that the server never saw.
  case withdraw
}
