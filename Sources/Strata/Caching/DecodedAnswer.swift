import StrataConcurrency

/// The value last decoded from one stored answer's body, so a fresh hit read again by the
/// same service as the same type returns it instead of parsing the JSON again (decoding was
/// most of a hit's cost: a DummyJSON user is 6 of 11 µs).
///
/// Shared by every copy of the answer it belongs to and dropped with it: a new answer (a
/// full response, or one read back from disk) starts empty, and a `304` refresh keeps it,
/// as the body is the same. It costs about what the body does again in memory, and is not
/// counted against the cache's byte budget.
final class DecodedAnswer: Sendable {
  private struct Memo {
    /// `NetworkService.decodingIdentity` of the service that decoded it: services may
    /// share a cache but not a decoder (or its strategies).
    let decoder: Int
    let type: ObjectIdentifier
    let value: any Sendable
  }

  private let memo = Lock<Memo?>(nil)

  /// The value `decoder` decoded as `Value`, if it is the last one decoded.
  func value<Value: Sendable>(_: Value.Type, decoder: Int) -> Value? {
    memo.withLock { memo in
      guard let memo, memo.decoder == decoder, memo.type == ObjectIdentifier(Value.self) else {
        return nil
      }
      return memo.value as? Value
    }
  }

  func keep<Value: Sendable>(_ value: Value, decoder: Int) {
    memo.withLock { $0 = Memo(decoder: decoder, type: ObjectIdentifier(Value.self), value: value) }
  }
}
