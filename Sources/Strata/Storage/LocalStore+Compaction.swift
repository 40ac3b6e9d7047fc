import Foundation

/// Compaction: the journal folded into a new snapshot, synced history pruned, the files of
/// older generations removed. Called under the store's exclusive lock.
extension LocalStore {
  /// Folds the journal into a new snapshot. Each step leaves a loadable store if the process
  /// dies there: the new (empty) journal is created first, unused until the snapshot naming
  /// its generation is renamed into place; the old journal is removed only after that.
  package func compact() throws {
    guard disk.journal != nil else { return }
    let hook = StoreCrashPoint.current
    state.dropSettled(
      keeping: options.keptSyncedChanges, records: options.keptSyncedRecords,
      since: now().addingTimeInterval(-options.keptSyncedAge.inSeconds))
    let next = max(disk.generation ?? 0, disk.journalGeneration) + 1
    let fresh = try JournalFile(path: journalPath(next), truncate: true, files: options.files)
    try StoreSnapshot(
      generation: next, records: state.records, outbox: state.outbox,
      refreshedAt: state.refreshedAt, cursor: state.cursor
    )
    .replace(
      at: snapshotPath, maxSize: options.maxSnapshotSize, files: options.files, pause: hook)
    hook?("compact.renamed")
    options.files.unlink(journalPath(disk.journalGeneration))
    options.files.unlink(base + ".json")  // format 1, now in the snapshot
    disk.generation = next
    disk.journalGeneration = next
    disk.journal = fresh
    disk.snapshotSize = PrivateFile.size(of: snapshotPath)
    disk.needsRepair = false
    disk.compactionRetryAt = 0
    removeLeftovers()
  }

  /// Journals of older generations and temporary snapshots a killed compaction left behind.
  private func removeLeftovers() {
    let directory = (base as NSString).deletingLastPathComponent
    let name = (base as NSString).lastPathComponent
    let keep = (journalPath(disk.journalGeneration) as NSString).lastPathComponent
    for file in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    where file != keep
      && (file.hasPrefix(name + ".log-") || file.hasPrefix(name + ".snapshot.tmp-"))
    {
      options.files.unlink(directory + "/" + file)
    }
  }

  /// The generations of the journals on disk, in order.
  func journalGenerations() -> [Int] {
    let directory = (base as NSString).deletingLastPathComponent
    let prefix = (base as NSString).lastPathComponent + ".log-"
    return ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [])
      .filter { $0.hasPrefix(prefix) }.compactMap { Int($0.dropFirst(prefix.count)) }.sorted()
  }
}
