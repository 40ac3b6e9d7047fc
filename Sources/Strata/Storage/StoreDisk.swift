/// A store's view of its files, which every part of the engine reads and moves on together:
/// a reload sets it from the files, an append and a compaction move it on, damage marks it.
struct StoreDisk {
  /// The snapshot header's generation as last loaded (0: no snapshot; nil: unreadable).
  var generation: Int? = 0
  /// The generation of the journal in use (the snapshot's, unless that one was damaged).
  var journalGeneration = 0
  /// The journal appended to; nil until the first read, and while a reload runs.
  var journal: JournalFile?
  /// The snapshot's size in bytes: a compaction is due when the journal outgrows it.
  var snapshotSize = 0
  /// The files were found damaged: the next write compacts them into a whole store.
  var needsRepair = false
  /// After a failed compaction, the journal size in bytes at which the next one is tried.
  var compactionRetryAt = 0
  /// The damage set aside was logged (once per instance, again when more is found).
  var damageWarned = false
}
