// snippet.types
import Foundation
import Strata

struct Post: Codable, Sendable {
  var id: Int?
  var title: String
  var userId: Int
}

struct Posts: Decodable, Sendable {
  let posts: [Post]
  let total: Int
}

struct SignedIn: Decodable, Sendable {
  let id: Int
  let accessToken: String
  let refreshToken: String
}

struct Login: Encodable, Sendable {
  let username: String
  let password: String
}
// snippet.end

// snippet.keys
extension Config.Key {
  static let api: Config.Key = "API"
  static let pageSize: Config.Key = "PAGE_SIZE"
}
// snippet.end

// snippet.hide
func run() async throws {
  // snippet.show
  // snippet.config
  // A file layer if one is named; MYAPP_<KEY> variables override it.
  let config = try Config(
    file: CommandLine.arguments.dropFirst().first, environmentPrefix: "MYAPP_",
    defaults: [.api: "https://dummyjson.com", .appName: "MyApp"])
  let pageSize = try config.int(.pageSize, default: 20, in: 1...100)
  try Log.bootstrap(config: config)  // LOG_LEVEL, LOG_LEVEL_<CATEGORY>, LOG_FORMAT
  config.logDiagnostics()  // duplicate keys, absent optional includes
  let log = Log(category: "app")
  // snippet.end

  // snippet.network
  let api = try config.url(.api)
  guard let origin = Origin(api) else { throw URLError(.badURL) }  // http(s) only
  var options = try NetworkOptions(config: config, baseURL: api)  // DEADLINE, IDLE_TIMEOUT, RETRY_*
  options.deadline = .seconds(20)  // code has the last word
  options.retryPolicy.maxRetries = 2
  // Where the API explains a refusal: DummyJSON says `{"message": "Invalid credentials"}`,
  // which then reads "HTTP 400: Invalid credentials", not "HTTP 400 Bad Request (33 bytes)".
  options.serverMessageFormat = .jsonField("message")
  options.observer = CallObserver { record in
    guard let retry = record.retry else { return }
    log.notice(
      "\(record.request): retry \(retry.number)/\(retry.maxRetries) in \(Int(retry.delayMilliseconds)) ms"
    )
  }
  let session = AuthSession(origin: origin, store: FileTokenStore(app: "MyApp", origin: origin))
  let network = NetworkService(options: options, authenticator: session)
  // snippet.end

  // snippet.signin
  // From the environment here; an app asks its user (never a config file: a secret).
  let password = ProcessInfo.processInfo.environment["MYAPP_PASSWORD"] ?? ""
  if await !session.isSignedIn {
    let login = Request<SignedIn>(
      path: "auth/login", method: .post, body: .json(Login(username: "emilys", password: password)))
    let tokens = try await network.send(login).value
    // The account (an id, never a token) is whom the cache and the stores keep data for.
    try await session.signIn(
      Credentials(
        accessToken: tokens.accessToken, refreshToken: tokens.refreshToken,
        lifetime: .seconds(3600), owner: .account("user-\(tokens.id)")))
  }
  // snippet.end

  // snippet.requests
  do {
    let posts = Request<Posts>(
      path: "posts", query: ["limit": String(pageSize)], requiresAuth: true)
    let page = try await network.send(posts).value
    log.info("\(page.posts.count) of \(page.total) posts")
  } catch let error as NetworkError {
    switch error.kind {
    case .unauthorized: log.warning("signed out: \(error)")
    case .decoding(let failure):
      log.error(
        "\(error.request ?? "?"): HTTP \(failure.status), no value at \(failure.codingPath)")
    default: log.error("\(error)")  // `GET /posts: HTTP 503: …`
    }
  }
  // snippet.end

  // snippet.offline
  // The signed-in account's own store (the device's when signed out): it never lists or sends
  // another account's changes.
  let owner = await session.owner()
  let store = LocalStore<Post>(app: "MyApp", origin: origin, name: "posts", owner: owner)
  let draft = Post(title: "Written offline", userId: 1)
  let body = try JSONEncoder().encode(draft)
  try await store.enqueue { _, _ in .append(kind: "post.create", payload: body, showing: draft) }

  let outcomes = try await store.sync(
    progress: { step, entry in
      log.info("sending \(step.completed + 1) of \(step.total ?? 0): \(entry.kind)")
    },
    send: { entry in
      guard entry.kind == "post.create" else { throw ChangeRefused("unknown change \(entry.kind)") }
      let create = Request<Post>(
        path: "posts/add", method: .post,
        body: .json(try JSONDecoder().decode(Post.self, from: entry.payload)), requiresAuth: true,
        idempotencyKey: entry.idempotencyKey)
      let created = try await network.send(create).value
      // The server's key for it: kept beside the post's own key on the device, never in its
      // place, so two posts the server answers with one id stay two.
      return LocalStore.Settled(key: "post-\(created.id ?? 0)", value: created)
    })
  for outcome in outcomes {
    log.info(
      "\(outcome.entry.kind): \(outcome.entry.status) after \(outcome.entry.attempts) send(s)")
  }
  // snippet.end
  // snippet.hide
}

// snippet.show
// snippet.errors
do {
  try await run()
} catch {
  // What went wrong, in a sentence, and a failure status: never a trap.
  FileHandle.standardError.write(Data("myapp: \(error)\n".utf8))
  exit(1)
}
// snippet.end
