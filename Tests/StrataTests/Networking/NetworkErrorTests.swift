import Foundation
import StrataTesting
import Testing

@testable import Strata

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@Suite("NetworkError: context, equality, messages")
struct NetworkErrorContextTests {
  @Test func everyFailureNamesItsRequest() async throws {
    let error = await networkError {
      _ = try await makeService(MockTransport.statuses([404]), policy: .none).send(GetUser(id: 7))
    }
    #expect(error?.request == "GET /users/7")
    #expect(error?.kind == .server(status: 404, body: Data("{}".utf8)))
    let text = try #require(error?.localizedDescription)
    #expect(text.hasPrefix("GET /users/7: HTTP 404 ") && text.hasSuffix(" (2 bytes)"), "\(text)")
  }

  @Test func decodingFailuresAreLabelledAndComparable() async {
    let error = await networkError {
      _ = try await makeService(MockTransport.successful(json: #"{"id":"x"}"#)).send(GetUser())
    }
    let expected = NetworkError.DecodingFailure(
      status: 200, codingPath: "id", reason: "expected Int", bodyExcerpt: #"{"id":"x"}"#)
    #expect(error == NetworkError(.decoding(expected), request: "GET /users/1"))
    #expect(error?.underlying is DecodingError)
  }

  @Test func theServerMessageFormatIsPluggable() async {
    let problem = #"{"type":"about:blank","title":"Gone","detail":"user 7 was\ndeleted"}"#
    let standard = await networkError {
      _ = try await makeService(MockTransport.statuses([410], body: problem), policy: .none).send(
        GetUser())
    }
    #expect(standard?.serverMessage == "user 7 was deleted")

    let custom = #"{"message":"User with id '7' not found"}"#
    var configuration = NetworkOptions(
      baseURL: URL(string: "https://api.example")!, deadline: .seconds(300), retryPolicy: .none)
    #expect(
      await networkError {
        _ = try await NetworkService(
          options: configuration, transport: MockTransport.statuses([404], body: custom)
        ).send(GetUser())
      }?.serverMessage == nil, "the default reads problem details only")
    configuration.serverMessageFormat = .jsonField("message")
    let error = await networkError {
      _ = try await NetworkService(
        options: configuration, transport: MockTransport.statuses([404], body: custom)
      ).send(GetUser())
    }
    #expect(error?.serverMessage == "User with id '7' not found")
    #expect(error?.description == "GET /users/1: HTTP 404: User with id '7' not found")

    // A reader of the app's own: a nested message, only for client errors, still sanitised.
    configuration.serverMessageFormat = ServerMessageFormat { status, body in
      struct Answer: Decodable {
        struct Failure: Decodable { let text: String }
        let error: Failure
      }
      guard (400..<500).contains(status) else { return nil }
      return (try? JSONDecoder().decode(Answer.self, from: body))?.error.text
    }
    let nested = #"{"error":{"text":"quota\nexceeded"}}"#
    for (status, message) in [(429, "quota exceeded"), (503, nil)] {
      let error = await networkError {
        _ = try await NetworkService(
          options: configuration, transport: MockTransport.statuses([status], body: nested)
        ).send(GetUser())
      }
      #expect(error?.serverMessage == message)
    }
  }

  @Test func aNonHTTPAnswerIsInvalidResponseNotATransportFailure() async {
    let transport = MockTransport { _, _ in throw URLError(.badServerResponse) }
    let error = await networkError { _ = try await makeService(transport).send(GetUser()) }
    #expect(error == NetworkError(.invalidResponse, request: "GET /users/1"))
  }

  @Test func errorsUsersThrowFromMocksReadWell() {
    let thrown: any Error = NetworkError.unauthorized(.notSignedIn)
    #expect(thrown.localizedDescription == "not signed in: sign in first")
    #expect(
      NetworkError(.unauthorized(.refreshRejected)) != NetworkError.unauthorized(.notSignedIn))
    #expect(NetworkError.server(status: 500) == NetworkError(.server(status: 500, body: Data())))
    #expect(
      NetworkError.refreshFailed(URLError(.timedOut)).localizedDescription
        .hasPrefix("could not refresh the session (it is kept; try again)"))
  }

  @Test func containerErrorsReadWellAndCompare() {
    let error: any Error = DependencyError.notRegistered(service: "Clock", registered: [])
    #expect(error.localizedDescription == "no registration for Clock; registered: nothing")
    #expect(
      DependencyError.circularDependency(path: ["A", "B", "A"])
        == .circularDependency(path: ["A", "B", "A"]))
    let store: any Error = FileError.notRegularFile(path: "/tmp/t", found: "a directory")
    #expect(store.localizedDescription.hasPrefix("refusing to use /tmp/t"))
  }
}

/// Which answers fail a change for good (a refusal) and which keep it waiting, as a table of
/// every 4xx and 5xx status with a JSON and an HTML body. Written out here, not derived from
/// the implementation, so that dropping one status from its rule (409, say: a conflict would
/// then fail a user's change for good) fails a case.
@Suite("ChangeRefused.isRefusal: every status, JSON and HTML")
struct RefusalTableTests {
  /// The 4xx a client cannot fix by sending the same request again later.
  static let waitStatuses: Set<Int> = [
    401,  // a session matter: refreshed, or the user signs in
    403,  // likewise
    407,  // a proxy wants credentials: not the API speaking
    408,  // the server timed out waiting: try again
    409,  // a conflict: may resolve once other changes land
    425,  // too early: try again
    429,  // too many requests: try again later
  ]

  static var cases: [(status: Int, html: Bool)] {
    (400...599).flatMap { [($0, false), ($0, true)] }
  }

  @Test(arguments: cases)
  func verdict(_ status: Int, _ html: Bool) {
    let body = Data((html ? "  <html><body>No</body></html>" : #"{"message":"No"}"#).utf8)
    let error = NetworkError(.server(status: status, body: body))
    let refusal = (400...499).contains(status) && !Self.waitStatuses.contains(status) && !html
    #expect(
      ChangeRefused.isRefusal(error) == refusal, "HTTP \(status) with \(html ? "HTML" : "JSON")")
  }

  @Test func onlyServerAnswersCanBeRefusals() {
    let others: [NetworkError.Kind] = [
      .offline, .deadlineExceeded, .invalidResponse, .transport(URLError(.timedOut)),
      .decoding(.init(status: 400, codingPath: "", reason: "x")), .refreshFailed,
      .unauthorized(.notSignedIn), .responseTooLarge(limit: 1),
      .answeredElsewhere(status: 400, origin: "https://elsewhere"),
    ]
    for kind in others { #expect(!ChangeRefused.isRefusal(NetworkError(kind)), "\(kind)") }
  }
}
