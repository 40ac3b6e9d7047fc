/// A position in a configuration source: a file (or a pseudo-file such as `--set`), a 1-based
/// line and a 1-based column counted in Unicode scalars.
public struct SourceLocation: Sendable, Hashable, CustomStringConvertible {
  /// The file path as it was given, or a label such as `--set API` for non-file sources.
  public let file: String
  /// The 1-based line number.
  public let line: Int
  /// The 1-based column, counted in Unicode scalars.
  public let column: Int

  /// - Parameter file: The file path or source label.
  /// - Parameter line: The 1-based line.
  /// - Parameter column: The 1-based column.
  package init(file: String, line: Int, column: Int) {
    (self.file, self.line, self.column) = (file, line, column)
  }

  /// `file:line:column`, the form compilers and editors understand.
  public var description: String { "\(file):\(line):\(column)" }
}
