import Foundation

extension LocalStore {
  /// Limits and policies of one store; apps set the synced-history ones through
  /// ``LocalStore/init(app:origin:name:directory:keepingSynced:syncedFor:environment:now:)``.
  package struct Options: Sendable {
    /// The largest change or answer one record keeps, in bytes of JSON.
    package var maxRecordSize = 1 << 20
    /// Synced changes a compaction keeps, for showing recent outcomes.
    package var keptSyncedChanges = 100
    /// Synced values a compaction keeps (the newest), and for how long: older and further
    /// ones are history the server holds, and would make every open slower.
    package var keptSyncedRecords = 250
    package var keptSyncedAge = Duration.seconds(30 * 86_400)
    /// A compaction runs when the journal is this many times the snapshot's size… (each byte of
    /// a change is rewritten about 1/ratio times: the cost per change stays flat, and a
    /// reopen replays at most this many snapshots' worth of journal)
    package var compactionRatio = 2
    /// …and at least this large, in bytes.
    package var minimumCompactionSize = 256 << 10
    /// The largest snapshot the reader accepts; a compaction never writes a larger one.
    package var maxSnapshotSize = 1 << 30
    /// New changes are refused (``FileError/full(path:limit:)``) before the snapshot and the
    /// journal together pass this: what the store holds can always be compacted and read back.
    package var maxStoreSize = 1 << 29
    package var lockTimeout = Duration.seconds(30)
    /// How much of the snapshot or the journal a reopen reads and decodes at a time, in bytes
    /// (more for one longer line): what it holds beside the state it builds.
    package var readPiece = 1 << 20
    /// The fields queries look up without reading every value (``ValueIndex``).
    package var indexes: [ValueIndex<Value>] = []
    /// How the journal and the snapshot reach the disk (tests: a double that drops what was
    /// not synced at a simulated power cut).
    package var files: any DurableFiles = SystemFiles()
    package init() {}
  }
}
