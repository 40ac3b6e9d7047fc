/// A reference set at most once, then read without a lock: the cell of a singleton, a
/// published snapshot. Readers see either nothing or the fully built object (release/acquire).
/// The object is retained until this reference is released.
package final class OnceReference<Object: AnyObject & Sendable>: @unchecked Sendable {
  @usableFromInline let address = AtomicInt(0)

  package init() {}

  deinit {
    let bits = address.loadAcquiring()
    if bits != 0, let pointer = UnsafeRawPointer(bitPattern: bits) {
      Unmanaged<Object>.fromOpaque(pointer).release()
    }
  }

  /// The object, if set.
  @inlinable
  package var value: Object? {
    let bits = address.loadAcquiring()
    guard bits != 0, let pointer = UnsafeRawPointer(bitPattern: bits) else { return nil }
    return Unmanaged<Object>.fromOpaque(pointer).takeUnretainedValue()
  }

  /// The object, if set, unretained: read it with `_withUnsafeGuaranteedRef` on a hot path.
  @inlinable
  package var unmanaged: Unmanaged<Object>? {
    guard let pointer = UnsafeRawPointer(bitPattern: address.loadAcquiring()) else { return nil }
    return Unmanaged<Object>.fromOpaque(pointer)
  }

  /// Sets `object` unless one is set already; returns the one that is set.
  @discardableResult
  package func setIfEmpty(_ object: Object) -> Object {
    let retained = Unmanaged.passRetained(object)
    let bits = Int(bitPattern: retained.toOpaque())
    if address.compareExchange(expected: 0, desired: bits) { return object }
    retained.release()
    return value ?? object
  }
}
