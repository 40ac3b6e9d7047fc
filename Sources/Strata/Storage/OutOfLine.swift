/// Fields that most values of a type leave empty, kept out of line: one pointer inline, no
/// allocation while every field is empty. A store of 100,000 queued changes pays 8 bytes each
/// for what only some of them carry, rather than the fields' whole size. Mutating makes a new
/// immutable box, so copies never share a change (value semantics, and `Sendable`).
struct OutOfLine<Fields: OutOfLineFields>: Equatable, Sendable {
  private final class Box: Sendable {
    let fields: Fields
    init(_ fields: Fields) { self.fields = fields }
  }

  private var box: Box?

  /// The fields (all empty when none was set).
  var fields: Fields {
    get { box?.fields ?? Fields() }
    set { box = newValue == Fields() ? nil : Box(newValue) }
  }

  init(_ fields: Fields = Fields()) { self.fields = fields }

  static func == (lhs: OutOfLine, rhs: OutOfLine) -> Bool { lhs.fields == rhs.fields }
}

/// A group of optional fields whose `init()` leaves them all empty.
protocol OutOfLineFields: Equatable, Sendable { init() }
