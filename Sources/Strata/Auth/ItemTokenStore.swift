import Foundation

/// Where one secret item is: its service and account, and the access group that shares it
/// between an app and its extensions (nil: the app's own).
struct SecureItem: Sendable, Hashable {
  let service: String
  let account: String
  let accessGroup: String?
}

/// A platform's store of secret items: the seam between ``ItemTokenStore``'s logic and the
/// Keychain, so that logic is tested on every platform (through an in-memory double) and only
/// the three calls are Apple's.
protocol SecureItems: Sendable {
  /// The item's data; nil when there is none.
  /// - Throws: ``TokenStoreLocked`` before the device's first unlock.
  func read(_ item: SecureItem) throws -> Data?
  /// Creates or replaces the item.
  func write(_ data: Data, to item: SecureItem) throws
  /// Removes the item; no error when there is none.
  func delete(_ item: SecureItem) throws
}

/// A ``TokenStore`` over one ``SecureItems`` item per app and API origin — what
/// `KeychainTokenStore` is on Apple platforms — with the file store's contract: damaged data
/// reads as signed out, `clear()` always removes the item, and processes sharing the item
/// (an app and its extensions) refresh one at a time through a `flock` on a file beside the
/// app's sessions, so one refresh token is never spent twice.
final class ItemTokenStore: TokenStore {
  /// The item's service: `<app> session <scheme>_<host>_<port>` — one per app and origin, as
  /// the session files are.
  let service: String
  /// The item's account: one current session per origin, whoever signed in (the account it
  /// belongs to is inside, ``Credentials/owner``).
  static let account = "session"
  let lockPath: String
  /// The item: the app's own, or in `accessGroup` for the app and its extensions.
  let item: SecureItem
  private let items: any SecureItems
  private let lockTimeout: Duration

  /// - Parameter accessGroup: Shares the item with the app's extensions (nil: the app's own).
  /// - Parameter lockDirectory: Where the refresh lock is kept: a directory every process that
  ///   shares the item can reach (an App Group container); nil: beside the app's sessions.
  init(
    app: String, origin: Origin, items: any SecureItems, accessGroup: String? = nil,
    lockDirectory: String? = nil,
    environment: [String: String] = ProcessInfo.processInfo.environment,
    lockTimeout: Duration = .seconds(30)
  ) {
    let origin = AppDirectories.component(for: origin)
    service = "\(AppDirectories.component(app)) session \(origin)"
    item = SecureItem(service: service, account: Self.account, accessGroup: accessGroup)
    let directory =
      lockDirectory ?? AppDirectories(app: app, environment: environment).config + "/sessions"
    lockPath = directory + "/\(origin).lock"
    (self.items, self.lockTimeout) = (items, lockTimeout)
  }

  func load() throws -> Credentials? {
    guard let data = try items.read(item) else { return nil }
    do {
      return try JSONDecoder().decode(Credentials.self, from: data)
    } catch {
      Log.auth.warning("the session item '\(service)' is unreadable; treating as signed out")
      return nil
    }
  }

  func save(_ credentials: Credentials) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    try items.write(encoder.encode(credentials), to: item)
    markChanged()
  }

  func clear() throws {
    try items.delete(item)
    if unlink(markerPath) != 0, errno != ENOENT {
      Log.auth.warning("could not remove \(markerPath): errno \(errno)")
    }
  }

  /// The secret store is the app's own: what it holds is never refused, so the owner is the
  /// one ``load()`` gives.
  func storedOwner() -> DataOwner { (try? load())??.owner ?? .device }

  /// The stamp of a marker file beside the refresh lock, replaced by every ``save(_:)`` and
  /// removed by ``clear()``: an app's extension that signs in, out, or refreshes changes it,
  /// and asking costs one `lstat`, never a read of the item. Nil when no session was saved.
  func stamp() -> String? { PrivateFile.stamp(of: markerPath) }

  /// Where ``stamp()`` is read: beside the lock, where every process sharing the item reaches.
  var markerPath: String { String(lockPath.dropLast(".lock".count)) + ".changed" }

  /// Tells the processes sharing the item that it changed. A marker that cannot be written
  /// costs them only the news (they read the item when next refreshing): logged, not thrown.
  private func markChanged() {
    do {
      try FileTokenStore.checkDirectory(
        (markerPath as NSString).deletingLastPathComponent, create: true)
      if let failure = PrivateFile.replace(markerPath, with: Data(UUID().uuidString.utf8)) {
        throw FileError.io(path: markerPath, operation: failure.operation, errno: failure.errno)
      }
    } catch {
      Log.auth.warning("could not mark the session item changed: \(error)")
    }
  }

  func lockForRefresh() async throws -> TokenStoreLock {
    try await FileTokenStore.refreshLock(lockPath, timeout: lockTimeout)
  }
}
