import Foundation
import Strata
import StrataConcurrency

/// `--http-log FILE`: one JSON line per HTTP attempt, appended as each ends. The file is
/// created (mode 0600) or truncated; a record holds no header, body or secret.
final class HTTPLogFile: Sendable {
  private let output: Lock<(handle: FileHandle, encoder: JSONEncoder)>

  init(path: String) throws {
    guard
      FileManager.default.createFile(
        atPath: path, contents: nil, attributes: [.posixPermissions: 0o600]),
      let handle = FileHandle(forWritingAtPath: path)
    else {
      throw CommandFailure("cannot write the HTTP log \(Invocation.quoted(path))")
    }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    output = Lock((handle, encoder))
  }

  /// The closure `NetworkOptions.onRequestRecord` takes.
  var sink: @Sendable (RequestRecord) -> Void { { [self] record in write(record) } }

  func write(_ record: RequestRecord) {
    output.withLock { output in
      guard var line = try? output.encoder.encode(record) else { return }
      line.append(UInt8(ascii: "\n"))
      try? output.handle.write(contentsOf: line)
    }
  }
}
