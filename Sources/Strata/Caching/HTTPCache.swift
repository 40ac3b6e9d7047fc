import Foundation
import StrataConcurrency

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The HTTP cache ``NetworkService`` keeps for GET answers (RFC 9111, as a private client
/// cache): a fresh answer is used without a request; a stale one is revalidated with its
/// `ETag` (`If-None-Match`) or `Last-Modified` (`If-Modified-Since`), and a `304 Not Modified`
/// refreshes it without a body; when the server cannot be reached or answers 5xx, a stale
/// answer stands in up to its `stale-if-error` (else ``maxStale``). Within its
/// `stale-while-revalidate` window a stale answer is used at once and revalidated in the
/// background, once however many reads come meanwhile. `no-store` answers and
/// `Set-Cookie` headers are never kept; no answer is fresh unless it says how long it is (no
/// heuristic freshness). A successful POST, PUT, PATCH or DELETE drops what was kept for its
/// URL, so a list never looks older than the user's own change.
///
/// Answers to requests that carry a bearer token belong to one signed-in user: they are kept
/// under that user's account (``Authenticator/owner()``, never the token), served only to a
/// request made for the same account, and removed with ``removeAll(_:)`` when the
/// session ends (an ``AuthSession`` given this cache does it). Without an account they are
/// not kept. A session's end is a line in time: an answer to a request sent before it is not
/// kept after it, whichever process ended the session (``removeAll(_:)`` changes the
/// account's session mark on disk, and a store checks the mark after writing).
///
/// No credential is written into a cache file: a `Vary` on `Authorization`,
/// `Proxy-Authorization` or `Cookie` keeps a keyed digest of the request's value (HMAC-SHA256
/// under a random key of this cache's), a URL's user name and password never reach a key,
/// a header named as a credential (`X-Auth-Token`, …) is not kept, nor is a JSON member named
/// as one (`password`, `secret`, `token`, `accessToken`, `refresh_token`, `apiKey`, … in any
/// case and with any separators, at any depth: DummyJSON's `/auth/me` and `/users` carry each
/// user's `password` — the caller gets the answer whole, the cache keeps it without them), and
/// an answer that holds a secret the process knows (``KnownSecrets``: a token a server echoes
/// back) is kept in memory only, never in a file. `Cache-Control: private` therefore needs nothing more (a private cache may keep
/// such an answer, RFC 9111 §5.2.2.7), and `public` widens nothing: it lets *shared* caches
/// keep answers to authorised requests, and a signed-in user's answers stay that user's here.
///
/// In memory, or on disk as well (``init(app:origin:maxBytes:maxStale:memoryPressure:environment:now:)``: an app
/// restarted offline still has its last answers), with hot answers in memory. Memory is
/// bounded by the answers' bytes, the disk by the blocks their files take; least recently used
/// out first — on disk, used by any process sharing the directory. A lookup reads one file and
/// never lists the directory, and a lookup and a store cost the same whatever the number of
/// entries. A damaged or half-written file is a miss, never a crash.
public final class HTTPCache: Sendable {
  /// The most bytes kept: on disk when the cache has a directory, else in memory.
  public let maxBytes: Int
  /// How long past its freshness a stored answer may stand in for a failed request, when
  /// the answer itself does not say (`stale-if-error`).
  public let maxStale: Duration
  /// Where answers are kept on disk; nil for a memory-only cache.
  public var directory: String? { files?.directory }
  private let memoryBytes: Int
  private let files: HTTPCacheFiles?
  private let now: @Sendable () -> Date
  /// The key of the digests kept for credential headers a `Vary` names: on disk beside the
  /// entries (0600) so that processes sharing them agree, else random for this instance;
  /// read or made when first needed.
  private let varyKey = Lock<[UInt8]?>(nil)

  private struct State {
    var memory = RecencyList<CachedResponse>()
    /// The disk tier's index, read when a store, a removal or a count first needs it (a
    /// lookup does not).
    var disk: HTTPCacheIndex?
    /// Disk entries used from memory since the last time uses were recorded on disk, and
    /// when that was: recorded with the next store, or on a hit a while later.
    var unrecordedUses: Set<String> = []
    var usesRecorded = Date.distantPast
    /// Answers being revalidated in the background (`stale-while-revalidate`), by key.
    var revalidating: Set<String> = []
    /// Per account, how many sessions ended in this process, and the session mark last read
    /// from disk (another process's sign-outs): together, the account's ``epoch(for:)``.
    var endedHere: [String: Int] = [:]
    var endedOnDisk: [String: String] = [:]
  }

  private let state = Lock(State())
  private let relief = Lock<MemoryPressure.Subscription?>(nil)

  /// A memory-only cache.
  /// - Parameter maxBytes: The byte budget (default 50 MiB).
  /// - Parameter maxStale: How long past its freshness an answer may stand in for a failure
  ///   (default one day).
  /// - Parameter memoryPressure: What says when to give memory back (the memory tier keeps
  ///   half at a warning, nothing at critical; the disk tier stays whole).
  /// - Parameter now: Wall-clock time (tests inject their own).
  public init(
    maxBytes: Int = 50 << 20, maxStale: Duration = .seconds(86_400),
    memoryPressure: MemoryPressure = .shared, now: @escaping @Sendable () -> Date = { Date() }
  ) {
    (self.maxBytes, self.maxStale, self.now) = (max(0, maxBytes), maxStale, now)
    (memoryBytes, files) = (self.maxBytes, nil)
    subscribe(to: memoryPressure)
  }

  /// A cache on disk under `$XDG_CACHE_HOME/<app>/http/<origin>` (else
  /// `~/.cache/<app>/http/<origin>`; on Apple platforms `Library/Caches/<app>/http/<origin>`), owner-only, the same path rule as the token and local
  /// stores; the newest answers (up to 8 MiB) also in memory. Memory-only when the directory
  /// cannot be made or is not the user's own.
  /// - Parameter app: The application's name (one directory per app).
  /// - Parameter origin: The API's origin (one directory per origin).
  /// - Parameter maxBytes: The disk budget (default 50 MiB, `HTTP_CACHE_SIZE` in a config).
  /// - Parameter maxStale: As in ``init(maxBytes:maxStale:memoryPressure:now:)``.
  /// - Parameter memoryPressure: As in ``init(maxBytes:maxStale:memoryPressure:now:)``.
  /// - Parameter environment: Where `XDG_CACHE_HOME` and `HOME` are read.
  /// - Parameter now: Wall-clock time (tests inject their own).
  public convenience init(
    app: String, origin: Origin, maxBytes: Int = 50 << 20, maxStale: Duration = .seconds(86_400),
    memoryPressure: MemoryPressure = .shared,
    environment: [String: String] = ProcessInfo.processInfo.environment,
    now: @escaping @Sendable () -> Date = { Date() }
  ) {
    let directory =
      AppDirectories(app: app, environment: environment).cache + "/http/"
      + AppDirectories.component(for: origin)
    self.init(
      files: HTTPCacheFiles(directory: directory), maxBytes: maxBytes, maxStale: maxStale,
      now: now)
    subscribe(to: memoryPressure)
  }

  private init(
    files: HTTPCacheFiles?, maxBytes: Int, maxStale: Duration, now: @escaping @Sendable () -> Date
  ) {
    (self.maxBytes, self.maxStale, self.now) = (max(0, maxBytes), maxStale, now)
    (self.files, memoryBytes) = (files, min(self.maxBytes, 8 << 20))
  }

  private func subscribe(to pressure: MemoryPressure) {
    relief.withLock { $0 = pressure.subscribe { [weak self] in self?.relieve($0) } }
  }

  /// Gives memory back: the memory tier keeps its most recently used half (by bytes) at a
  /// warning and nothing at critical. The disk tier stays whole: a later read costs a file
  /// read, not a request.
  func relieve(_ level: MemoryPressureLevel) {
    state.withLock { state in
      state.memory.trim(to: level == .critical ? 0 : state.memory.bytes / 2)
    }
  }

  /// How many answers the memory tier holds, and their bytes.
  package var memoryTier: (count: Int, bytes: Int) {
    state.withLock { ($0.memory.count, $0.memory.bytes) }
  }

  /// How many answers are kept (on disk, for a cache with a directory).
  public var count: Int { state.withLock { state in loadIndex(&state).count } }
  /// The bytes they take: the disk blocks of their files, for a cache with a directory.
  public var byteCount: Int { state.withLock { state in loadIndex(&state).bytes } }

  /// Forgets everything (the user asked), on disk too.
  /// - Returns: The files that could not be removed, each as `path: reason` (a read-only
  ///   directory, an entry that is a directory); empty when all went.
  @discardableResult
  public func removeAll() -> [String] {
    state.withLock { state in
      let left = files?.removeAll().failed ?? []
      // The session marks stay: a clear is not a sign-out, and must not make an old mark current.
      var cleared = State()
      (cleared.endedHere, cleared.endedOnDisk) = (state.endedHere, state.endedOnDisk)
      if let files {
        // What could not be removed is still kept, and counted.
        cleared.disk = HTTPCacheIndex(files: files)
        cleared.disk?.rewrite(fromScratch: true)
      }
      state = cleared
      return left
    }
  }

  /// Forgets every answer kept for `owner`, on disk too: an account's (its session ended) —
  /// its current session mark ended first, so an answer still on its way, here or in
  /// another process, is not kept afterwards — or, for ``DataOwner/device``, the shared
  /// answers (those fetched without a token). Every other owner's stay.
  public func removeAll(_ owner: DataOwner) {
    guard case .account(let account) = owner else { return removeShared() }
    let prefix = Self.partition(account)
    let filePrefix = HTTPCacheFiles.prefix(for: account)
    state.withLock { state in
      state.endedHere[account, default: 0] += 1
      // Before the files go: a process that writes an answer checks the mark after writing,
      // so either it sees the new mark and removes its file, or the removal below finds it.
      if let mark = files?.endSession(of: account) { state.endedOnDisk[account] = mark }
      state.memory.removeAll { $0.hasPrefix(prefix) }
      guard let files else { return }
      // The directory decides, not the index: a file another process kept and did not record
      // still goes.
      let removed = files.removeAll { $0.hasPrefix(filePrefix) }.removed
      record(removed.map(HTTPCacheIndex.Event.removed), &state)
    }
  }

  /// Forgets every account's answers (a session file that named no account was signed out
  /// of: whose they were cannot be told); shared answers stay.
  func removeAllAccounts() { removeAll(accounts: true) }

  /// Forgets the shared answers; every account's stay.
  private func removeShared() { removeAll(accounts: false) }

  /// Forgets every account's answers, or every shared one.
  private func removeAll(accounts: Bool) {
    state.withLock { state in
      state.memory.removeAll { $0.hasPrefix(Self.accountKeyPrefix) == accounts }
      guard let files else { return }
      let removed = files.removeAll { $0.hasPrefix(HTTPCacheFiles.accountPrefix) == accounts }
        .removed
      record(removed.map(HTTPCacheIndex.Event.removed), &state)
    }
  }

  // MARK: Used by NetworkService

  var currentDate: Date { now() }

  /// The value `request` gives a header that a `Vary` names, as it is kept and compared: a
  /// credential header's as `hmac-sha256:<hex>` under this cache's key (the same in every
  /// process sharing the directory), never the token.
  func variedValue(_ name: String, of request: URLRequest) -> String? {
    guard let value = request.value(forHTTPHeaderField: name) else { return nil }
    guard Self.credentialHeaders.contains(name.lowercased()) else { return value }
    let key = varyKey.withLock { key in
      if let key { return key }
      let made = files?.varyKey() ?? HTTPCacheFiles.randomKey()
      key = made
      return made
    }
    return KeyedDigest.of(value, key: key)
  }

  private static let credentialHeaders: Set<String> = [
    "authorization", "proxy-authorization", "cookie",
  ]

  /// The session mark of `account`'s answers, read before a request is sent for that account:
  /// ``store(_:for:account:epoch:)`` keeps its answer only if the mark is still the same, so
  /// an answer that arrives after a sign-out — in this process or another — is not kept.
  func epoch(for account: String) -> String {
    state.withLock { state in epoch(account, &state) }
  }

  private func epoch(_ account: String, _ state: inout State) -> String {
    let here = state.endedHere[account, default: 0]
    guard let files else { return "\(here)" }
    let onDisk = files.sessionMark(of: account)
    if let known = state.endedOnDisk[account], known != onDisk {
      // Another process ended that account's session: what memory holds of it goes too.
      let prefix = Self.partition(account)
      state.memory.removeAll { $0.hasPrefix(prefix) }
    }
    state.endedOnDisk[account] = onDisk
    return "\(here) \(onDisk)"
  }

  /// The stored answer for a request like `request` made for `account`, marked as just used.
  func lookUp(_ request: URLRequest, owner: DataOwner) -> CachedResponse? {
    let account = owner.account
    guard let key = Self.key(request, owner: owner) else { return nil }
    // A memory-only cache names no file: nothing to hash on its hits.
    let name = files == nil ? "" : HTTPCacheFiles.name(for: key, account: account)
    let varied = { (name: String) in self.variedValue(name, of: request) }
    return state.withLock { state in
      var found = state.memory.use(key)
      if found != nil, files != nil {
        state.unrecordedUses.insert(name)
        if now().timeIntervalSince(state.usesRecorded) >= Self.useRecordingInterval {
          record([], &state)
        }
      } else if let files {
        // The file decides: no index is read on this path (a process's first hit costs one
        // file's read, however many answers are kept).
        let (read, removed) = files.read(key, name: name)
        if let read {
          found = read
          record([.used(name)], &state)
          _ = state.memory.put(key, read, size: read.byteCount, budget: memoryBytes)
        } else if removed {
          record([.removed(name)], &state)
        }
      }
      guard let found, found.matches(varied) else { return nil }
      return found
    }
  }

  /// How long uses served from memory may wait before they reach the disk index.
  private static let useRecordingInterval: TimeInterval = 30

  /// Records `events` in the disk index (through the replica when this process has read it,
  /// else appended unread), with the uses served from memory since the last time.
  /// - Returns: The files removed to stay within the budget.
  @discardableResult
  private func record(_ events: [HTTPCacheIndex.Event], budget: Int = .max, _ state: inout State)
    -> [String]
  {
    guard let files else { return [] }
    let all = state.unrecordedUses.map(HTTPCacheIndex.Event.used) + events
    (state.unrecordedUses, state.usesRecorded) = ([], now())
    guard state.disk != nil else {
      HTTPCacheIndex.record(all, in: files)
      return []
    }
    return state.disk?.record(all, budget: budget) ?? []
  }

  /// Keeps `response` for `request` made for `account` when it may be kept; drops an older
  /// one either way. An answer for an account is kept only while the account's session mark
  /// is still `epoch` (read by ``epoch(for:)`` before the request went out); one that holds a
  /// secret the process knows is kept in memory only.
  func store(
    _ response: CachedResponse?, for request: URLRequest, owner: DataOwner, epoch: String?
  ) {
    let account = owner.account
    guard let key = Self.key(request, owner: owner) else { return }
    let name = HTTPCacheFiles.name(for: key, account: account)
    let ended = { (state: inout State) in
      guard let account, let epoch else { return false }
      return self.epoch(account, &state) != epoch
    }
    let holdsSecret = response.map(Self.holdsSecret) ?? false
    state.withLock { state in
      guard let response, response.byteCount <= maxBytes else {
        remove(key, name, &state)
        return
      }
      _ = state.memory.put(key, response, size: response.byteCount, budget: memoryBytes)
      Self.beforeWrite?()
      if holdsSecret {
        // In memory, where the secret is already; never in a file. An older copy goes.
        if let files, unlink(files.directory + "/" + name) == 0 {
          record([.removed(name)], &state)
        }
      } else if let files, let bytes = files.write(response, key: key, name: name) {
        // The replica is needed now (eviction); recording reads it up to date.
        if state.disk == nil { state.disk = HTTPCacheIndex(files: files) }
        record([.kept(name, bytes: bytes)], budget: maxBytes, &state)
      }
      // Checked once it is written (one read of the mark): a sign-out in another process is
      // either seen here, and the answer removed, or finds the file when it removes the
      // account's answers.
      Self.afterWrite?()
      if ended(&state) { remove(key, name, &state) }
    }
  }

  /// Tests run another process's sign-out here, between an answer's write and its check.
  @TaskLocal package static var afterWrite: (@Sendable () -> Void)?
  /// … or here, after the request's session check and before the write: only the check after
  /// the write then finds the file, which the sign-out could not.
  @TaskLocal package static var beforeWrite: (@Sendable () -> Void)?

  /// Whether a known secret (a token, a password) is in the answer's body or headers.
  /// Whether `response` holds a secret the process knows, in its body or a header (headers
  /// and members named as credentials were not kept: ``CachedResponse``).
  private static func holdsSecret(_ response: CachedResponse) -> Bool {
    KnownSecrets.occur(in: response.body)
      || response.headers.values.contains { KnownSecrets.occur(in: Data($0.utf8)) }
  }

  /// Marks the answer under `key` as being revalidated in the background; false when it
  /// already is (a second read in the window does not send a second request).
  func beginRevalidation(_ key: String) -> Bool {
    state.withLock { $0.revalidating.insert(key).inserted }
  }

  func endRevalidation(_ key: String) { state.withLock { _ = $0.revalidating.remove(key) } }

  /// Drops what is kept for `url` (after a change to it): the shared answer and `account`'s.
  func invalidate(_ url: URL, owner: DataOwner) {
    state.withLock { state in
      for owner in Set([.device, owner]) {
        let key = Self.key(url, owner: owner)
        remove(key, HTTPCacheFiles.name(for: key, account: owner.account), &state)
      }
    }
  }

  private func remove(_ key: String, _ name: String, _ state: inout State) {
    state.memory.remove(key)
    guard let files else { return }
    if unlink(files.directory + "/" + name) == 0 { record([.removed(name)], &state) }
  }

  /// The tier that bounds the cache, brought up to date: the disk index (what every process
  /// sharing the directory recorded), or memory.
  private func loadIndex(_ state: inout State) -> (count: Int, bytes: Int) {
    guard let files else { return (state.memory.count, state.memory.bytes) }
    if state.disk == nil { state.disk = HTTPCacheIndex(files: files) }
    state.disk?.refresh()
    let entries = state.disk?.entries
    return (entries?.count ?? 0, entries?.bytes ?? 0)
  }
}
