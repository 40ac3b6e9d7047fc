import Foundation
import Strata
import StrataConcurrency
import StrataTesting
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The HTTP cache keeps only what the app can use, and a `304` freshens only the answer it
/// names (RFC 9111 §4.3.4).
@Suite("HTTP cache: only usable answers, 304 by the book")
struct UsableAnswersTests {
  private static let user = #"{"id":1,"firstName":"Emily"}"#
  private static let portal = "<html><body>Sign in to the Wi-Fi</body></html>"

  /// A server script: each request answered by `answer(request, index)`.
  private static func server(
    _ answer: @escaping @Sendable (URLRequest, Int) -> (Int, String, [String: String])
  ) -> MockTransport {
    MockTransport { request, index in
      let (status, body, headers) = answer(request, index)
      return try MockTransport.response(request, status: status, body: body, headers: headers)
    }
  }

  /// A memory cache on a clock that stands still, and a service without retries.
  private static func service(_ transport: MockTransport) -> (NetworkService, HTTPCache) {
    let cache = HTTPCache(now: { Date(timeIntervalSince1970: 1_800_000_000) })
    var options = NetworkOptions(
      baseURL: URL(string: "https://api.example")!, deadline: .seconds(300), retryPolicy: .none)
    options.cache = cache
    return (NetworkService(options: options, transport: transport, clock: ManualClock()), cache)
  }

  private static func condition(_ request: URLRequest?) -> String? {
    request?.value(forHTTPHeaderField: "If-None-Match")
  }

  /// A captive portal's page (200, cacheable) fails to decode and is not kept: the next read
  /// asks again, and the API's answer then is kept.
  @Test func anAnswerThatDoesNotDecodeIsNotKept() async throws {
    let transport = Self.server { _, index in
      (200, index == 1 ? Self.portal : Self.user, ["Cache-Control": "max-age=600"])
    }
    let (network, cache) = Self.service(transport)
    await #expect(throws: NetworkError.self) { try await network.send(GetUser()) }
    #expect(cache.count == 0)
    #expect(try await network.send(GetUser()).source == .network)
    #expect(try await network.send(GetUser()).source == .cache(age: 0))
    #expect(transport.requestCount == 2)
  }

  /// A kept answer read as a type it does not decode into is dropped, and the server asked.
  @Test func aKeptAnswerThatNoLongerDecodesIsDropped() async throws {
    struct Other: Decodable, Sendable { let title: String }
    let transport = Self.server { _, index in
      (200, index == 1 ? Self.user : #"{"title":"t"}"#, ["Cache-Control": "max-age=600"])
    }
    let (network, cache) = Self.service(transport)
    _ = try await network.send(GetUser())
    #expect(try await network.send(Request<Other>(path: "users/1")).value.title == "t")
    #expect(transport.requestCount == 2, "the kept answer was not the last word")
    #expect(cache.count == 1, "the server's new answer is kept in its place")
  }

  /// `bypass` reads nothing kept, and its answer replaces what was.
  @Test func aBypassReadReplacesWhatIsKept() async throws {
    let transport = Self.server { _, index in
      (200, #"{"id":1,"firstName":"V\#(index)"}"#, ["Cache-Control": "max-age=600"])
    }
    let (network, _) = Self.service(transport)
    #expect(try await network.send(GetUser()).value.firstName == "V1")
    var bypass = Request<TestUser>(path: "users/1")
    bypass.cachePolicy = .bypass
    #expect(try await network.send(bypass).value.firstName == "V2")
    let after = try await network.send(GetUser())
    #expect(after.source == .cache(age: 0) && after.value.firstName == "V2")
  }

  /// A 304 that says `no-store` answers this read and leaves nothing kept.
  @Test func aNoStore304LeavesNothingKept() async throws {
    let transport = Self.server { _, index in
      index == 1
        ? (200, Self.user, ["Cache-Control": "no-cache", "ETag": "\"a\""])
        : (304, "", ["Cache-Control": "no-store", "ETag": "\"a\""])
    }
    let (network, cache) = Self.service(transport)
    _ = try await network.send(GetUser())
    let again = try await network.send(GetUser())
    #expect(again.source == .revalidated && again.value.firstName == "Emily")
    #expect(cache.count == 0)
  }

  /// A 304 naming another representation is not merged onto the kept body: the kept answer
  /// goes, and the read asks again without a validator.
  @Test func a304ForAnotherTagIsNotMerged() async throws {
    let transport = Self.server { request, index in
      switch index {
      case 1: (200, Self.user, ["Cache-Control": "no-cache", "ETag": "\"a\""])
      case 2: (304, "", ["ETag": "\"b\""])
      default:
        (200, #"{"id":1,"firstName":"Emma"}"#, ["Cache-Control": "no-cache", "ETag": "\"b\""])
      }
    }
    let (network, _) = Self.service(transport)
    _ = try await network.send(GetUser())
    let again = try await network.send(GetUser())
    #expect(again.source == .network && again.value.firstName == "Emma")
    #expect(transport.requests.map(Self.condition) == [nil, "\"a\"", nil])
  }

  /// A weak 304 tag compares weakly; a strong one names only the same strong tag (a kept weak
  /// tag is not it).
  @Test(arguments: [
    ("W/\"a\"", "\"a\"", false), ("\"a\"", "W/\"a\"", true), ("W/\"a\"", "W/\"a\"", true),
    ("\"a\"", "\"a\"", true), ("W/\"a\"", "W/\"b\"", false),
  ])
  func validatorsAreComparedAsTheRFCSays(kept: String, answered: String, selected: Bool)
    async throws
  {
    let transport = Self.server { _, index in
      index == 1
        ? (200, Self.user, ["Cache-Control": "no-cache", "ETag": kept])
        : index == 2
          ? (304, "", ["ETag": answered]) : (200, Self.user, ["Cache-Control": "no-cache"])
    }
    let (network, _) = Self.service(transport)
    _ = try await network.send(GetUser())
    let source = try await network.send(GetUser()).source
    #expect((source == .revalidated) == selected, "\(kept) kept, 304 with \(answered)")
  }

  /// A 304 to a request that named no kept answer is not an answer.
  @Test func a304ToAnUnconditionalRequestIsInvalid() async throws {
    let (network, _) = Self.service(Self.server { _, _ in (304, "", [:]) })
    let error = await #expect(throws: NetworkError.self) { try await network.send(GetUser()) }
    #expect(error?.kind == .invalidResponse)
  }

  /// A 70 KB `ETag` is never sent back; a conditional request refused (431) drops what was
  /// kept, so the next read goes without a validator.
  @Test func oversizedOrRefusedValidatorsAreDropped() async throws {
    let huge = "\"" + String(repeating: "x", count: 70_000) + "\""
    let transport = Self.server { request, index in
      if index == 1 { return (200, Self.user, ["Cache-Control": "max-age=0", "ETag": huge]) }
      if index == 2 { return (200, Self.user, ["Cache-Control": "no-cache", "ETag": "\"a\""]) }
      if Self.condition(request) != nil { return (431, "", [:]) }
      return (200, Self.user, ["Cache-Control": "no-cache", "ETag": "\"a\""])
    }
    let (network, cache) = Self.service(transport)
    _ = try await network.send(GetUser())
    #expect(cache.count == 1, "kept, for its lifetime, without the validator")
    _ = try await network.send(GetUser())
    #expect(Self.condition(transport.requests[1]) == nil, "the 70 KB tag never went out")
    await #expect(throws: NetworkError.self) { try await network.send(GetUser()) }
    #expect(Self.condition(transport.requests[2]) == "\"a\"" && cache.count == 0)
    _ = try await network.send(GetUser())
    #expect(Self.condition(transport.requests[3]) == nil)
  }
}
