import Foundation
import StrataConcurrency
import StrataTesting
import Testing

@testable import Strata

/// A user's settings: typed, per account, whole on disk, shared safely between processes, and
/// observed.
@Suite("Preferences")
struct PreferencesTests {
  enum Theme: String, CaseIterable, PreferenceValue { case light, dark, system }

  static let pageSize = PreferenceKey("page-size", default: 10, in: 1...100)
  static let offline = PreferenceKey("offline-first", default: false)
  static let ratio = PreferenceKey("ratio", default: 1.5)
  static let name = PreferenceKey("name", default: "")
  static let every = PreferenceKey("every", default: Duration.seconds(30))
  static let theme = PreferenceKey("theme", default: Theme.system, scope: .device)
  static let keys: [any AnyPreferenceKey] = [pageSize, offline, ratio, name, every, theme]

  /// A session whose owner a test changes: a sign-in or sign-out, as preferences see one.
  final class Owner: Authenticator, Sendable {
    let current = Lock(DataOwner.device)
    let origin = Origin("https://api.test")!
    func session() async throws -> SessionMark {
      SessionMark(token: nil, owner: current.withLock { $0 })
    }
    func refresh(rejectedToken: String) async throws -> String {
      throw NetworkError.unauthorized(.notSignedIn)
    }
    func owner() async -> DataOwner { current.withLock { $0 } }
  }

  struct Place {
    let directory = NSTemporaryDirectory() + "strata-prefs-\(UUID().uuidString)"
    let owner = Owner()
    func preferences(_ keys: [any AnyPreferenceKey] = PreferencesTests.keys) -> Preferences {
      Preferences(
        app: "test", origin: Origin("https://api.test")!, keys: keys, session: owner,
        directory: directory)
    }
    func remove() { try? FileManager.default.removeItem(atPath: directory) }
    var files: [String] {
      (FileManager.default.enumerator(atPath: directory)?.allObjects as? [String] ?? [])
        .filter { $0.hasSuffix(".json") }.sorted()
    }
  }

  @Test func everyTypeIsKeptAndReadBackExactly() async throws {
    let place = Place()
    defer { place.remove() }
    let preferences = place.preferences()
    #expect(try await preferences.value(Self.pageSize) == 10, "the default until set")
    try await preferences.set(Self.pageSize, to: 25)
    try await preferences.set(Self.offline, to: true)
    try await preferences.set(Self.ratio, to: 0.25)
    try await preferences.set(Self.name, to: "Émile \"quoted\"\n")
    try await preferences.set(Self.every, to: .milliseconds(250))
    try await preferences.set(Self.theme, to: .dark)
    let reopened = place.preferences()
    #expect(try await reopened.value(Self.pageSize) == 25)
    #expect(try await reopened.value(Self.offline))
    #expect(try await reopened.value(Self.ratio) == 0.25)
    #expect(try await reopened.value(Self.name) == "Émile \"quoted\"\n")
    #expect(try await reopened.value(Self.every) == .milliseconds(250))
    #expect(try await reopened.value(Self.theme) == .dark)
    #expect(try await reopened.set("offline-first", to: "no") == "false", "kept as its own text")
    let entries = try await reopened.entries()
    #expect(entries.map(\.origin) == [.owner, .owner, .owner, .owner, .owner, .device])
    try await reopened.reset("page-size")
    #expect(try await reopened.entries().first?.origin == nil, "the default: nothing set")
  }

  /// An account's settings are its own; the device's are everyone's on this device.
  @Test func eachAccountHasItsOwnAndTheDeviceItsOwn() async throws {
    let place = Place()
    defer { place.remove() }
    let preferences = place.preferences()
    place.owner.current.withLock { $0 = .account("user-1") }
    try await preferences.set(Self.pageSize, to: 50)
    try await preferences.set(Self.theme, to: .light)
    place.owner.current.withLock { $0 = .account("user-2") }
    #expect(try await preferences.value(Self.pageSize) == 10, "not the other account's")
    #expect(try await preferences.value(Self.theme) == .light, "the device's")
    place.owner.current.withLock { $0 = .device }
    #expect(try await preferences.value(Self.pageSize) == 10, "not an account's when signed out")
    place.owner.current.withLock { $0 = .account("user-1") }
    #expect(try await preferences.value(Self.pageSize) == 50)
    #expect(place.files.count == 2)
  }

  /// Unknown, of the wrong type, out of range, 10 MB: refused with what is allowed, and
  /// nothing written — not even a file.
  @Test func badInputIsRefusedAndNothingIsWritten() async throws {
    let place = Place()
    defer { place.remove() }
    let preferences = place.preferences()
    let cases: [(String, String, PreferenceError)] = [
      ("pagesize", "3", .unknown(name: "pagesize", known: Self.keys.map(\.name))),
      ("page-size", "three", .invalid(name: "page-size", text: "three", allowed: "a whole number")),
      (
        "page-size", "101",
        .invalid(name: "page-size", text: "101", allowed: "a whole number from 1 to 100")
      ),
      (
        "page-size", "99999999999999999999999",
        .invalid(name: "page-size", text: "99999999999999999999999", allowed: "a whole number")
      ),
      (
        "theme", "blue",
        .invalid(name: "theme", text: "blue", allowed: "one of light, dark, system")
      ),
      (
        "every", "5 minutes",
        .invalid(name: "every", text: "5 minutes", allowed: Duration.textFormat.kind)
      ),
      ("ratio", "nan", .invalid(name: "ratio", text: "nan", allowed: "a number")),
      ("name", String(repeating: "x", count: 10_000_000), .tooLong(name: "name", limit: 1_024)),
      ("name", String(repeating: "é", count: 1_025), .tooLong(name: "name", limit: 1_024)),
    ]
    for (name, text, expected) in cases {
      await #expect(throws: expected) { try await preferences.set(name, to: text) }
    }
    #expect(place.files.isEmpty)
    let longest = String(repeating: "é", count: 1_024)
    #expect(try await preferences.set("name", to: longest) == longest, "the longest accepted")
  }

  /// A file that is not a settings file is moved aside, read as empty (the defaults apply),
  /// and the next write makes a good one.
  /// A settings folder others can read (0755, made by someone else's tool) is refused, read
  /// or written: nothing of the user's goes where others can list it.
  @Test func aFolderOthersCanReadIsRefused() async throws {
    let place = Place()
    defer { place.remove() }
    try FileManager.default.createDirectory(
      atPath: place.directory, withIntermediateDirectories: true,
      attributes: [.posixPermissions: 0o755])
    let preferences = place.preferences()
    await #expect(throws: FileError.self) { try await preferences.set(Self.theme, to: .dark) }
    await #expect(throws: FileError.self) { try await preferences.value(Self.theme) }
    #expect(!FileManager.default.fileExists(atPath: place.directory + "/device.json"))
  }

  @Test func aDamagedFileIsSetAsideAndTheDefaultsApply() async throws {
    let place = Place()
    defer { place.remove() }
    let preferences = place.preferences()
    try await preferences.set(Self.pageSize, to: 20)
    let file = place.directory + "/" + (place.files.first ?? "")
    try Data("{\"page-size\": 2".utf8).write(to: URL(fileURLWithPath: file))
    #expect(try await preferences.value(Self.pageSize) == 10)
    let aside = try FileManager.default.contentsOfDirectory(
      atPath: (file as NSString).deletingLastPathComponent)
    #expect(aside.contains { $0.contains(".json.damaged-") }, "\(aside)")
    try await preferences.set(Self.offline, to: true)
    #expect(try await place.preferences().value(Self.offline))
  }

  /// Writers at once — two instances, as two processes would be, sixteen keys — lose none of
  /// each other's keys.
  @Test func writersAtOnceKeepEachOthersKeys() async throws {
    let place = Place()
    defer { place.remove() }
    let many = (0..<16).map { PreferenceKey("key-\($0)", default: 0) }
    let first = place.preferences(many)
    let second = place.preferences(many)
    try await withThrowingTaskGroup(of: Void.self) { group in
      for (index, key) in many.enumerated() {
        let writer = index.isMultiple(of: 2) ? first : second
        group.addTask { try await writer.set(key, to: index + 1) }
      }
      try await group.waitForAll()
    }
    for (index, key) in many.enumerated() {
      #expect(try await place.preferences(many).value(key) == index + 1)
    }
  }

  /// A change made through the watched instance is told at once, not at the next look at the
  /// files (an hour away here); one that changes nothing is not told.
  @Test(.timeLimit(.minutes(5))) func aChangeMadeHereIsToldAtOnce() async throws {
    let place = Place()
    defer { place.remove() }
    let preferences = place.preferences()
    var updates = await preferences.updates(checkingEvery: .seconds(3_600)).makeAsyncIterator()
    try await preferences.set(Self.pageSize, to: 42)
    #expect(await updates.next() == ["page-size"])
    try await preferences.set(Self.pageSize, to: 42)  // the same: nothing changed
    try await preferences.reset("page-size")
    #expect(await updates.next() == ["page-size"], "the reset, not the repeat")
  }

  /// What another instance (a process, a screen) changes, and a sign-in, reach a watcher.
  @Test(.timeLimit(.minutes(5))) func aWatcherHearsOfChangesMadeElsewhere() async throws {
    let place = Place()
    defer { place.remove() }
    let watched = place.preferences()
    var changes = await watched.updates(checkingEvery: .milliseconds(5)).makeAsyncIterator()
    try await place.preferences().set(Self.pageSize, to: 42)
    #expect(await changes.next() == ["page-size"])
    place.owner.current.withLock { $0 = .account("user-9") }
    #expect(await changes.next() == ["page-size"], "another owner: its own value")
  }
}
