import Foundation

/// Live results: a query's answer again whenever it changes, whoever changed the store.
extension SyncedCollection {
  /// `query`'s result now, then again each time it changes while the stream lives: at once
  /// for a change written through this collection's store, and within `checkingEvery` for one
  /// another process (a `sync`, an extension) or another instance wrote. Between changes it
  /// takes no lock and reads no file (the files' stamps are compared), and yields nothing when
  /// a change leaves the result as it was. It ends when the owner it began with is no longer
  /// the one signed in: another account's items never show in it.
  public func updates(
    _ query: ValueQuery<Item> = ValueQuery(), checkingEvery interval: Duration = .milliseconds(250)
  ) async -> AsyncStream<[Entry]> {
    let (ticks, tick) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    let ticker = Task {
      while !Task.isCancelled {
        try? await Task.sleep(for: interval)
        tick.yield(())
      }
    }
    return await updates(query, ticks: ticks, ending: ticker)
  }

  /// ``updates(_:checkingEvery:)`` checking the files at each of `ticks` (tests tick by hand);
  /// `ending` is cancelled with the stream.
  func updates(_ query: ValueQuery<Item>, ticks: AsyncStream<Void>, ending: Task<Void, Never>)
    async -> AsyncStream<[Entry]>
  {
    let who = await currentOwner()
    let store = await store()
    let written = store.changesWritten()
    let (wakes, wake) = AsyncStream.makeStream(of: Bool.self, bufferingPolicy: .bufferingNewest(2))
    let ticker = Task {
      for await _ in ticks { wake.yield(false) }
      ending.cancel()
    }
    let relay = Task { for await _ in written { wake.yield(true) } }
    return AsyncStream(bufferingPolicy: .bufferingNewest(1)) { continuation in
      let watcher = Task { [self] in
        var (stamp, last): ([String?]?, [Entry]?) = (nil, nil)
        var window: QueryWindow<Item>?
        // The first pass reads at once; each later one when this process wrote (true), or
        // when a tick finds the files changed.
        wake.yield(true)
        for await wrote in wakes {
          guard await currentOwner() == who else { break }
          let now = await store.fileStamp()
          guard wrote || now != stamp else { continue }
          stamp = now
          guard let read = try? await Self.entries(store, query, after: window) else { continue }
          window = read.window
          guard read.entries != last else { continue }
          let result = read.entries
          last = result
          continuation.yield(result)
        }
        continuation.finish()
      }
      continuation.onTermination = { _ in
        for task in [ending, ticker, relay, watcher] { task.cancel() }
        wake.finish()
      }
    }
  }
}
