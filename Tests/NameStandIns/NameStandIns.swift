// Stand-ins for the public names other libraries declare — swift-log's `Logger`, `LogHandler`
// and `LoggingSystem`, Swinject's `Container`, `os.Logger` — so a test can import them next to
// Strata, as an app does, without depending on those packages. If Strata declared any of these
// names, the test using them unqualified would not compile ("ambiguous").
import Foundation

/// swift-log's logger, reduced to the calls a forwarding sink makes.
public struct Logger: Sendable {
  /// swift-log's levels.
  public enum Level: String, Sendable, CaseIterable {
    case trace, debug, info, notice, warning, error, critical
  }

  /// swift-log's metadata value, strings only.
  public enum MetadataValue: Sendable, Equatable {
    case string(String)
  }

  /// swift-log's message: a string built by interpolation.
  public struct Message: ExpressibleByStringInterpolation, Sendable {
    /// The text.
    public let text: String
    /// A message from a literal.
    public init(stringLiteral value: String) { text = value }
  }

  /// One call as it arrived.
  public struct Entry: Sendable, Equatable {
    /// The logger's label.
    public let label: String
    /// The level.
    public let level: Level
    /// The message text.
    public let message: String
    /// The metadata.
    public let metadata: [String: MetadataValue]
    /// The calling file.
    public let file: String
    /// The calling line.
    public let line: UInt
  }

  /// The logger's label.
  public let label: String
  /// The lowest level it writes.
  public var logLevel: Level = .info

  /// A logger for `label`.
  public init(label: String) { self.label = label }

  /// Records one entry.
  public func log(
    level: Level, _ message: @autoclosure () -> Message,
    metadata: @autoclosure () -> [String: MetadataValue]? = nil, source: String? = nil,
    file: String = #fileID, function: String = #function, line: UInt = #line
  ) {
    let entry = Entry(
      label: label, level: level, message: message().text, metadata: metadata() ?? [:],
      file: file, line: line)
    Self.lock.lock()
    Self.recorded.append(entry)
    Self.lock.unlock()
  }

  /// Every entry logged so far, for the test to read.
  public static var entries: [Entry] {
    lock.lock()
    defer { lock.unlock() }
    return recorded
  }

  private static let lock = NSLock()
  nonisolated(unsafe) private static var recorded: [Entry] = []
}

/// swift-log's handler protocol (a name only).
public protocol LogHandler {}

/// swift-log's bootstrap entry point (a name only).
public enum LoggingSystem {}

/// Swinject's container (a name only).
public final class Container {
  /// An empty container.
  public init() {}
}
