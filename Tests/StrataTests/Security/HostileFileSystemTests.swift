import Foundation
import StrataConcurrency
import StrataTesting
import Testing

@testable import Strata

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Every file the library writes, against a hostile file system: a link planted where the file
/// goes, a directory in its place, another user's file. Nothing is written through a link,
/// nothing is read from one, and each refusal is one sentence naming the path.
@Suite("A hostile file system: links, directories and others' files are refused")
struct HostileFileSystemTests {
  static let body = Array((0..<1_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })

  static func answer(
    _ url: URL?, status: Int = 200, _ fields: [String: String] = [:], _ bytes: [UInt8] = body
  ) -> (Data, HTTPURLResponse) {
    // Force-unwrapped: this initialiser fails only for a status outside 100…999.
    let response = HTTPURLResponse(
      url: url ?? URL(fileURLWithPath: "/"), statusCode: status, httpVersion: "HTTP/1.1",
      headerFields: fields)!
    return (Data(bytes), response)
  }

  /// A `200` announcing the whole body (tag `"v1"`) that brings only its first `count` bytes.
  static func cut(_ url: URL?, after count: Int) -> (Data, HTTPURLResponse) {
    answer(url, ["Content-Length": "1000", "ETag": "\"v1\""], Array(body.prefix(count)))
  }

  /// A `206` with `body[range]`; `total` nil says `/*`.
  static func rest(_ url: URL?, _ range: Range<Int>, total: Int? = 1_000)
    -> (Data, HTTPURLResponse)
  {
    let whole = total.map(String.init) ?? "*"
    return answer(
      url, status: 206,
      [
        "Content-Range": "bytes \(range.lowerBound)-\(range.upperBound - 1)/\(whole)",
        "ETag": "\"v1\"",
      ],
      Array(body[range]))
  }

  /// A target some other file of the user's: what a planted link points at.
  static func target(_ folder: TemporaryDirectory) throws -> String {
    try folder.write("precious.txt", "keep me")
  }

  static func download(
    _ transport: MockTransport, to path: String, resumes: Bool = true,
    request: Request<Data> = Request(path: "file.bin")
  ) async throws -> NetworkResponse<URL> {
    try await makeService(transport).download(
      Download(request, to: URL(fileURLWithPath: path), resumes: resumes))
  }

  static func refusal(_ body: () async throws -> Void) async -> FileError? {
    do {
      try await body()
      return nil
    } catch {
      return error as? FileError
    }
  }

  // MARK: Downloads

  /// A link at the part, at the record or at the destination: refused before anything is
  /// sent, the link's target untouched.
  @Test(arguments: [".part", ".part.resume", ""])
  func aLinkBesideOrAtTheDestinationIsRefused(suffix: String) async throws {
    let folder = try TemporaryDirectory()
    let precious = try Self.target(folder)
    let file = folder.path + "/out.bin"
    try FileManager.default.createSymbolicLink(atPath: file + suffix, withDestinationPath: precious)
    let transport = MockTransport { request, _ in Self.answer(request.url) }
    let refused = await Self.refusal { _ = try await Self.download(transport, to: file) }
    #expect(refused == .notRegularFile(path: file + suffix, found: "a symbolic link"))
    #expect(transport.requestCount == 0)
    #expect(try String(contentsOfFile: precious, encoding: .utf8) == "keep me")
  }

  /// A directory where the part or its record goes: refused before anything is sent, and
  /// left as it is.
  @Test(arguments: [".part", ".part.resume", ".part.lock"])
  func aDirectoryBesideTheDestinationIsRefused(suffix: String) async throws {
    let folder = try TemporaryDirectory()
    let file = folder.path + "/out.bin"
    try FileManager.default.createDirectory(
      atPath: file + suffix, withIntermediateDirectories: false)
    let transport = MockTransport { request, _ in Self.answer(request.url) }
    let refused = await Self.refusal { _ = try await Self.download(transport, to: file) }
    #expect(refused == .notRegularFile(path: file + suffix, found: "a directory"))
    #expect(transport.requestCount == 0)
    var isDirectory: ObjCBool = false
    #expect(FileManager.default.fileExists(atPath: file + suffix, isDirectory: &isDirectory))
    #expect(isDirectory.boolValue)
  }

  /// A link swapped in at the part after the checks: opened without following, so the write
  /// fails and the target is untouched.
  @Test func aLinkSwappedInDuringTheDownloadIsNotWrittenThrough() async throws {
    let folder = try TemporaryDirectory()
    let precious = try Self.target(folder)
    let file = folder.path + "/out.bin"
    let transport = MockTransport { request, _ in
      try? FileManager.default.createSymbolicLink(
        atPath: file + ".part", withDestinationPath: precious)
      return Self.answer(request.url, ["Content-Length": "1000"])
    }
    let refused = await Self.refusal { _ = try await Self.download(transport, to: file) }
    #expect(refused == .notRegularFile(path: file + ".part", found: "a symbolic link"))
    #expect(try String(contentsOfFile: precious, encoding: .utf8) == "keep me")
    #expect(!FileManager.default.fileExists(atPath: file))
  }

  /// `""`, `.`, `/`, an existing folder, a path ending in `/`: refused before any request.
  @Test func aDestinationNamingADirectoryIsRefusedBeforeSending() async throws {
    let folder = try TemporaryDirectory()
    try FileManager.default.createDirectory(
      atPath: folder.path + "/sub", withIntermediateDirectories: false)
    let transport = MockTransport { request, _ in Self.answer(request.url) }
    for path in ["", ".", "/", folder.path + "/sub", folder.path + "/new/", folder.path + "/.."] {
      let refused = await Self.refusal { _ = try await Self.download(transport, to: path) }
      guard case .notRegularFile(_, let found) = refused else {
        Issue.record("\(path): \(String(describing: refused))")
        continue
      }
      #expect(found == "a directory", "\(path)")
    }
    #expect(transport.requestCount == 0)
    #expect(!FileManager.default.fileExists(atPath: folder.path + "/sub.part"))
    #expect(!FileManager.default.fileExists(atPath: "/.part"))
  }

  /// Another user's part: refused (its bytes are not the user's to continue).
  @Test func anotherUsersPartIsRefused() async throws {
    guard geteuid() == 0 else { return }  // only root can give a file away
    let folder = try TemporaryDirectory()
    let file = folder.path + "/out.bin"
    let part = try folder.write("out.bin.part", "theirs")
    #expect(chown(part, 4242, 4242) == 0)
    let transport = MockTransport { request, _ in Self.answer(request.url) }
    let refused = await Self.refusal { _ = try await Self.download(transport, to: file) }
    #expect(refused == .foreignOwner(path: part, owner: 4242))
  }

  /// Two downloads to one file: the second is refused while the first runs, and the first
  /// finishes whole; the lock beside the part is gone afterwards.
  @Test func oneDownloadPerDestinationAtATime() async throws {
    let folder = try TemporaryDirectory()
    let file = folder.path + "/out.bin"
    let gate = Gate()
    let transport = MockTransport { request, number in
      if number == 1 { await gate.pass() }
      return Self.answer(request.url, ["Content-Length": "1000"])
    }
    let first = Task { try await Self.download(transport, to: file) }
    try await gate.waitUntilEntered()
    let refused = await Self.refusal { _ = try await Self.download(transport, to: file) }
    #expect(refused == .busy(path: file))
    #expect(refused.map { "\($0)" }?.contains("another download to") == true)
    gate.open()
    _ = try await first.value
    #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == Data(Self.body))
    #expect(!FileManager.default.fileExists(atPath: file + ".part.lock"))
    #expect(transport.requestCount == 1)
  }

  /// The resume record holds neither the URL's password nor its query, is 0600, and still
  /// lets the next run continue the same URL.
  @Test func theResumeRecordKeepsNoSecretAndIsPrivate() async throws {
    let folder = try TemporaryDirectory()
    let file = folder.path + "/out.bin"
    let url = "https://user:hunter2pass@files.example/f.bin?access_token=sekrit-token-1"
    let transport = MockTransport { request, number in
      if number == 1 {  // cut: 400 of the 1,000 bytes announced
        return Self.cut(request.url, after: 400)
      }
      #expect(request.value(forHTTPHeaderField: "Range") == "bytes=400-")
      #expect(request.value(forHTTPHeaderField: "If-Range") == "\"v1\"")
      return Self.answer(
        request.url, status: 206,
        ["Content-Range": "bytes 400-999/1000", "ETag": "\"v1\"", "Content-Length": "600"],
        Array(Self.body[400...]))
    }
    let service = makeService(transport, policy: .none)
    let download = Download(Request(path: url), to: URL(fileURLWithPath: file))
    _ = try? await service.download(download)
    let record = try String(contentsOfFile: file + ".part.resume", encoding: .utf8)
    for secret in ["hunter2pass", "sekrit-token-1", "access_token", "files.example"] {
      #expect(!record.contains(secret), "the record holds \(secret)")
    }
    let mode =
      try FileManager.default.attributesOfItem(atPath: file + ".part.resume")[
        .posixPermissions] as? Int
    #expect(mode == 0o600)
    let resumed = try await service.download(download)
    #expect(resumed.status == 206)
    #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == Data(Self.body))
  }

  /// A `…/*` 206 that stops short of the length the first answer announced is not the whole
  /// file: the next attempt asks for the rest.
  @Test func aShortResumeIsNotWholeUntilTheFirstLengthArrives() async throws {
    let folder = try TemporaryDirectory()
    let file = folder.path + "/out.bin"
    let transport = MockTransport { request, number in
      switch number {
      case 1:
        return Self.cut(request.url, after: 400)
      case 2:  // 200 more, of a total it does not say
        return Self.rest(request.url, 400..<600, total: nil)
      default:
        #expect(request.value(forHTTPHeaderField: "Range") == "bytes=600-")
        return Self.rest(request.url, 600..<1_000)
      }
    }
    let saved = try await Self.download(transport, to: file)
    #expect(saved.status == 206 && transport.requestCount == 3)
    #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == Data(Self.body))
  }

  /// A body shorter than its `Content-Length` from a transport that does not notice (not
  /// URLSession): the download sees it, and the retry resumes.
  @Test func aBodyShorterThanAnnouncedIsResumedEvenWhenTheTransportMissesIt() async throws {
    let folder = try TemporaryDirectory()
    let file = folder.path + "/out.bin"
    let transport = MockTransport { request, number in
      number == 1
        ? Self.cut(request.url, after: 600)
        : Self.rest(request.url, 600..<1_000)
    }
    let saved = try await Self.download(transport, to: file)
    #expect(transport.requestCount == 2 && saved.status == 206)
    #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == Data(Self.body))
  }

  /// A `416` to a resume: the part is dropped and the file asked for whole.
  @Test func aRefusedRangeStartsOver() async throws {
    let folder = try TemporaryDirectory()
    let file = folder.path + "/out.bin"
    let transport = MockTransport { request, number in
      switch number {
      case 1:
        return Self.cut(request.url, after: 300)
      case 2: return Self.answer(request.url, status: 416, ["Content-Range": "bytes */10"], [])
      default:
        #expect(request.value(forHTTPHeaderField: "Range") == nil)
        return Self.answer(request.url, ["Content-Length": "1000", "ETag": "\"v2\""])
      }
    }
    let saved = try await Self.download(transport, to: file)
    #expect(saved.status == 200 && transport.requestCount == 3)
    #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == Data(Self.body))
  }

  /// A `206` no one asked for: one sentence, no `URLError -1`, nothing saved.
  @Test func anUnusablePartialAnswerIsOneSentence() async throws {
    let folder = try TemporaryDirectory()
    let file = folder.path + "/out.bin"
    let transport = MockTransport { request, _ in
      Self.answer(request.url, status: 206, ["Content-Range": "bytes 5-9/10"], [1, 2, 3, 4, 5])
    }
    let error = await networkError { _ = try await Self.download(transport, to: file) }
    let text = error.map { "\($0)" } ?? ""
    #expect(text.contains("partial answer (206) does not continue the file"), "\(text)")
    #expect(!text.contains("URLError"))
    #expect(!FileManager.default.fileExists(atPath: file))
  }

  /// The record of a download counts the bytes written to its file.
  @Test func theRecordCountsTheDownloadsBytes() async throws {
    let folder = try TemporaryDirectory()
    let records = Lock<[RequestRecord]>([])
    var options = NetworkOptions(baseURL: URL(string: "https://api.example")!)
    options.observer = CallObserver { record in records.withLock { $0.append(record) } }
    let service = NetworkService(
      options: options,
      transport: MockTransport { request, _ in
        Self.answer(request.url, ["Content-Length": "1000"])
      })
    _ = try await service.download(
      Download(Request(path: "f"), to: URL(fileURLWithPath: folder.path + "/f")))
    #expect(records.withLock { $0.map(\.bytesReceived) } == [1_000])
  }

  /// A download refused unsent (signed out) tells no progress.
  @Test func aDownloadRefusedUnsentTellsNoProgress() async throws {
    let folder = try TemporaryDirectory()
    let progress = Lock(0)
    let request = Request<Data>(path: "f", requiresAuth: true)
    let transport = MockTransport { request, _ in Self.answer(request.url) }
    let session = AuthSession(
      origin: try #require(Origin(URL(string: "https://api.example")!)),
      store: InMemoryTokenStore())
    let error = await networkError {
      _ = try await makeService(transport, authenticator: session).download(
        Download(request, to: URL(fileURLWithPath: folder.path + "/f"))
      ) { _ in progress.withLock { $0 += 1 } }
    }
    #expect(error?.kind == .unauthorized(.notSignedIn))
    #expect(progress.withLock { $0 } == 0 && transport.requestCount == 0)
  }

  /// A call's progress handler is shut when the call returns: a transport's late report
  /// reaches nobody.
  @Test func aProgressGateIsShutWhenTheCallReturns() {
    let told = Lock(0)
    let (gate, report) = ProgressGate.around { _ in told.withLock { $0 += 1 } }
    report?(TransferProgress(.receiving, completed: 1, total: 2))
    gate?.close()
    report?(TransferProgress(.receiving, completed: 2, total: 2))
    #expect(told.withLock { $0 } == 1)
    #expect(ProgressGate.around(nil).1 == nil, "no handler, nothing to report through")
  }

  /// The destination gets the user's umask (it is the user's file, like curl's); the part
  /// and the record while it arrives are the library's, 0600.
  @Test func theDestinationTakesTheUmaskAndThePartStaysPrivate() async throws {
    let folder = try TemporaryDirectory()
    let file = folder.path + "/out.bin"
    let transport = MockTransport { request, _ in
      Self.answer(request.url, ["Content-Length": "1000", "ETag": "\"v1\""])
    }
    _ = try await Self.download(transport, to: file)
    let mode = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int
    #expect(mode == Int(PrivateFile.userFileMode))
    #expect(Int(PrivateFile.userFileMode) & 0o600 == 0o600)
  }

  // MARK: The library's other files

  /// A link at a cache entry is never read, and a store removes it rather than write
  /// through it.
  @Test func aLinkAtACacheEntryIsNeitherReadNorWrittenThrough() async throws {
    let folder = try TemporaryDirectory()
    let precious = try Self.target(folder)
    let cache = HTTPCache(
      app: "hostile", origin: Origin(URL(string: "https://api.example")!)!,
      environment: ["XDG_CACHE_HOME": folder.path])
    let directory = try #require(cache.directory)
    var options = NetworkOptions(baseURL: URL(string: "https://api.example")!)
    options.cache = cache
    let service = NetworkService(
      options: options,
      transport: MockTransport { request, _ in
        Self.answer(
          request.url, ["Content-Type": "application/json", "Cache-Control": "max-age=60"],
          Array(#"{"id":1}"#.utf8))
      })
    _ = try await service.send(Request<Data>(path: "items/1"))
    let listed = try FileManager.default.contentsOfDirectory(atPath: directory)
    let names = listed.filter { $0.hasSuffix(".entry") }
    #expect(!names.isEmpty, "\(listed)")
    let entry = directory + "/" + (try #require(names.first))
    try FileManager.default.removeItem(atPath: entry)
    try FileManager.default.createSymbolicLink(atPath: entry, withDestinationPath: precious)
    let fresh = HTTPCache(
      app: "hostile", origin: Origin(URL(string: "https://api.example")!)!,
      environment: ["XDG_CACHE_HOME": folder.path])
    options.cache = fresh
    let again = NetworkService(
      options: options,
      transport: MockTransport { request, _ in
        Self.answer(
          request.url, ["Content-Type": "application/json", "Cache-Control": "max-age=60"],
          Array(#"{"id":2}"#.utf8))
      })
    let answer = try await again.send(Request<Data>(path: "items/1"))
    #expect(answer.value == Data(#"{"id":2}"#.utf8), "the link was not read as an answer")
    #expect(try String(contentsOfFile: precious, encoding: .utf8) == "keep me")
  }

  /// A link at the cache's index or its key file: nothing written through it.
  @Test(arguments: ["index", "vary.key", "index.lock"])
  func aLinkAtTheCachesOwnFilesIsNotWrittenThrough(name: String) async throws {
    let folder = try TemporaryDirectory()
    let precious = try Self.target(folder)
    let cache = HTTPCache(
      app: "hostile", origin: Origin(URL(string: "https://api.example")!)!,
      environment: ["XDG_CACHE_HOME": folder.path])
    let directory = try #require(cache.directory)
    _ = PrivateFile.checkDirectory(directory, create: true, ownerOnly: true)
    try FileManager.default.createSymbolicLink(
      atPath: directory + "/" + name, withDestinationPath: precious)
    var options = NetworkOptions(baseURL: URL(string: "https://api.example")!)
    options.cache = cache
    let service = NetworkService(
      options: options,
      transport: MockTransport { request, _ in
        Self.answer(
          request.url,
          ["Content-Type": "application/json", "Cache-Control": "max-age=60", "Vary": "Cookie"],
          Array(#"{"id":1}"#.utf8))
      })
    var request = Request<Data>(path: "items/1")
    request.headers["Cookie"] = "a=b"
    _ = try await service.send(request)
    _ = cache.count
    #expect(try String(contentsOfFile: precious, encoding: .utf8) == "keep me")
  }

  /// A link or a directory at the preferences file: refused, nothing written through it.
  @Test func aLinkAtThePreferencesFileIsRefused() async throws {
    let folder = try TemporaryDirectory()
    let precious = try Self.target(folder)
    let directory = folder.path + "/prefs"
    #expect(PrivateFile.makeDirectory(directory) == nil)
    let path = directory + "/settings.json"
    try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: precious)
    let file = PreferencesFile(path: path)
    await #expect(throws: FileError.notRegularFile(path: path, found: "a symbolic link")) {
      _ = try await file.update { $0["a"] = "b" }
    }
    #expect(try String(contentsOfFile: precious, encoding: .utf8) == "keep me")
  }

  /// A FIFO planted where the library reads or writes — the preferences file, a store's
  /// snapshot and journal, a session file — is refused at once: opening one without a writer
  /// would wait for ever.
  @Test(.timeLimit(.minutes(1)))  // a hang guard
  func aFIFOWhereAFileGoesIsRefusedWithoutWaiting() async throws {
    let folder = try TemporaryDirectory()
    let directory = folder.path + "/data"
    #expect(PrivateFile.makeDirectory(directory) == nil)
    let fifo = { (name: String) -> String in
      let path = directory + "/" + name
      #expect(mkfifo(path, 0o600) == 0)
      return path
    }
    let settings = fifo("settings.json")
    await #expect(throws: FileError.notRegularFile(path: settings, found: "a pipe")) {
      _ = try await PreferencesFile(path: settings).update { $0["a"] = "b" }
    }
    let snapshot = fifo("posts.snapshot")
    await #expect(throws: FileError.notRegularFile(path: snapshot, found: "a pipe")) {
      _ = try await LocalStore<Int>(path: directory + "/posts").records()
    }
    let session = fifo("session.json")
    #expect(throws: FileError.notRegularFile(path: session, found: "a pipe")) {
      _ = try FileTokenStore(path: session).load()
    }
  }

  /// A directory at the preferences file: refused, left as it is.
  @Test func aDirectoryAtThePreferencesFileIsRefused() async throws {
    let folder = try TemporaryDirectory()
    let directory = folder.path + "/prefs"
    #expect(PrivateFile.makeDirectory(directory + "/settings.json") == nil)
    let path = directory + "/settings.json"
    await #expect(throws: FileError.notRegularFile(path: path, found: "a directory")) {
      _ = try await PreferencesFile(path: path).update { $0["a"] = "b" }
    }
  }

  /// A private directory and every missing parent are made 0700 from the start (a parent
  /// made by the umask's rule would be 0755), whatever the umask.
  @Test func privateDirectoriesAreMadePrivateInOneStep() throws {
    let folder = try TemporaryDirectory()
    let deep = folder.path + "/a/b/c"
    #expect(PrivateFile.makeDirectory(deep) == nil)
    for path in [folder.path + "/a", folder.path + "/a/b", deep] {
      let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
      #expect(mode == 0o700, "\(path)")
    }
    #expect(PrivateFile.makeDirectory(deep) == nil, "an existing one is fine")
  }

  /// A file the library opens must be the user's regular file: a link, a directory, a pipe
  /// or another user's file is named as such, and `O_TRUNC` empties nothing it refuses.
  @Test func theOneOpenRefusesWhatIsNotTheUsersFile() throws {
    let folder = try TemporaryDirectory()
    let precious = try Self.target(folder)
    let link = folder.path + "/link"
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: precious)
    #expect(throws: FileError.notRegularFile(path: link, found: "a symbolic link")) {
      _ = try PrivateFile.open(link, O_WRONLY | O_TRUNC)
    }
    #expect(throws: FileError.notRegularFile(path: link, found: "a symbolic link")) {
      _ = try PrivateFile.create(link)
    }
    #expect(throws: FileError.notRegularFile(path: folder.path, found: "a directory")) {
      _ = try PrivateFile.open(folder.path, O_RDONLY)
    }
    if geteuid() == 0 {
      let theirs = try folder.write("theirs", "their words")
      #expect(chown(theirs, 4242, 4242) == 0)
      #expect(throws: FileError.foreignOwner(path: theirs, owner: 4242)) {
        _ = try PrivateFile.open(theirs, O_WRONLY | O_TRUNC)
      }
      #expect(try String(contentsOfFile: theirs, encoding: .utf8) == "their words")
    }
    #expect(try String(contentsOfFile: precious, encoding: .utf8) == "keep me")
    let made = folder.path + "/made"
    let fd = try #require(try PrivateFile.create(made))
    close(fd)
    let mode = try FileManager.default.attributesOfItem(atPath: made)[.posixPermissions] as? Int
    #expect(mode == 0o600)
    #expect(try PrivateFile.create(made) == nil, "taken: nil")
    let nowhere = folder.path + "/missing/new"
    #expect(throws: FileError.io(path: nowhere, operation: "open", errno: ENOENT)) {
      _ = try PrivateFile.create(nowhere)
    }
  }
}
