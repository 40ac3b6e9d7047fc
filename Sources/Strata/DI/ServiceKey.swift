/// Identifies a registration: the service type, an optional name and, for one-argument
/// registrations, the argument type. Cheap to build and hash (no strings but the name), since
/// every resolve builds one; the readable label is made only for registrations and errors.
@usableFromInline
struct ServiceKey: Hashable, Sendable {
  @usableFromInline let type: ObjectIdentifier
  @usableFromInline let name: String?
  @usableFromInline let argument: ObjectIdentifier?

  @inlinable
  init<T>(_ type: T.Type, name: String?) {
    self.type = ObjectIdentifier(type)
    self.name = name
    self.argument = nil
  }

  /// The type (and argument type) only: hashing the name's bytes on every resolve cost as
  /// much as the rest of the lookup. Names of one type share a bucket chain, told apart by
  /// `==`; a type rarely has more than a few.
  @inlinable
  func hash(into hasher: inout Hasher) {
    hasher.combine(type)
    hasher.combine(argument)
  }

  init<T, Argument>(_ type: T.Type, name: String?, argument: Argument.Type) {
    self.type = ObjectIdentifier(type)
    self.name = name
    self.argument = ObjectIdentifier(argument)
  }

  /// `UsersRepository`, `Networking (name: "mock")`, `UserViewModel (argument: Int)`.
  @usableFromInline
  static func label<T>(_ type: T.Type, name: String?, argument: Any.Type? = nil) -> String {
    var label = String(describing: type)
    if let name { label += " (name: \"\(name)\")" }
    if let argument { label += " (argument: \(String(describing: argument)))" }
    return label
  }
}
