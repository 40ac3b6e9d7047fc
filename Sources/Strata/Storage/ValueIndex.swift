/// A field of a store's values that queries look up without reading every value: the store
/// keeps, for each value the field has, the keys of the values that have it. Declared when
/// the store is made (``LocalStore/init(app:origin:name:owner:directory:keepingSynced:syncedFor:indexes:environment:now:)``);
/// a query asks through ``equals(_:)``.
///
/// ```swift
/// let byAuthor = ValueIndex<Article>("userId") { $0.userId }
/// let theirs = ValueQuery(byAuthor.equals(5), sortedBy: [.descending(\.views)], limit: 20)
/// ```
public struct ValueIndex<Value>: Sendable {
  /// What the store calls it: a query through an index of the same name that the store was
  /// not given reads every value instead (the same answer, slower).
  public let name: String
  /// The field's value as text: values whose texts are equal are looked up together.
  let key: @Sendable (Value) -> String

  /// An index of `field`, compared by its text (`LosslessStringConvertible`).
  public init<Field: LosslessStringConvertible & SendableMetatype>(
    _ name: String, _ field: @escaping @Sendable (Value) -> Field
  ) {
    self.name = name
    key = { field($0).description }
  }

  /// The values whose field is `value`, for ``ValueQuery/init(_:where:statuses:sortedBy:offset:limit:)``.
  public func equals(_ value: some LosslessStringConvertible) -> ValueLookup<Value> {
    ValueLookup(index: self, key: value.description)
  }
}

/// The values whose indexed field has one value: the part of a ``ValueQuery`` an index
/// answers.
public struct ValueLookup<Value>: Sendable {
  let index: ValueIndex<Value>
  let key: String
}
