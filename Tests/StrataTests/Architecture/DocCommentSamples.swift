import Foundation
import Strata
import StrataConcurrency
import StrataTesting
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

// The code samples of the library's doc comments, compiled: `DocCommentSampleTests` fails on a
// sample in a doc comment that is not found here word for word (indentation aside). Each sits
// in a function that gives it the names it uses.

private struct Post: Decodable, Sendable {}
private struct NewPost: Codable, Sendable {}

/// A preference of an app's own type, read and written by its own text format.
private struct Percent: Equatable, Sendable {
  let value: Int
  init?(text: String) {
    guard text.hasSuffix("%"), let value = Int(text.dropLast()) else { return nil }
    self.value = value
  }
}

extension Percent: PreferenceValue {
  static var textFormat: TextFormat<Percent> {
    TextFormat(kind: "a percentage (25%)") {
      Percent(text: $0)
    } text: {
      "\($0.value)%"
    }
  }
}
private struct Comments: Decodable, Sendable {}

/// What an app does with a download's progress (a bar's value).
private func show(_ fraction: Double?) {}

/// A repository of an app's, as the samples name one.
private struct UsersClient: Sendable {
  let network: any Networking
}

private struct CommentsClient: Sendable {
  let network: any Networking
  func comments(postId: Int) async throws -> Comments {
    try await network.send(Request<Comments>(path: "posts/\(postId)/comments")).value
  }
}

// Preferences: a key, and an enumeration as a setting's type.
enum Theme: String, CaseIterable, PreferenceValue { case light, dark, system }

private func preferenceKey() -> PreferenceKey<Int> {
  let pageSize = PreferenceKey("page-size", default: 10, in: 1...100)
  return pageSize
}

private final class Counter: Sendable {
  private let value = Lock(0)
  func increment() { value.withLock { $0 += 1 } }
}

private final class Child: Sendable {}
private final class Parent: @unchecked Sendable {
  var child: Child?
}

private func showLogin() {}
private func showNotFound() {}
private func show(_ message: String) {}

extension Log {
  static let payments = Log(category: "payments")
}

private enum DocCommentSamples {
  static func tokenExpiry(accessToken: String, now: Date, requestedLifetime: TimeInterval) -> Date {
    let expiresAt =
      JSONWebTokenClaims(token: accessToken)?.expiresAt
      ?? now.addingTimeInterval(requestedLifetime)
    return expiresAt
  }

  static func options(api: URL) -> NetworkOptions {
    var options = NetworkOptions(baseURL: api, deadline: .seconds(20), retryPolicy: .none)
    options.middleware = [DefaultHeaders(["X-Client": "checkout"])]
    return options
  }

  static func requests(network: NetworkService) async throws {
    enum PostRequests {
      static func get(id: Int) -> Request<Post> { Request(path: "posts/\(id)") }
      static func create(_ new: NewPost) -> Request<Post> {
        Request(path: "posts/add", method: .post, body: .json(new))
      }
    }
    let post = try await network.send(PostRequests.get(id: 1)).value  // a Post
    _ = (post, PostRequests.create(NewPost()))
  }

  static func networking(network: any Networking) async throws {
    struct User: Decodable, Sendable {}
    let user = try await network.send(Request<User>(path: "users/1")).value
    _ = user
  }

  static func download(network: any Networking, file: URL) async throws {
    let request = Request<Data>(path: "files/report.pdf")
    let saved = try await network.download(Download(request, to: file)) { progress in
      show(progress.fraction)  // of the bytes on disk, a resumed part included
    }.value  // once whole
    _ = saved
  }

  static func enqueue(store: LocalStore<NewPost>, body: Data, draft: NewPost) async throws {
    try await store.enqueue { _, _ in .append(kind: "post.create", payload: body, showing: draft) }
  }

  static func owner(network: any Networking, edit: Request<Post>) async throws {
    try await DataOwner.account("emilys").run { try await network.send(edit) }
  }

  static func bodies(draft: NewPost) {
    struct Token: Decodable, Sendable {}
    let create = Request<Post>(path: "posts/add", method: .post, body: .json(draft))
    let token = Request<Token>(
      path: "oauth/token", method: .post, body: .form([("grant_type", "client_credentials")]))
    var photo = MultipartForm()
    photo.add("caption", "Dinner")
    photo.add("photo", file: URL(fileURLWithPath: "dinner.jpg"), contentType: "image/jpeg")
    let upload = Request<EmptyResponse>(path: "photos", method: .post, body: .multipart(photo))
    _ = (create, token, upload)
  }

  static func errors(load: () async throws -> Void) async throws {
    do {
      try await load()
    } catch let error as NetworkError {
      switch error.kind {
      case .unauthorized(.notSignedIn): showLogin()
      case .server(404, _): showNotFound()
      default: show(error.localizedDescription)
      }
    }
  }

  static func countedTransport(_ base: any HTTPTransport, counter: Counter) -> any HTTPTransport {
    struct Counted: HTTPTransport {
      let base: any HTTPTransport
      let counter: Counter
      func send(_ request: URLRequest, body: HTTPBody?, limits: TransferLimits)
        async throws -> (HTTPURLResponse, HTTPBody)
      {
        counter.increment()
        return try await base.send(request, body: body, limits: limits)
      }
    }
    return Counted(base: base, counter: counter)
  }

  static func streamedBody() async throws -> Data {
    let (stream, writer) = HTTPBody.makeStream(length: 5)
    writer.write(Data("hel".utf8))
    writer.write(Data("lo".utf8))
    writer.finish()
    let whole = try await stream.collect(upTo: 1 << 20)  // "hello"
    return whole
  }

  static func middleware(_ options: inout NetworkOptions, config: Config) throws -> Counter {
    struct CountAttempts: HTTPMiddleware {
      let counter: Counter
      func intercept(
        _ request: URLRequest, body: HTTPBody?, attempt: RequestAttempt,
        next: HTTPMiddlewareNext
      ) async throws -> (HTTPURLResponse, HTTPBody) {
        counter.increment()
        return try await next(request, body)
      }
    }
    options.middleware = [DefaultHeaders(["X-API-Key": try config.string("API_KEY")])]
    let counter = Counter()
    options.middleware.append(CountAttempts(counter: counter))
    let har = HARRecorder()
    options.observer = har.observer
    return counter
  }

  static func observers(_ options: inout NetworkOptions) {
    let har = HARRecorder()
    options.observer = .all([har.observer, CallObserver { record in count(record) }])
  }

  static func container(api: URL) throws -> UsersClient {
    let container = DependencyContainer()
    container.register((any Networking).self, scope: .singleton) { _ in
      NetworkService(options: NetworkOptions(baseURL: api))
    }
    container.register(UsersClient.self) { c in UsersClient(network: try c.resolve()) }
    let users: UsersClient = try container.resolve()
    return users
  }

  static func initCompleted(_ container: DependencyContainer) {
    container.register(Child.self) { _ in Child() }
    container.register(Parent.self, scope: .singleton) { _ in Parent() }
      .initCompleted { container, parent in parent.child = try container.resolve(Child.self) }
  }

  static func logging(username: String, path: String, status: Int, user: String) {
    Log.auth.info("signed in as \(username, privacy: .private)")
    Log.networking.info("GET \(path) → \(status)")
    Log.auth.debug("refreshing for \(user, privacy: .private)")
    Log.general.log(
      status >= 500 ? .error : .notice, "checkout failed", fields: ["status": "\(status)"])
    Log.payments.notice("refunded")
  }

  static func gate() async throws {
    let gate = Gate()
    let slow = Task {
      await gate.pass()  // held here
      return "old"
    }
    try await gate.waitUntilEntered()  // it is in flight now
    // … change the world meanwhile, then let it finish:
    gate.open()
    #expect(await slow.value == "old")
  }

  static func recording() async throws {
    let network = RecordingNetworking.answering(["GET posts/1/comments": #"{"comments":[]}"#])
    _ = try await CommentsClient(network: network).comments(postId: 1)
    #expect(network.requests.map(\.line) == ["GET posts/1/comments"])
  }

  static func capturing<E: Endpoint>(service: NetworkService, endpoint: E, token: String)
    async throws
  {
    let capture = CapturingLogSink()
    _ = try await Log.withScope(sink: capture) { try await service.send(endpoint) }
    #expect(!capture.text.contains(token))
  }

  static func transports() -> [MockTransport] {
    let flaky = MockTransport.statuses([503, 503, 200], body: #"{"id":1}"#)
    let fine = MockTransport.successful(json: #"{"id":1}"#)
    let away = MockTransport.failing(URLError(.timedOut))
    return [flaky, fine, away]
  }
}

@Suite("Doc comments: every code sample compiles")
struct DocCommentSampleTests {
  static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  /// Lines without their indentation, joined: what a sample and this file are compared by.
  static func normalised(_ lines: some Sequence<Substring>) -> String {
    lines.map { $0.drop { $0 == " " } }.joined(separator: "\n")
  }

  /// Every ```swift block in the doc comments of the library and its testing kit.
  static func samples() throws -> [(file: String, code: String)] {
    var found: [(String, String)] = []
    for folder in ["Sources/Strata", "Sources/StrataTesting"] {
      let base = root.appendingPathComponent(folder)
      let files = FileManager.default.enumerator(atPath: base.path)?.allObjects as? [String] ?? []
      for file in files where file.hasSuffix(".swift") {
        let text = try String(contentsOf: base.appendingPathComponent(file), encoding: .utf8)
        var block: [Substring]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
          let trimmed = line.drop { $0 == " " }
          guard trimmed.hasPrefix("///") else { continue }
          let content = trimmed.dropFirst(3).drop { $0 == " " }
          if content == "```swift" {
            block = []
          } else if content == "```", let lines = block {
            found.append((folder + "/" + file, normalised(lines)))
            block = nil
          } else if block != nil {
            block?.append(trimmed.dropFirst(trimmed.hasPrefix("/// ") ? 4 : 3))
          }
        }
      }
    }
    return found
  }

  @Test func everySampleIsCompiledHere() throws {
    let compiled = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
    let text = Self.normalised(compiled.split(separator: "\n", omittingEmptySubsequences: false))
    let samples = try Self.samples()
    #expect(samples.count >= 15)
    for sample in samples {
      #expect(text.contains(sample.code), "\(sample.file): a sample not compiled:\n\(sample.code)")
    }
  }
}

// Streams: an event stream and a stream of lines, each shown as an app would.
private func show(_ parts: String...) {}
private func count(_ record: RequestRecord) {}

private func streamSamples(_ network: NetworkService, saved: String?) async throws {
  let feed = Request<Data>(path: "events")
  for try await event in network.stream(feed, as: .events(lastEventID: saved)) {
    show(event.type, event.data)
  }
  for try await line in network.stream(Request<Data>(path: "logs/tail"), as: .lines) {
    show(line)
  }
}

// Queries: an item of an app's with a field to filter on and one to sort by.
private struct Article: Codable, Sendable {
  var userId: Int
  var views: Int
}

private func querySample() -> [ValueQuery<Article>] {
  let query = ValueQuery<Article>(
    where: { $0.userId == 5 }, sortedBy: [.descending(\.views)], limit: 20)
  let byAuthor = ValueIndex<Article>("userId") { $0.userId }
  let theirs = ValueQuery(byAuthor.equals(5), sortedBy: [.descending(\.views)], limit: 20)
  return [query, theirs]
}

// A listing of changes: an app's card and the feed its API answers with.
private struct Card: SyncedItem {
  struct Draft: Codable, Sendable, Equatable { var text: String }
  struct Edit: ItemEdit {
    var text: String?
    func then(_ later: Edit) -> Edit { Edit(text: later.text ?? text) }
    func applied(to card: Card) -> Card { Card(id: card.id, text: text ?? card.text) }
  }
  var id: Int
  var text: String
  static var itemName: String { "card" }
  init(id: Int, text: String) { (self.id, self.text) = (id, text) }
  init(_ draft: Draft) { self.init(id: 0, text: draft.text) }
  var draft: Draft { Draft(text: text) }
}

private struct CardFeed: Decodable, Sendable {
  var cards: [Card]
  var deleted: [Int]
  var next: String
  var more: Bool
}

private struct ChangesSample {
  let network: NetworkService

  func changes(after cursor: String?) async throws -> RemoteChanges<Card>? {
    let feed = try await network.send(
      Request<CardFeed>(path: "cards/changes", query: ["after": cursor])
    ).value
    return RemoteChanges(
      changed: feed.cards, deleted: feed.deleted, cursor: feed.next, more: feed.more)
  }
}
