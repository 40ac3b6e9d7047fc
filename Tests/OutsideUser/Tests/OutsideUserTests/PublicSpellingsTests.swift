import Foundation
import Strata
import StrataTesting
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// What an app's own tests build with Strata's public API alone: a decoding failure its
/// test double throws, an empty answer, a log record to check a sink with, and the
/// configuration's diagnostics as values.
@Suite("An outside app's tests")
struct PublicSpellingsTests {
  /// A repository's test double that fails as a garbled server would.
  struct FailingUsers {
    func user(_ id: Int) throws -> String {
      let failure = NetworkError.DecodingFailure(
        status: 200, codingPath: "firstName", reason: "expected a string", bodyExcerpt: "{}")
      throw NetworkError(.decoding(failure), request: "GET /users/\(id)")
    }
  }

  @Test func aTestDoubleThrowsADecodingFailure() {
    let error = #expect(throws: NetworkError.self) { try FailingUsers().user(1) }
    guard case .decoding(let failure)? = error?.kind else {
      Issue.record("not a decoding failure: \(String(describing: error))")
      return
    }
    #expect(failure.codingPath == "firstName" && failure.status == 200)
    #expect(failure.description.contains("could not decode 'firstName'"))
  }

  struct DeletePost: Endpoint {
    var request: Request<EmptyResponse> { Request(path: "posts/1", method: .delete) }
  }

  @Test func anAnswerWithoutABodyIsEmptyResponse() async throws {
    let transport = MockTransport { request, _ in
      try MockTransport.response(request, status: 204, body: "")
    }
    let service = NetworkService(
      options: NetworkOptions(baseURL: URL(string: "https://api.example")!), transport: transport)
    let deleted = try await service.send(DeletePost())
    #expect(deleted.value == EmptyResponse() && deleted.status == 204 && deleted.source == .network)
  }

  /// A sink an app writes (to forward records elsewhere) is tested with records it makes.
  final class Forwarding: LogSink, @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    func log(_ record: LogRecord) {
      lock.withLock { lines.append("\(record.level) \(record.category): \(record.message)") }
    }
    var forwarded: [String] { lock.withLock { lines } }
  }

  @Test func aSinkIsTestedWithRecordsItMakes() {
    let sink = Forwarding()
    sink.log(LogRecord(level: .error, category: "payments", message: "declined"))
    #expect(sink.forwarded == ["error payments: declined"])
  }

  @Test func theConfigurationsDiagnosticsAreValues() throws {
    let config = try Config(
      parsing: "A = 1\n#include? \"missing.xcconfig\"\nA = 2\n", name: "/app/App.xcconfig")
    #expect(config.duplicates.map(\.key) == ["A"])
    #expect(config.duplicates.first?.winner.line == 3)
    #expect(config.duplicates.first.map { $0.previous.file == $0.winner.file } == true)
    #expect(config.skippedIncludes.map(\.line) == [2])
  }
}
