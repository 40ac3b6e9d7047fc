import Foundation

/// A user's settings — the choices a person makes in an app, apart from the developer's
/// ``Config`` — typed by ``PreferenceKey``, kept on the device between runs.
///
/// - **Per account**: an `.owner` setting belongs to the account signed in at each call
///   (the device's own while signed out): another account on this device never sees it. A
///   `.device` setting is the device's, whoever is signed in.
/// - **Files**: `<config>/preferences/<origin>/<owner>.json` for an account's,
///   `<config>/preferences/device.json` for the device's (``AppDirectories``), 0600.
/// - **Safe**: each write re-reads the file under a lock and replaces it whole (see
///   `PreferencesFile`), so a crash never leaves half a file and two processes never lose
///   each other's keys; a damaged file is set aside and the defaults apply.
/// - **Observed**: ``updates()`` says which settings changed: at once when this instance
///   changed them, and within a quarter second when another process (or a sign-in) did.
public final class Preferences: Sendable {
  /// The longest value accepted, in characters.
  static let longestValue = 1_024

  /// Every setting, in the order they are listed.
  public let keys: [any AnyPreferenceKey]
  /// The same keys, as text is read and written through them.
  private let settings: [any TextPreferenceKey]
  private let accounts: String
  private let device: PreferencesFile
  /// Says whose `.owner` settings are read and written, at every call (nil: the device's).
  private let session: (any Authenticator)?
  /// Wakes every watcher at once after a change made here.
  private let changesMade = EventBroadcaster<Void>()

  /// A setting as it stands now, in the shape of a ``ConfigValue``: its key, its value and
  /// where that came from.
  public struct Entry: Sendable, Equatable {
    /// The setting's name (``PreferenceKey/name``).
    public let key: String
    /// Its value, as text.
    public let value: String
    /// The file it was read from — the account's or the device's; nil: nothing is set, so it
    /// is the default.
    public let origin: PreferenceScope?
    /// What values it takes.
    public let allowed: String
  }

  /// The settings `keys` (``PreferenceKey`` values: a type of an app's own that conforms to
  /// ``AnyPreferenceKey`` is no setting here) that `app` keeps for the API at `origin`, for
  /// the owner `session`
  /// says is signed in (``Authenticator/owner()``, asked at every call; the device when nil);
  /// `directory` replaces `<config>/preferences` (tests).
  public init(
    app: String, origin: Origin, keys: [any AnyPreferenceKey], session: (any Authenticator)?,
    directory: String? = nil, environment: [String: String] = ProcessInfo.processInfo.environment
  ) {
    let root =
      directory ?? AppDirectories(app: app, environment: environment).config + "/preferences"
    (self.keys, self.session) = (keys, session)
    settings = keys.compactMap { $0 as? any TextPreferenceKey }
    accounts = root + "/" + AppDirectories.component(for: origin)
    device = PreferencesFile(path: root + "/device.json")
  }

  private func file(_ scope: PreferenceScope) async -> PreferencesFile {
    guard scope == .owner else { return device }
    let name = await session?.owner().account.map {
      "account-" + AppDirectories.component(account: $0)
    }
    return PreferencesFile(path: accounts + "/" + (name ?? "signed-out") + ".json")
  }

  /// The value of `key`: what was set, else its default (also when the file holds text that is
  /// no longer allowed).
  public func value<Value>(_ key: PreferenceKey<Value>) async throws -> Value {
    let text = try await file(key.scope).values()[key.name]
    return text.flatMap { try? key.parse($0).get() } ?? key.defaultValue
  }

  /// Sets `key` to `value`.
  /// - Throws: ``PreferenceError`` when the key does not allow it (nothing written).
  public func set<Value>(_ key: PreferenceKey<Value>, to value: Value) async throws {
    try await set(key.name, to: Value.textFormat.text(value))
  }

  /// Sets the setting named `name` from text (a command line's), checked by its key.
  /// - Returns: The value as kept (`yes` is kept as `true`).
  /// - Throws: ``PreferenceError`` — unknown, not of its type, not allowed, too long — before
  ///   anything is written.
  @discardableResult
  public func set(_ name: String, to text: String) async throws -> String {
    let key = try self.key(name)
    let value = try key.normalized(text).get()
    try await file(key.scope).update { $0[key.name] = value }
    changesMade.yield(())  // watchers look at the files: a write that changed nothing tells none
    return value
  }

  /// Puts the setting named `name` back to its default — every setting, when nil.
  /// - Throws: ``PreferenceError/unknown(name:known:)``.
  public func reset(_ name: String? = nil) async throws {
    let chosen = try name.map { [try key($0)] } ?? settings
    for key in chosen { try await file(key.scope).update { $0[key.name] = nil } }
    changesMade.yield(())
  }

  /// Every setting with its value and where that came from.
  public func entries() async throws -> [Entry] {
    // Each file read once, not once per setting: a watcher does this every quarter second.
    var files: [PreferenceScope: [String: String]] = [:]
    for scope in Set(settings.map(\.scope)) { files[scope] = try await file(scope).values() }
    var entries: [Entry] = []
    for key in settings {
      let text = files[key.scope]?[key.name]
      let kept = text.flatMap { try? key.normalized($0).get() }
      entries.append(
        Entry(
          key: key.name, value: kept ?? key.defaultText, origin: kept == nil ? nil : key.scope,
          allowed: key.allowed))
    }
    return entries
  }

  /// The names of the settings that changed since this call, while the stream lives: at
  /// once for a change made through this instance; within a quarter second for one made by
  /// another process or instance, or by another owner signing in. Watching takes no lock and
  /// reads no file until one changed (each file's inode, size and time are compared).
  public func updates() async -> AsyncStream<Set<String>> {
    await updates(checkingEvery: .milliseconds(250))
  }

  /// ``updates()``, looking at the files every `interval` (tests: a short one).
  func updates(checkingEvery interval: Duration) async -> AsyncStream<Set<String>> {
    let made = changesMade.stream()
    let first = try? await snapshot()
    let (wakes, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    let ticker = Task {
      while !Task.isCancelled {
        try? await Task.sleep(for: interval)
        wake.yield(())
      }
    }
    let relay = Task { for await _ in made { wake.yield(()) } }
    return AsyncStream { continuation in
      let watcher = Task { [self] in
        var last = first
        for await _ in wakes {
          let stamp = await self.stamp()
          guard stamp != last?.stamp, let now = try? await self.snapshot() else { continue }
          let changed = zip(last?.entries ?? [], now.entries).filter { $0 != $1 }.map(\.1.key)
          if !changed.isEmpty { continuation.yield(Set(changed)) }
          last = now
        }
      }
      continuation.onTermination = { _ in
        for task in [ticker, relay, watcher] { task.cancel() }
        wake.finish()
      }
    }
  }

  /// Whose files are read and how they stand on disk: a change of either is a change to look
  /// at. Taken before the entries are read, so a write between the two is seen next time.
  private func stamp() async -> [String?] {
    let account = await file(.owner).path
    return [account, PrivateFile.stamp(of: account), PrivateFile.stamp(of: device.path)]
  }

  private func snapshot() async throws -> (stamp: [String?], entries: [Entry]) {
    let stamp = await stamp()
    return (stamp, try await entries())
  }

  private func key(_ name: String) throws(PreferenceError) -> any TextPreferenceKey {
    guard let key = settings.first(where: { $0.name == name }) else {
      throw .unknown(name: name, known: settings.map(\.name))
    }
    return key
  }
}
