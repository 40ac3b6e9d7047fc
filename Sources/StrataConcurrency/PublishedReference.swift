/// A reference that writers replace (or set once) and readers load without a lock
/// (release/acquire): the logging set-up, read by every log call.
///
/// Readers never retain what they load, so a replaced object must outlive every reader that
/// may still hold it: ``publish(_:)`` hands the previous one back for the owner to keep
/// (logging keeps the few set-ups a process makes). Writers serialise among themselves (hold
/// a lock around ``publish(_:)``).
package final class PublishedReference<Object: AnyObject & Sendable>: @unchecked Sendable {
  @usableFromInline let address = AtomicInt(0)

  package init() {}

  deinit {
    let bits = address.loadAcquiring()
    if let pointer = UnsafeRawPointer(bitPattern: bits) {
      Unmanaged<Object>.fromOpaque(pointer).release()
    }
  }

  /// The current object, if any.
  @inlinable
  package var value: Object? {
    guard let pointer = UnsafeRawPointer(bitPattern: address.loadAcquiring()) else { return nil }
    return Unmanaged<Object>.fromOpaque(pointer).takeUnretainedValue()
  }

  /// The current object, unretained: read it with `_withUnsafeGuaranteedRef` on a hot path
  /// (no reference counting on an object many threads read).
  @inlinable
  package var unmanaged: Unmanaged<Object>? {
    guard let pointer = UnsafeRawPointer(bitPattern: address.loadAcquiring()) else { return nil }
    return Unmanaged<Object>.fromOpaque(pointer)
  }

  /// Makes `object` current unless one is already; returns the current one. Lock-free (a
  /// compare-and-swap): for a reference set once, such as a singleton's cell.
  @discardableResult
  package func setIfEmpty(_ object: Object) -> Object {
    let retained = Unmanaged.passRetained(object)
    if address.compareExchange(expected: 0, desired: Int(bitPattern: retained.toOpaque())) {
      return object
    }
    retained.release()
    return value ?? object
  }

  /// Makes `object` (or nothing) current; returns the previous object, which readers may
  /// still be using: keep it alive.
  @discardableResult
  package func publish(_ object: Object?) -> Object? {
    let previous = value
    let bits = object.map { Int(bitPattern: Unmanaged.passRetained($0).toOpaque()) } ?? 0
    address.storeReleasing(bits)
    if let previous { Unmanaged.passUnretained(previous).release() }
    return previous
  }
}
