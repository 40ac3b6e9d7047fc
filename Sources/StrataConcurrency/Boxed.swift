/// A value — in practice a closure — held by reference, for keeping in a ``Lock``.
///
/// A closure kept bare as a lock's state (`Lock<(@Sendable () -> Void)?>`) is stored at the
/// generic abstraction and handed to `withLock`'s `inout` body at the concrete one: every
/// access converts it with a reabstraction thunk and writes it back wrapped in another, even a
/// read. The stored closure grows by two thunks per access — a hook resolved 100,000 times,
/// or a progress handler told 100,000 times, is then called through 200,000 frames and
/// overflows the stack. Held in a box, the state is a reference: nothing is converted or
/// written back, and reading `value` converts a copy, never what is kept.
package final class Boxed<Value: Sendable>: Sendable {
  package let value: Value

  package init(_ value: Value) { self.value = value }
}
