import Foundation
import Strata
import StrataTesting
import Testing

@Suite("FileTokenStore")
struct FileTokenStoreTests {
  static let credentials = Credentials(
    accessToken: "tok-file", refreshToken: "ref-file",
    expiresAt: Date(timeIntervalSince1970: 1_900_000_000))

  static func mode(_ path: String) throws -> Int {
    (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?
      .intValue ?? -1
  }

  @Test func roundTripWithOwnerOnlyPermissions() throws {
    let directory = try TemporaryDirectory()
    let store = FileTokenStore(path: directory.path + "/app/credentials.json")
    #expect(try store.load() == nil)
    try store.save(Self.credentials)
    #expect(try store.load() == Self.credentials)
    #expect(try Self.mode(store.path) == 0o600)
    #expect(try Self.mode(directory.path + "/app") == 0o700)
    try store.clear()
    #expect(try store.load() == nil)
    try store.clear()
  }

  @Test func refusesAFileOthersCanRead() throws {
    let directory = try TemporaryDirectory()
    let store = FileTokenStore(path: directory.path + "/credentials.json")
    try store.save(Self.credentials)
    try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: store.path)
    #expect(throws: FileError.readableByOthers(path: store.path, mode: 0o644)) {
      try store.load()
    }
  }

  @Test func tornFileReadsAsSignedOutAndCanBeRewritten() throws {
    let directory = try TemporaryDirectory()
    let store = FileTokenStore(path: directory.path + "/credentials.json")
    try store.save(Self.credentials)
    let full = try Data(contentsOf: URL(fileURLWithPath: store.path))
    try full.prefix(full.count / 2).write(to: URL(fileURLWithPath: store.path))
    try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: store.path)
    #expect(try store.load() == nil)
    // A crashed writer's leftover temporary file must not matter.
    try directory.write("credentials.json.tmp-999-1", "{\"accessToken\":")
    try store.save(Self.credentials)
    #expect(try store.load() == Self.credentials)
    #expect(try Self.mode(store.path) == 0o600)
  }

  /// A damaged file is warned about once however often a run reads it (a `logout` reads it
  /// three times), and again once it is damaged anew.
  @Test func aDamagedFileIsWarnedAboutOnce() throws {
    let directory = try TemporaryDirectory()
    let store = FileTokenStore(path: directory.path + "/credentials.json")
    let capture = CapturingLogSink()
    try Log.withScope(sink: capture) {
      try directory.write("credentials.json", "{\"accessToken\":")
      try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: store.path)
      for _ in 0..<3 { #expect(try store.load() == nil) }
      #expect(capture.records(category: "auth", level: .warning).count == 1)
      try FileManager.default.removeItem(atPath: store.path)
      try directory.write("credentials.json", "garbage, again")
      try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: store.path)
      #expect(try store.load() == nil)
    }
    #expect(capture.records(category: "auth", level: .warning).count == 2)
  }

  @Test func credentialsNeverPrintTokens() {
    var dumped = ""
    dump(Self.credentials, to: &dumped)
    for text in [
      Self.credentials.description, String(reflecting: Self.credentials), dumped,
      "\(Self.credentials)",
    ] {
      #expect(!text.contains("tok-file") && !text.contains("ref-file"))
    }
  }
}
