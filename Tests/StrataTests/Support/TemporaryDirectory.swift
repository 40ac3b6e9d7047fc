import Foundation

/// A fresh directory under the system temp dir, removed when the value is deinitialised.
final class TemporaryDirectory: Sendable {
  let path: String

  init() throws {
    path = NSTemporaryDirectory() + "strata-tests-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(atPath: path) }

  /// Writes `contents` to `name` inside the directory and returns the full path.
  @discardableResult
  func write(_ name: String, _ contents: String) throws -> String {
    try write(name, bytes: Array(contents.utf8))
  }

  @discardableResult
  func write(_ name: String, bytes: [UInt8]) throws -> String {
    let file = path + "/" + name
    try Data(bytes).write(to: URL(fileURLWithPath: file))
    return file
  }
}
