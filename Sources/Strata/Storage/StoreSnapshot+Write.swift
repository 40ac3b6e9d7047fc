import Foundation

/// Writing a snapshot: the whole store in one file, replaced atomically at compaction.
extension StoreSnapshot {
  /// Replaces the snapshot at `path` atomically (temporary file, fsync, rename, directory
  /// fsync): a reader, or a crash, sees the old one or the new one whole.
  /// - Throws: ``FileError/tooLarge(path:size:limit:)`` when it would be over `maxSize`,
  ///   which the reader refuses: nothing is written then.
  func replace(
    at path: String, maxSize: Int, files: any DurableFiles, pause: ((String) -> Void)?
  ) throws {
    var words = ["strata-store", "\(Self.formatVersion)", "\(generation)"]
    words += ["\(outbox.count)", "\(records.count)"]
    let refreshed = refreshedAt.map { "\(Int64(($0.timeIntervalSince1970 * 1000).rounded()))" }
    // A cursor is at most `maxCursor` bytes: `LocalStore.merge` refuses a longer one.
    if let cursor {
      words += [refreshed ?? "-", Data(cursor.utf8).base64EncodedString()]
    } else if let refreshed {
      words.append(refreshed)
    }
    var bytes = Array((words.joined(separator: " ") + "\n").utf8)
    do {
      let lines =
        try JournalLines.encode(outbox)
        + JournalLines.encode(records.stored.map { KeyedRecord($0, $1) })
      bytes.reserveCapacity(lines.reduce(bytes.count) { $0 + $1.count + 10 })
      for json in lines { bytes += JournalLines.line(for: json) }
    } catch {
      throw FileError.unreadable(path: path, reason: "not encodable: \(error)")
    }
    guard bytes.count <= maxSize else {
      throw FileError.tooLarge(path: path, size: bytes.count, limit: maxSize)
    }
    if let code = StoreCrashPoint.injectedFailure(path) {
      throw FileError.io(path: path, operation: "write", errno: code)
    }
    if let failure = PrivateFile.replace(
      path, with: bytes, files: files,
      beforeRename: pause.map { pause in { pause("compact.written") } })
    {
      throw FileError.io(path: path, operation: failure.operation, errno: failure.errno)
    }
  }
}
