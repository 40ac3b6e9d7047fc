import Foundation

/// Every failure of reading or querying configuration. Matchable through `kind`; carries the
/// file, line and column where that makes sense, and a message a person can act on.
/// Secret values never appear in the message, and ``KnownSecrets`` are masked in its description.
public struct ConfigError: Error, Sendable, Equatable, CustomStringConvertible, LocalizedError {
  /// What went wrong, to switch on; the message says it for people.
  public enum Kind: Sendable, Equatable {
    /// A file could not be read (missing, unreadable, or refused).
    case unreadableFile(path: String)
    /// A line is not valid UTF-8.
    case invalidEncoding
    /// A line does not start with a valid key (`[A-Za-z_][A-Za-z0-9_]*`).
    case invalidKey
    /// A key is not followed by `=`.
    case expectedEquals
    /// A quoted value has no closing quote on its line.
    case unterminatedQuote
    /// A backslash escape other than `\"`, `\\`, `\n`, `\t` in a double-quoted value.
    case invalidEscape
    /// Text other than a comment after a closing quote or an include path.
    case unexpectedText
    /// A `$(` or `${` reference that is not closed, empty, or has an invalid name.
    case invalidReference
    /// An `#include` line that is not `#include "path"` or `#include? "path"`.
    case malformedInclude
    /// A required include does not exist.
    case includeNotFound(path: String)
    /// Files include each other; the chain of files, first repeated last.
    case includeCycle(chain: [String])
    /// A file is larger than a configuration file may be (`limit` bytes).
    case fileTooLarge(path: String, limit: Int)
    /// One load follows more than `limit` includes: a fan-out of includes multiplies the
    /// work with each level, so it is bounded like substitution.
    case tooManyIncludes(limit: Int)
    /// One load (a file and its includes) reads more than `limit` bytes in all.
    case includesTooLarge(limit: Int)
    /// `$(NAME)` names neither a key nor an environment variable.
    case undefinedVariable(name: String)
    /// Keys refer to each other; the chain of keys, first repeated last.
    case substitutionCycle(chain: [String])
    /// Substitution made a value (or all of them) too large; the chain of keys that did it.
    case valueTooLarge(chain: [String])
    /// A key that has no value in any layer.
    case missingKey(key: String)
    /// A key that was renamed: `replacement` is its name now.
    case renamedKey(key: String, replacement: String)
    /// A value that does not have the expected shape (`expected` names it).
    case invalidValue(key: String, expected: String)
  }

  /// What went wrong, for matching.
  public let kind: Kind
  /// Where it went wrong, when it can be pinned to a source position.
  public let location: SourceLocation?
  /// The human-readable explanation (without the location prefix).
  public let message: String

  /// - Parameter kind: What went wrong.
  /// - Parameter location: Where, if known.
  /// - Parameter message: A sentence a person can act on. Must not contain secret values.
  public init(_ kind: Kind, at location: SourceLocation?, _ message: String) {
    (self.kind, self.location, self.message) = (kind, location, message)
  }

  /// `file:line:column: message`, or just the message when there is no location.
  public var description: String {
    guard let location else { return KnownSecrets.mask(message) }
    return KnownSecrets.mask("\(location): \(message)")
  }

  public var errorDescription: String? { description }
}
