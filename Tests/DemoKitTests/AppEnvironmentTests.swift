import DemoKit
import Foundation
import Strata
import StrataTesting
import Testing

@Suite("AppEnvironment: one key picks every default")
struct AppEnvironmentTests {
  @Test(arguments: AppEnvironment.allCases)
  func theEnvironmentFillsWhatTheFileLeavesOut(_ environment: AppEnvironment) throws {
    let (resolved, config) = try AppEnvironment.resolve(fallback: .debug) { defaults in
      try Config(
        parsing: "ENVIRONMENT = \(environment)\nRETRY_MAX_RETRIES = 7", defaults: defaults)
    }
    #expect(resolved == environment)
    #expect(try config.int(.retryMaxRetries, default: 0) == 7, "the file wins")
    for (key, value) in environment.defaults where ![.retryMaxRetries, .environment].contains(key) {
      #expect(try config.string(key) == value, "\(key)")
      #expect(config.value(key)?.origin == .defaults)
    }
  }

  @Test func eachEnvironmentSaysWhatItIsFor() {
    #expect(AppEnvironment.debug.defaults[.api] == "sandbox")
    #expect(AppEnvironment.testing.defaults[.tokenStore] == "memory")
    #expect(AppEnvironment.testing.defaults[.retryMaxRetries] == "1")
    #expect(AppEnvironment.production.defaults[.api] == "https://dummyjson.com")
    #expect(AppEnvironment.production.defaults[.logLevel] == "notice")
    #if DEBUG
      #expect(AppEnvironment.buildDefault == .debug)
    #else
      #expect(AppEnvironment.buildDefault == .production)
    #endif
  }

  @Test func withoutTheKeyTheBuildDecides() throws {
    let (resolved, config) = try AppEnvironment.resolve(fallback: .production) {
      try Config(parsing: "", defaults: $0)
    }
    #expect(resolved == .production)
    #expect(try config.string(.environment) == "production")
    #expect(try config.url(.api).absoluteString == "https://dummyjson.com")
  }

  @Test func anUnknownNameIsAConfigErrorWithItsLocation() throws {
    let error = try #require(throws: ConfigError.self) {
      try AppEnvironment.resolve {
        try Config(parsing: "\nENVIRONMENT = staging", name: "app.xcconfig", defaults: $0)
      }
    }
    #expect(
      error.description
        == "app.xcconfig:2:1: ENVIRONMENT: expected one of debug, testing, production, got 'staging'"
    )
  }

  @Test func theTestingFileSaysTesting() throws {
    let file =
      URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().path + "/Config/Testing.xcconfig"
    let (resolved, config) = try AppEnvironment.resolve {
      try Config(file: file, environment: [:], defaults: $0)
    }
    #expect(resolved == .testing)
    #expect(try config.string(.logLevel) == "warning")
    #expect(try config.string(.api) == "sandbox")
  }

  /// A file's `$(API)` sees the API of the environment it names, not the fallback's: the
  /// named environment's defaults are a layer of the configuration, loaded with it.
  @Test func aReferenceSeesTheNamedEnvironmentsDefaults() throws {
    let (resolved, config) = try AppEnvironment.resolve(fallback: .debug) {
      try Config(parsing: "ENVIRONMENT = production\nUSERS = $(API)/users", defaults: $0)
    }
    #expect(resolved == .production)
    #expect(try config.string("USERS") == "https://dummyjson.com/users")
  }

  @Test func theContainerKnowsItsEnvironment() throws {
    let (_, config) = try AppEnvironment.resolve {
      try Config(parsing: "ENVIRONMENT = testing\nAPI = http://127.0.0.1:9", defaults: $0)
    }
    #expect(try DemoContainer.make(config: config).resolve(AppEnvironment.self) == .testing)
  }
}
