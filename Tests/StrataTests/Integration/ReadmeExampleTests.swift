import Foundation
import Strata
import StrataSandbox
import Testing

extension Config.Key {
  static let api: Config.Key = "API"  // the app's keys sit beside Strata's own
}

/// The first request with the checked-in Release configuration, its API overridden with the
/// sandbox's: the file's values reach the service (`DocumentationTests` runs the README's own
/// sample, a snippet).
@Suite("First request with the Release configuration")
struct ReadmeExampleTests {
  struct User: Decodable, Sendable {
    let id: Int
    let firstName: String
  }

  enum UserRequests {
    static func get(id: Int) -> Request<User> { Request(path: "users/\(id)") }
  }

  @Test func theUsingItExampleRuns() async throws {
    try await withSandbox { server in
      let release =
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path + "/Config/Release.xcconfig"

      let config = try Config(file: release, overrides: ["API": server.baseURL.absoluteString])
      let network = NetworkService(
        options: try NetworkOptions(config: config, baseURL: config.url(.api)))
      let user = try await network.send(UserRequests.get(id: 1)).value  // a User, no annotation

      #expect(user.firstName == "Emily")
      #expect(try config.string(.logLevel) == "notice")
      #expect(network.options.idleTimeout == .seconds(30), "IDLE_TIMEOUT is honoured")
    }
  }

  /// `IDLE_TIMEOUT` bounds one attempt's wait for data, apart from the overall deadline.
  @Test func idleTimeoutEndsAStalledAttempt() async throws {
    let server = SandboxServer()
    try server.start()
    defer { server.stopAndWait() }
    // The server stays silent for 60 s (the longest a fault delays), then answers; the deadline
    // is 5 minutes: only the attempt's own timeout can end the call with a timeout.
    server.faults.add(.init(path: "/users/1", action: .delay(.seconds(60))))
    let config = try Config(
      parsing: """
        API = \(server.baseURL.absoluteString)
        IDLE_TIMEOUT = 300ms
        DEADLINE = 300s
        RETRY_MAX_RETRIES = 0
        """)
    // Its own session: the abandoned transfer's tear-down must not hold up other tests.
    let network = NetworkService(
      options: try NetworkOptions(config: config, baseURL: config.url(.api)),
      transport: URLSessionTransport())
    let started = ContinuousClock.now
    let error = await networkError { _ = try await network.send(UserRequests.get(id: 1)) }
    guard case .transport(let urlError) = error?.kind else {
      Issue.record("expected a timeout, got \(String(describing: error))")
      return
    }
    #expect(urlError.code == .timedOut)
    let waited = ContinuousClock.now - started
    // 300 ms (on Linux: 1 s, the whole seconds FoundationNetworking honours), not at once.
    #expect(waited >= .milliseconds(250), "it waited for the silence: \(waited)")
  }
}
