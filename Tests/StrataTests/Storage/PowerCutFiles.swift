import Foundation
import Strata
import StrataConcurrency

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Real files that forget what was not made durable, as a disk does when the power goes (the
/// idea of SQLite's test VFS and of LazyFS): it remembers each file's length at its last
/// `sync`, and which names were created, renamed or removed since their directory's last sync.
/// At the operation numbered `cutAt` the power goes: every file is cut back to its synced
/// length, names not yet synced are undone, and every later operation fails with EIO (the
/// process is gone). A write that skipped its `fdatasync`, or a new file whose directory was
/// never synced, loses what was acknowledged — which the tests then see.
final class PowerCutFiles: DurableFiles {
  private struct State {
    var operations = 0
    var cutAt: Int?
    var dead = false
    var paths: [Int32: String] = [:]
    /// Bytes of each file known to be on disk.
    var durable: [String: Int] = [:]
    /// Names created since their directory was last synced.
    var created: Set<String> = []
    /// Renames and removals not yet made durable, in order: undone at a cut.
    var renamed: [(from: String, to: String, replaced: Data?)] = []
    var removed: [(path: String, contents: Data)] = []
  }

  private let state: Lock<State>

  /// Files that lose power just before operation number `cutAt` (1-based); nil: never.
  init(cutAt: Int? = nil) { state = Lock(State(cutAt: cutAt)) }

  /// The operations made so far: how many steps a workload has to cut at.
  var operations: Int { state.withLock { $0.operations } }
  var didCut: Bool { state.withLock { $0.dead } }

  /// Counts an operation; false (errno EIO) once the power is gone, cutting it first when
  /// this is the operation it goes at.
  private func step(_ state: inout State) -> Bool {
    guard !state.dead else { return false }
    state.operations += 1
    guard state.operations != state.cutAt else {
      cut(&state)
      return false
    }
    return true
  }

  private func fail(_ state: inout State) -> Bool {
    guard step(&state) else {
      errno = EIO
      return true
    }
    return false
  }

  func open(_ path: String, _ flags: Int32) -> Int32 {
    state.withLock { state in
      if fail(&state) { return -1 }
      let existed = FileManager.default.fileExists(atPath: path)
      let fd = SystemFiles().open(path, flags)
      guard fd >= 0 else { return fd }
      state.paths[fd] = path
      if !existed {
        state.created.insert(path)
        state.durable[path] = 0
      } else if flags & O_TRUNC != 0 {
        state.durable[path] = 0
      } else if state.durable[path] == nil {
        state.durable[path] = Self.size(path)
      }
      return fd
    }
  }

  func close(_ fd: Int32) {
    state.withLock { state in
      state.paths[fd] = nil
      _ = systemClose(fd)
    }
  }

  func write(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
    state.withLock { state in
      if fail(&state) { return false }
      return bytes.withUnsafeBytes { systemWrite(fd, $0.baseAddress, $0.count) == $0.count }
    }
  }

  func sync(_ fd: Int32) -> Bool {
    state.withLock { state in
      if fail(&state) { return false }
      if let path = state.paths[fd] { state.durable[path] = Self.size(path) }
      return true
    }
  }

  func truncate(_ fd: Int32, to length: Int) -> Bool {
    state.withLock { state in
      if fail(&state) { return false }
      guard ftruncate(fd, off_t(length)) == 0 else { return false }
      if let path = state.paths[fd] { state.durable[path] = min(state.durable[path] ?? 0, length) }
      return true
    }
  }

  func rename(_ from: String, _ to: String) -> Bool {
    state.withLock { state in
      if fail(&state) { return false }
      let replaced = FileManager.default.contents(atPath: to)
      guard systemRename(from, to) == 0 else { return false }
      state.renamed.append((from, to, replaced))
      state.durable[to] = state.durable[from]
      state.durable[from] = nil
      return true
    }
  }

  func unlink(_ path: String) {
    state.withLock { state in
      if fail(&state) { return }
      guard let contents = FileManager.default.contents(atPath: path) else { return }
      state.removed.append((path, contents))
      _ = systemUnlink(path)
      state.durable[path] = nil
    }
  }

  func syncDirectory(of path: String) -> Bool {
    state.withLock { state in
      if fail(&state) { return false }
      let directory = (path as NSString).deletingLastPathComponent
      let inside = { (name: String) in (name as NSString).deletingLastPathComponent == directory }
      state.created = state.created.filter { !inside($0) }
      state.renamed.removeAll { inside($0.to) }
      state.removed.removeAll { inside($0.path) }
      return true
    }
  }

  /// The power goes: names and bytes that were not made durable are undone.
  private func cut(_ state: inout State) {
    state.dead = true
    for rename in state.renamed.reversed() {
      _ = systemRename(rename.to, rename.from)
      if let replaced = rename.replaced {
        _ = FileManager.default.createFile(atPath: rename.to, contents: replaced)
      }
      state.durable[rename.from] = state.durable[rename.to]
    }
    for removal in state.removed.reversed() {
      _ = FileManager.default.createFile(atPath: removal.path, contents: removal.contents)
    }
    for path in state.created { _ = systemUnlink(path) }
    for (path, length) in state.durable where !state.created.contains(path) {
      if Self.size(path) > length { _ = systemTruncate(path, off_t(length)) }
    }
  }

  private static func size(_ path: String) -> Int {
    var info = stat()
    return stat(path, &info) == 0 ? Int(info.st_size) : 0
  }
}

// At file scope these names are the C functions, not the members of PowerCutFiles.
private func systemClose(_ fd: Int32) -> Int32 { close(fd) }
private func systemWrite(_ fd: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
  write(fd, bytes, count)
}
private func systemRename(_ from: String, _ to: String) -> Int32 { rename(from, to) }
private func systemUnlink(_ path: String) -> Int32 { unlink(path) }
private func systemTruncate(_ path: String, _ length: off_t) -> Int32 { truncate(path, length) }
