import Foundation
import Strata
import StrataConcurrency
import StrataTesting
import Testing

/// The Keychain's stand-in: items by service and account, in memory, shared by the "processes"
/// (sessions) of a test as the Keychain is by an app and its extensions.
private final class MemoryItems: SecureItems {
  private let items = Lock([String: Data]())
  var count: Int { items.withLock { $0.count } }
  var names: [String] { items.withLock { Array($0.keys) } }

  func read(service: String, account: String) throws -> Data? {
    items.withLock { $0[service + "\n" + account] }
  }
  func write(_ data: Data, service: String, account: String) throws {
    items.withLock { $0[service + "\n" + account] = data }
  }
  func delete(service: String, account: String) throws {
    items.withLock { $0[service + "\n" + account] = nil }
  }
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

    try items.write(Data("{damaged".utf8), service: store.service, account: "session")
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
}
