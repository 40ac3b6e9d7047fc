import Foundation
import Strata
import StrataSandbox
import StrataTesting
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Hostile numbers and sizes at every numeric input of the core: each is a clear error or a
/// value in range, never a trap.
@Suite("Extreme inputs")
struct ExtremeInputTests {
  static let extremes = [
    "0", "-1", "9223372036854775807", "-9223372036854775808", "9223372036854775808", "1e300",
    "99999999999999999999", "", "١٢٣", "+2", " 5", "nan", "inf", "0x10", "1_000",
  ]

  @Test(arguments: extremes)
  func configNumbersAreValuesInRangeOrConfigErrors(_ value: String) throws {
    for text in [value, value + "s", value + "ms", value + "h", value + "MiB"] {
      let config = try Config(
        parsing: """
          DEADLINE = "\(text)"
          RETRY_MAX_RETRIES = "\(text)"
          RETRY_BASE_DELAY = "\(text)"
          RETRY_MAX_DELAY = "\(text)"
          MAX_RESPONSE_SIZE = "\(text)"
          """)
      for key in ["DEADLINE", "RETRY_MAX_RETRIES", "MAX_RESPONSE_SIZE"] {
        _ = try? config.int(Config.Key(key))
        _ = try? config.duration(Config.Key(key))
        _ = try? config.byteCount(Config.Key(key))
        _ = try? config.double(Config.Key(key))
      }
      do {
        let network = try NetworkOptions(
          config: config, baseURL: URL(string: "https://api.example")!)
        #expect(network.retryPolicy.maxRetries <= 100)
        #expect(network.deadline <= NetworkOptions.longestTimeout)
        #expect(network.maxResponseSize >= 1)
      } catch let error as ConfigError {
        #expect(error.location != nil, "\(error)")
        #expect(error.description.count < 300, "an error quotes at most ~80 characters")
      }
    }
  }

  @Test(arguments: [10, 20, 30, 40])
  func billionLaughsIsAConfigErrorNotAnExplosion(_ depth: Int) throws {
    var lines = ["LAUGH_0 = \(String(repeating: "ha", count: 1_024))"]
    for level in 1...depth {
      lines.append("LAUGH_\(level) = $(LAUGH_\(level - 1))$(LAUGH_\(level - 1))")
    }
    do {
      _ = try Config(parsing: lines.joined(separator: "\n"))
      Issue.record("depth \(depth) expanded to 2^\(depth) KiB without an error")
    } catch let error as ConfigError {
      guard case .valueTooLarge = error.kind else {
        Issue.record("expected .valueTooLarge, got \(error)")
        return
      }
      #expect(error.description.contains("MiB"))
    }
  }

  @Test func aHugeLineWithoutEqualsIsQuotedShort() throws {
    let key = String(repeating: "K", count: 200_000)
    #expect {
      _ = try Config(parsing: key + "\n")
    } throws: { error in
      (error as? ConfigError).map { $0.description.count < 300 } ?? false
    }
  }

  @Test func anEndlessTimeoutIsNoTrap() async throws {
    // A deadline of ~292 billion years: the watchdog saturates instead of overflowing.
    let service = makeService(
      MockTransport.successful(json: userJSON), timeout: .seconds(Int64.max))
    #expect(try await service.send(GetUser()).value.id == 1)
  }

  @Test func aDeadlineThatFiresAtOnceIsNeverLost() async throws {
    let server = SandboxServer()
    try server.start()
    defer { server.stopAndWait() }
    let transport = URLSessionTransport()
    for _ in 0..<50 {
      var request = URLRequest(url: server.baseURL.appendingPathComponent("users/1"))
      request.url = URL(string: server.baseURL.absoluteString + "/users/1?delay=2000")
      await #expect(throws: URLError.self) {
        _ = try await transport.send(request, body: nil, limits: TransferLimits(deadline: .zero))
      }
    }
  }
}
