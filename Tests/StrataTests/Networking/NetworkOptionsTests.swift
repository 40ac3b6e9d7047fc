import Foundation
import Strata
import StrataTesting
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@Suite("NetworkOptions from code and from a config")
struct NetworkOptionsTests {
  static let api = URL(string: "https://api.example.com")!

  @Test func codeBuiltOptionsAreWhatTheServiceUses() async throws {
    let transport = MockTransport.successful(json: #"{"id":1}"#)
    var options = NetworkOptions(
      baseURL: Self.api, deadline: .seconds(9), idleTimeout: .seconds(4), retryPolicy: .none,
      userAgent: "MyApp/2.0", maxResponseSize: 64)
    options.retryPolicy.maxRetries = 0
    #expect(options.deadline == .seconds(9) && options.idleTimeout == .seconds(4))
    #expect(options.userAgent == "MyApp/2.0" && options.maxResponseSize == 64)

    let service = NetworkService(options: options, transport: transport)
    _ = try await service.send(Request<EmptyResponse>(path: "ping"))
    let sent = try #require(transport.requests.first)
    #expect(sent.value(forHTTPHeaderField: "User-Agent") == "MyApp/2.0")
    #expect(sent.timeoutInterval == 4, "the idle timeout is the request's own")
    #expect(transport.limits.first?.deadline ?? .zero <= .seconds(9))
    let over = MockTransport.successful(json: String(repeating: " ", count: 63) + "{}")
    let refused = NetworkService(options: options, transport: over)
    let error = await networkError {
      _ = try await refused.send(Request<EmptyResponse>(path: "ping"))
    }
    #expect(error?.kind == .responseTooLarge(limit: 64), "65 bytes over a limit of 64")
  }

  @Test func theDefaultUserAgentNamesStrataAndTheAppWhenConfigured() throws {
    #expect(NetworkOptions(baseURL: Self.api).userAgent.hasPrefix("Strata/\(strataVersion) ("))
    let config = try Config(parsing: "APP_NAME = MyApp")
    let configured = try NetworkOptions(config: config, baseURL: Self.api)
    #expect(configured.userAgent.hasPrefix("MyApp Strata/\(strataVersion) ("))
  }

  @Test func deadlineAndIdleTimeoutAreReadFromTheirKeys() throws {
    let config = try Config(parsing: "DEADLINE = 20s\nIDLE_TIMEOUT = 3s\nLOG_REVEAL_PRIVATE = YES")
    let options = try NetworkOptions(config: config, baseURL: Self.api)
    #expect(options.deadline == .seconds(20))
    #expect(options.idleTimeout == .seconds(3))
    #expect(options.revealsPersonalData)
    #expect(try !NetworkOptions(config: Config(parsing: ""), baseURL: Self.api).revealsPersonalData)
  }

  /// A renamed key silently ignored would change how long every call waits.
  @Test(arguments: [("RESOURCE_TIMEOUT", "DEADLINE"), ("REQUEST_TIMEOUT", "IDLE_TIMEOUT")])
  func aFormerKeyNameIsAnErrorThatNamesTheNewOne(_ old: String, _ new: String) throws {
    let config = try Config(parsing: "API = x\n\(old) = 5s", name: "app.xcconfig")
    let error = try #require(throws: ConfigError.self) {
      try NetworkOptions(config: config, baseURL: Self.api)
    }
    #expect(error.kind == .renamedKey(key: old, replacement: new))
    #expect(error.location?.file == "app.xcconfig" && error.location?.line == 2)
    #expect(error.message.contains(new))
  }

  /// FoundationNetworking hands curl whole seconds: an idle timeout is rounded up there (never
  /// to 0, which would time out at once) and kept as given elsewhere.
  @Test(arguments: [(300, 1.0), (1000, 1.0), (1200, 2.0), (4000, 4.0)])
  func theIdleTimeoutIsWholeSecondsOnLinux(milliseconds: Int, linux: Double) async throws {
    let transport = MockTransport.successful(json: #"{"id":1}"#)
    let idle = Duration.milliseconds(milliseconds)
    let options = NetworkOptions(baseURL: Self.api, idleTimeout: idle, retryPolicy: .none)
    _ = try await NetworkService(options: options, transport: transport).send(
      Request<EmptyResponse>(path: "ping"))
    #if canImport(FoundationNetworking)
      #expect(transport.requests.first?.timeoutInterval == linux)
    #else
      #expect(transport.requests.first?.timeoutInterval == Double(milliseconds) / 1000)
    #endif
  }
}
