import DemoKit
import Foundation
import Strata
import StrataTesting
import Testing

@Suite("AppEnvironment: one key picks every default")
struct AppEnvironmentTests {
  @Test(arguments: AppEnvironment.allCases)
  func theEnvironmentFillsWhatTheFileLeavesOut(_ environment: AppEnvironment) throws {
    let loaded = try Config(parsing: "ENVIRONMENT = \(environment)\nRETRY_MAX_RETRIES = 7")
    let (resolved, config) = try AppEnvironment.resolve(loaded, fallback: .debug)
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
    let (resolved, config) = try AppEnvironment.resolve(Config(parsing: ""), fallback: .production)
    #expect(resolved == .production)
    #expect(try config.string(.environment) == "production")
    #expect(try config.url(.api).absoluteString == "https://dummyjson.com")
  }

  @Test func anUnknownNameIsAConfigErrorWithItsLocation() throws {
    let loaded = try Config(parsing: "\nENVIRONMENT = staging", name: "app.xcconfig")
    let error = try #require(throws: ConfigError.self) { try AppEnvironment.resolve(loaded) }
    #expect(
      error.description
        == "app.xcconfig:2:1: ENVIRONMENT: expected one of debug, testing, production, got 'staging'"
    )
  }

  @Test func theTestingFileSaysTesting() throws {
    let file =
      URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().path + "/Config/Testing.xcconfig"
    let (resolved, config) = try AppEnvironment.resolve(Config(file: file, environment: [:]))
    #expect(resolved == .testing)
    #expect(try config.string(.logLevel) == "warning")
    #expect(try config.string(.api) == "sandbox")
  }

  @Test func theContainerKnowsItsEnvironment() throws {
    let (_, config) = try AppEnvironment.resolve(
      Config(parsing: "ENVIRONMENT = testing\nAPI = http://127.0.0.1:9"))
    #expect(try DemoContainer.make(config: config).resolve(AppEnvironment.self) == .testing)
  }
}
