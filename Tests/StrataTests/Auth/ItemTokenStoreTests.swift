import Foundation
import StrataConcurrency
import StrataTesting
import Testing

@testable import Strata

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The Keychain's stand-in: items by service and account, in memory, shared by the "processes"
/// (sessions) of a test as the Keychain is by an app and its extensions.
private final class MemoryItems: SecureItems {
  private let items = Lock([SecureItem: Data]())
  /// Before the device's first unlock: reads throw, as the Keychain's do.
  let locked = Lock(false)
  var count: Int { items.withLock { $0.count } }
  var names: [String] { items.withLock { $0.keys.map { $0.service + "\n" + $0.account } } }

  /// How many reads were asked for.
  let reads = Lock(0)

  func read(_ item: SecureItem) throws -> Data? {
    reads.withLock { $0 += 1 }
    if locked.withLock({ $0 }) { throw TokenStoreLocked() }
    return items.withLock { $0[item] }
  }
  func write(_ data: Data, to item: SecureItem) throws { items.withLock { $0[item] = data } }
  func delete(_ item: SecureItem) throws { items.withLock { $0[item] = nil } }
}

/// What `KeychainTokenStore` does on Apple platforms, through the seam its three Keychain calls
/// sit behind: the file store's contract, item by item.
@Suite("The Keychain token store's logic")
struct ItemTokenStoreTests {
  @Test func oneItemPerAppAndOriginWithTheFileStoresContract() throws {
    let directory = try TemporaryDirectory()
    let items = MemoryItems()
    let environment = ["XDG_CONFIG_HOME": directory.path]
    let store = ItemTokenStore(
      app: "My App", origin: exampleOrigin, items: items, environment: environment)
    #expect(try store.load() == nil && store.storedOwner() == .device)
    try store.clear()  // nothing there: no error

    let credentials = Credentials(
      accessToken: "tok", refreshToken: "ref", origin: exampleOrigin, owner: .account("user-1"))
    try store.save(credentials)
    #expect(try store.load() == credentials && store.storedOwner() == .account("user-1"))
    #expect(items.names == ["My_App session https_api.example_443\nsession"])
    let other = ItemTokenStore(
      app: "My App", origin: Origin("https://other.example")!, items: items,
      environment: environment)
    #expect(try other.load() == nil, "another origin's session is another item")

    try items.write(Data("{damaged".utf8), to: store.item)
    #expect(try store.load() == nil, "damaged data reads as signed out")
    try store.clear()
    #expect(items.count == 0)
    #expect(store.lockPath == directory.path + "/My_App/sessions/https_api.example_443.lock")
  }

  /// Two sessions (an app and its extension) share the item: one refresh for both.
  @Test func twoSessionsSharingTheItemSpendTheRefreshTokenOnce() async throws {
    let directory = try TemporaryDirectory()
    let items = MemoryItems()
    let store = {
      ItemTokenStore(
        app: "app", origin: exampleOrigin, items: items,
        environment: ["XDG_CONFIG_HOME": directory.path])
    }
    try store().save(oldCredentials)
    let gate = Gate()
    let refresher = CountingRefresher()
    let first = AuthSession(
      origin: exampleOrigin, store: store(),
      refresh: { token in
        await gate.pass()
        return try await refresher.refresh(token)
      })
    let second = AuthSession(origin: exampleOrigin, store: store(), refresh: refresher.refresh)
    let winner = Task { try await first.refresh(rejectedToken: "tok-old") }
    try await gate.waitUntilEntered()
    let loser = Task { try await second.refresh(rejectedToken: "tok-old") }
    for _ in 0..<20 { await Task.yield() }  // the second waits for the lock
    gate.open()
    #expect(try await winner.value == "tok-new-1")
    #expect(try await loser.value == "tok-new-1", "the second adopted the first one's token")
    #expect(refresher.count == 1)
    #expect(try store().load()?.accessToken == "tok-new-1")
  }

  /// An app and its extension name one access group and one lock directory (the App Group
  /// container): they read one item and refresh under one lock; the app's own item, outside
  /// the group, is another.
  @Test func anAccessGroupAndALockDirectoryAreShared() async throws {
    let directory = try TemporaryDirectory()
    let shared = directory.path + "/group.container"
    let items = MemoryItems()
    func store(_ group: String?, home: String) -> ItemTokenStore {
      ItemTokenStore(
        app: "app", origin: exampleOrigin, items: items, accessGroup: group,
        lockDirectory: group.map { _ in shared }, environment: ["XDG_CONFIG_HOME": home])
    }
    let app = store("TEAM.group.app", home: directory.path + "/app")
    let widget = store("TEAM.group.app", home: directory.path + "/widget")
    try app.save(oldCredentials)
    #expect(try widget.load() == oldCredentials, "one item for the group")
    #expect(app.lockPath == widget.lockPath && app.lockPath.hasPrefix(shared + "/"))
    let alone = store(nil, home: directory.path + "/app")
    #expect(try alone.load() == nil, "the app's own item is another")
    #expect(alone.lockPath.hasPrefix(directory.path + "/app/app/sessions/"))
    let held = try await app.lockForRefresh()
    #expect(FileManager.default.fileExists(atPath: app.lockPath), "the lock is in the group's")
    held.release()
  }

  /// The app's store over `items`, its refresh lock in `directory`.
  private static func store(_ items: MemoryItems, _ directory: TemporaryDirectory)
    -> ItemTokenStore
  {
    ItemTokenStore(
      app: "app", origin: exampleOrigin, items: items,
      environment: ["XDG_CONFIG_HOME": directory.path])
  }

  /// A launch before the first unlock: the session is not signed out for the whole process —
  /// it is read again when next asked, and adopted once the store opens.
  @Test func aSessionMadeWhileLockedIsReadAfterTheUnlock() async throws {
    let (directory, items) = (try TemporaryDirectory(), MemoryItems())
    let store = Self.store(items, directory)
    let alice = Credentials(
      accessToken: "tok-a", refreshToken: "r", origin: exampleOrigin, owner: .account("alice"))
    try store.save(alice)
    items.locked.withLock { $0 = true }
    let session = AuthSession(origin: exampleOrigin, store: store)
    var events = session.updates().makeAsyncIterator()
    #expect(await session.owner() == .device, "locked: nobody yet")
    #expect(await !session.isSignedIn)
    items.locked.withLock { $0 = false }
    #expect(await session.owner() == .account("alice"), "read again, once it opened")
    #expect(await session.isSignedIn)
    #expect(await events.next() == .signedIn)
    let reads = items.reads.withLock { $0 }
    _ = await session.owner()
    #expect(items.reads.withLock { $0 } == reads, "once read, not read again")
  }

  /// An open store with no session is read once: asking whose session it is reads nothing.
  @Test func anEmptyStoreIsReadOnce() async throws {
    let (directory, items) = (try TemporaryDirectory(), MemoryItems())
    let store = Self.store(items, directory)
    let session = AuthSession(origin: exampleOrigin, store: store)
    for _ in 0..<3 { #expect(await session.owner() == .device) }
    #expect(items.reads.withLock { $0 } == 1)
  }

  /// A sign-out while the store is locked is not a damaged store: no account's cached
  /// answers go on its word (whose the session is cannot be told until the unlock).
  @Test func aSignOutWhileLockedKeepsEveryAccountsAnswers() async throws {
    let (directory, items) = (try TemporaryDirectory(), MemoryItems())
    let store = Self.store(items, directory)
    let cache = HTTPCache()
    let url = try #require(URL(string: "https://api.example/auth/me"))
    cache.store(
      CachedResponse(
        status: 200, headers: ["cache-control": "private, max-age=600"], body: Data("{}".utf8),
        requestTime: Date(), responseTime: Date(), varied: [:]),
      for: URLRequest(url: url), owner: .account("bob"), epoch: nil)
    #expect(cache.count == 1)
    items.locked.withLock { $0 = true }
    let session = AuthSession(origin: exampleOrigin, store: store, cache: cache)
    await session.signOut()
    #expect(cache.count == 1, "bob's answer stays")
    items.locked.withLock { $0 = false }
    try items.write(Data("{damaged".utf8), to: store.item)
    let later = AuthSession(origin: exampleOrigin, store: store, cache: cache)
    await later.signOut()
    #expect(cache.count == 1, "damaged data in the Keychain names nobody, and is not a file")
  }

  /// Two processes sharing the item (an app and its extension, each with its own store over
  /// the same item and lock directory): a sign-out in one ends the session in the other, and
  /// a sign-in there is adopted — told by the marker's stamp, not by reading the item.
  @Test func aSignOutOrSignInInAnotherProcessIsFollowed() async throws {
    let (directory, items) = (try TemporaryDirectory(), MemoryItems())
    let alice = Credentials(
      accessToken: "tok-a", refreshToken: "r", origin: exampleOrigin, owner: .account("alice"))
    let app = AuthSession(origin: exampleOrigin, store: Self.store(items, directory))
    try await app.signIn(alice)
    let widget = AuthSession(origin: exampleOrigin, store: Self.store(items, directory))
    #expect(await widget.owner() == .account("alice"))
    var events = app.updates().makeAsyncIterator()
    let reads = items.reads.withLock { $0 }
    #expect(await app.owner() == .account("alice"))
    #expect(items.reads.withLock { $0 } == reads, "nothing changed: the item is not read")
    await widget.signOut()
    #expect(await app.owner() == .device)
    #expect(await events.next() == .signedOut(.endedElsewhere))
    let bob = Credentials(
      accessToken: "tok-b", refreshToken: "r", origin: exampleOrigin, owner: .account("bob"))
    try await widget.signIn(bob)
    let mark = try await app.session()
    #expect(mark.owner == .account("bob") && mark.token == "tok-b")
    #expect(mark.isCurrent() == true)
    await widget.signOut()
    #expect(mark.isCurrent() == false, "the mark tells without asking the session")
  }
}
