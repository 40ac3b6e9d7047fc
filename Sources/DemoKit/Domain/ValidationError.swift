/// Input a business rule refuses, found before anything is sent: which field, and a sentence
/// the person can act on. A flow shows it on the field's step; the CLI prints it and exits 65.
public struct ValidationError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The input's name as the API spells it (`title`, `body`, `userId`, `username`).
  public let field: String
  public let message: String

  public init(field: String, _ message: String) {
    (self.field, self.message) = (field, message)
  }

  public var description: String { "\(field): \(message)" }
}
