import Foundation

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Damage found in a store's files is copied next to them as `<base>.damaged-<what>` and left
/// there until a person removes it: the store goes on with what is intact, and every reader
/// can say what was set aside and what it may have held. A file is written once (a second
/// reader finding the same damage leaves it as it is).
enum StoreDamage {
  /// Keeps `bytes` in `<base>.damaged-<label>`, owner-only; an existing one is left alone.
  static func setAside(_ bytes: some Collection<UInt8>, base: String, label: String) {
    let path = base + ".damaged-" + label
    guard let fd = try? PrivateFile.create(path) else { return }
    defer { close(fd) }
    if FileDescriptor.writeAll(fd, bytes) { fsync(fd) }
  }

  /// One sentence per damage file: where, what it seems to have held, and what to do.
  static func report(base: String) -> [String] {
    let directory = (base as NSString).deletingLastPathComponent
    let prefix = (base as NSString).lastPathComponent + ".damaged-"
    let files = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [])
      .filter { $0.hasPrefix(prefix) }.sorted()
    return files.map { file in
      let path = directory + "/" + file
      let label = String(file.dropFirst(prefix.count))
      let size = PrivateFile.size(of: path)
      let held = guess(contents(path), size: size)
      let lost: String
      if label.hasPrefix("snapshot"), label.contains("-line-") {
        lost =
          "a line of the snapshot did not match its checksum and was not used: nothing it says is sent"
      } else if label.hasPrefix("snapshot") {
        lost = "the snapshot did not match its checksum; only its intact lines were kept"
      } else if label.hasPrefix("generation") {
        lost = "the snapshot named another journal than the one on disk; both were read"
      } else {
        lost = "a record could not be read; the records after it were kept"
      }
      return "\(base): \(lost). \(held) It is set aside in \(path): "
        + "remove that file once you have looked at it."
    }
  }

  /// What a damaged record or snapshot seems to have held, from its first bytes (the JSON
  /// names the change first: `{"enqueue":{"entry":{"kind":"post.create"…`).
  static func guess(_ bytes: [UInt8], size: Int) -> String {
    let text = String(decoding: bytes.prefix(512), as: UTF8.self)
    let kind = text.range(of: #""kind":""#).map { found in
      String(text[found.upperBound...].prefix { $0 != "\"" }.prefix(40))
    }
    let change: String
    switch true {
    case text.contains(#"{"enqueue""#): change = "a change queued on this device"
    case text.contains(#"{"settle""#): change = "the outcome of a send (a later sync may resend it)"
    case text.contains(#"{"requeue""#): change = "refused changes put back in the queue"
    case text.contains(#"{"put""#) || text.contains(#"{"replaceSynced""#):
      change = "values from the server (the next fetch brings them back)"
    case text.hasPrefix("strata-store"): change = "the store's compacted contents"
    // A snapshot's own line: a change (its payload) or a value kept under a key.
    case text.contains(#""payload""#): change = "a change queued on this device"
    case text.contains(#""key""#): change = "a value kept on this device"
    default: change = "something unrecognisable"
    }
    let what = kind.map { "\(change) (\(UntrustedText.sanitize($0)))" } ?? change
    return "It seems to have held \(what), \(size) bytes."
  }

  private static func contents(_ path: String) -> [UInt8] {
    guard let fd = try? PrivateFile.open(path, O_RDONLY) else { return [] }
    let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
    defer { try? handle.close() }
    return Array((try? handle.read(upToCount: 4096)) ?? Data())
  }
}
