import Foundation
import Strata
import StrataSandbox
import Testing

/// The README's "Using it" example, verbatim but for the file (the API is the sandbox's, via
/// `--set`-style overrides), so the documentation cannot drift from the API.
@Suite("README example")
struct ReadmeExampleTests {
  struct User: Decodable, Sendable {
    let id: Int
    let firstName: String
  }

  enum UsersEndpoints {
    struct Get: Endpoint {
      typealias Response = User
      let id: Int
      var path: String { "users/\(id)" }
    }
  }

  @Test func theUsingItExampleRuns() async throws {
    let server = SandboxServer()
    try server.start()
    let release =
      URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().path + "/Config/Release.xcconfig"

    let config = try Config(file: release, overrides: ["API": server.baseURL.absoluteString])
    let network = NetworkService(
      configuration: try NetworkConfiguration(config: config, baseURL: config.url(.api)))
    let user = try await network.send(UsersEndpoints.Get(id: 1))  // a User, no annotation

    #expect(user.firstName == "Emily")
    #expect(try config.string(.logLevel) == "notice")
    await server.stop()
  }
}
