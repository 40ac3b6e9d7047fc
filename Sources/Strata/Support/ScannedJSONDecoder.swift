import Foundation

/// Decodes an app's value from its JSON as `JSONDecoder` does with dates as milliseconds since
/// 1970 (how the store writes them), over ``JSONObject``'s scan instead of `JSONDecoder`'s own
/// generic machinery, which costs a reopen of 100,000 values more than their JSON does.
///
/// Narrow on purpose: it throws for anything it might not read exactly as `JSONDecoder` would —
/// `Data`, `URL`, `Decimal`, `Float`, an integer written with a fraction or an exponent, a key
/// or string it does not read, a repeated key — and the caller then asks `JSONDecoder`, the
/// reference. Tests decode the same values both ways.
enum ScannedJSONDecoder {
  /// The thrown error says only "ask `JSONDecoder`": its own error is the one to report.
  struct Unsupported: Error {}

  static func decode<T: Decodable>(_ type: T.Type, from value: JSONObject.Value) throws -> T {
    try ScannedDecoding(value, path: []).decode(type)
  }
}

/// One value being decoded, and where it is (for the `Decoder` protocol; never reported).
private struct ScannedDecoding: Decoder {
  let value: JSONObject.Value
  let codingPath: [any CodingKey]
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  /// - Throws: Past `JSONDecoder`'s own nesting limit (a hostile line a recursive type would
  ///   follow until the stack ran out), which `JSONDecoder` then refuses.
  init(_ value: JSONObject.Value, path: [any CodingKey]) throws {
    guard path.count < 512 else { throw ScannedJSONDecoder.Unsupported() }
    (self.value, codingPath) = (value, path)
  }

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    guard let object = value.object else { throw ScannedJSONDecoder.Unsupported() }
    return KeyedDecodingContainer(Keyed<Key>(object: object, codingPath: codingPath))
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    guard let elements = value.elements else { throw ScannedJSONDecoder.Unsupported() }
    return Unkeyed(elements: elements, codingPath: codingPath)
  }

  func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

  /// `T` read from this value: the types `JSONDecoder` reads itself are read here (a date as
  /// milliseconds since 1970) or refused; every other type decodes itself through this.
  func decode<T: Decodable>(_ type: T.Type) throws -> T {
    if T.self == Date.self {
      guard let date = Date(timeIntervalSince1970: try decode(Double.self) / 1000) as? T else {
        throw ScannedJSONDecoder.Unsupported()
      }
      return date
    }
    if T.self == Data.self || T.self == URL.self || T.self == Decimal.self {
      throw ScannedJSONDecoder.Unsupported()
    }
    return try T(from: self)
  }
}

extension ScannedDecoding: SingleValueDecodingContainer {
  func decodeNil() -> Bool { value.isNull }

  func decode(_ type: Bool.Type) throws -> Bool { try read(value.bool) }
  func decode(_ type: String.Type) throws -> String { try read(value.string) }
  func decode(_ type: Double.Type) throws -> Double { try read(value.double) }
  // Float's rounding from JSON is `JSONDecoder`'s own: left to it.
  func decode(_ type: Float.Type) throws -> Float { throw ScannedJSONDecoder.Unsupported() }
  func decode(_ type: Int.Type) throws -> Int { try read(value.int) }
  func decode(_ type: Int8.Type) throws -> Int8 { try integer() }
  func decode(_ type: Int16.Type) throws -> Int16 { try integer() }
  func decode(_ type: Int32.Type) throws -> Int32 { try integer() }
  func decode(_ type: Int64.Type) throws -> Int64 { try integer() }
  func decode(_ type: UInt.Type) throws -> UInt { try integer() }
  func decode(_ type: UInt8.Type) throws -> UInt8 { try integer() }
  func decode(_ type: UInt16.Type) throws -> UInt16 { try integer() }
  func decode(_ type: UInt32.Type) throws -> UInt32 { try integer() }
  func decode(_ type: UInt64.Type) throws -> UInt64 { try integer() }

  /// An integer that fits `Int` and `T` (else `JSONDecoder` says why).
  private func integer<T: FixedWidthInteger>() throws -> T {
    try read(value.int.flatMap { T(exactly: $0) })
  }

  private func read<T>(_ value: T?) throws -> T {
    guard let value else { throw ScannedJSONDecoder.Unsupported() }
    return value
  }
}

/// An object's members by key.
private struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
  let object: JSONObject
  let codingPath: [any CodingKey]

  var allKeys: [Key] { object.keys.compactMap(Key.init(stringValue:)) }

  func contains(_ key: Key) -> Bool { object.value(named: key.stringValue) != nil }

  private func member(_ key: Key) throws -> ScannedDecoding {
    guard let value = object.value(named: key.stringValue) else {
      throw ScannedJSONDecoder.Unsupported()
    }
    return try ScannedDecoding(value, path: codingPath + [key])
  }

  func decodeNil(forKey key: Key) throws -> Bool { try member(key).decodeNil() }

  func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
    try member(key).decode(type)
  }

  func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key)
    throws -> KeyedDecodingContainer<NestedKey>
  {
    try member(key).container(keyedBy: type)
  }

  func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
    try member(key).unkeyedContainer()
  }

  func superDecoder() throws -> any Decoder { throw ScannedJSONDecoder.Unsupported() }
  func superDecoder(forKey key: Key) throws -> any Decoder {
    throw ScannedJSONDecoder.Unsupported()
  }
}

/// An array's elements in order.
private struct Unkeyed: UnkeyedDecodingContainer {
  let elements: [JSONObject.Value]
  let codingPath: [any CodingKey]
  private(set) var currentIndex = 0

  init(elements: [JSONObject.Value], codingPath: [any CodingKey]) {
    (self.elements, self.codingPath) = (elements, codingPath)
  }

  var count: Int? { elements.count }
  var isAtEnd: Bool { currentIndex >= elements.count }

  /// The next element; moves past it only once it decoded (as `JSONDecoder` does).
  private mutating func next<T>(_ read: (ScannedDecoding) throws -> T) throws -> T {
    guard !isAtEnd else { throw ScannedJSONDecoder.Unsupported() }
    let element = try ScannedDecoding(
      elements[currentIndex], path: codingPath + [Index(intValue: currentIndex)])
    let value = try read(element)
    currentIndex += 1
    return value
  }

  mutating func decodeNil() throws -> Bool {
    guard !isAtEnd else { throw ScannedJSONDecoder.Unsupported() }
    guard elements[currentIndex].isNull else { return false }
    currentIndex += 1
    return true
  }

  mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
    try next { try $0.decode(type) }
  }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
    -> KeyedDecodingContainer<NestedKey>
  {
    try next { try $0.container(keyedBy: type) }
  }

  mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
    try next { try $0.unkeyedContainer() }
  }

  mutating func superDecoder() throws -> any Decoder { throw ScannedJSONDecoder.Unsupported() }

  /// An element's place in the coding path, as `JSONDecoder` names it (`Index 3`).
  private struct Index: CodingKey {
    let intValue: Int?
    var stringValue: String { "Index \(intValue ?? 0)" }
    init(intValue: Int) { self.intValue = intValue }
    init?(stringValue: String) { nil }
  }
}
