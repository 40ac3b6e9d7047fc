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
    public let text: String
    public init(stringLiteral value: String) { text = value }
  }

  /// One call as it arrived.
  public struct Entry: Sendable, Equatable {
    public let label: String
    public let level: Level
    public let message: String
    public let metadata: [String: MetadataValue]
    public let file: String
    public let line: UInt
  }

  public let label: String
  public var logLevel: Level = .info

  public init(label: String) { self.label = label }

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
  public init() {}
}
