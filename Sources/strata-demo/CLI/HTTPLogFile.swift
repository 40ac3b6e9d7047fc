import Foundation
import Strata
import StrataConcurrency

/// `--http-log FILE`: one JSON line per HTTP attempt, appended as each ends. The file is
/// created (mode 0600) or truncated; a record holds no header, body or secret.
final class HTTPLogFile: Sendable {
  private let handle: Lock<FileHandle>

  init(path: String) throws {
    guard
      FileManager.default.createFile(
        atPath: path, contents: nil, attributes: [.posixPermissions: 0o600]),
      let handle = FileHandle(forWritingAtPath: path)
    else {
      throw CommandFailure("cannot write the HTTP log \(Invocation.quoted(path))")
    }
    self.handle = Lock(handle)
  }

  /// The closure `NetworkConfiguration.onRequestRecord` takes.
  var sink: @Sendable (RequestRecord) -> Void { { [self] record in write(record) } }

  func write(_ record: RequestRecord) {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    guard var line = try? encoder.encode(record) else { return }
    line.append(UInt8(ascii: "\n"))
    handle.withLock { try? $0.write(contentsOf: line) }
  }
}
