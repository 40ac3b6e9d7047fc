/// A value that must never be printed: its description, debug description and mirror are
/// always `<redacted>`, so interpolating it into a log message, `print` or `dump` is safe.
/// Read the real value explicitly through ``value``.
public struct Secret<Value: Sendable>: Sendable, CustomStringConvertible,
  CustomDebugStringConvertible, CustomReflectable
{
  /// The wrapped value. Reading it is a deliberate act; never log it.
  public let value: Value

  public init(_ value: Value) { self.value = value }

  public var description: String { Redactor.placeholder }

  public var debugDescription: String { Redactor.placeholder }

  /// A mirror with no children, so `dump` shows nothing.
  public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}

extension Secret: Equatable where Value: Equatable {}
extension Secret: Hashable where Value: Hashable {}

extension Secret: Codable where Value: Codable {
  /// Decodes the bare value.
  /// - Throws: Whatever decoding `Value` throws.
  public init(from decoder: any Decoder) throws {
    self.init(try decoder.singleValueContainer().decode(Value.self))
  }

  /// Encodes the bare value (for storage such as a token file, never for logs).
  /// - Throws: Whatever encoding `Value` throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(value)
  }
}
