import DemoKitTesting
import Foundation
import Strata
import StrataSandbox
import StrataTesting
import Testing

/// The core against a sandbox that serves what the real DummyJSON serves: users with every
/// personal field, tokens in cookies as well as in the body.
@Suite("Against the real service's shapes (real URLSession)")
struct RealServiceShapesTests {
  /// The personal values of one served user, read without logging.
  struct PersonalFields: Decodable, Sendable {
    struct Bank: Decodable { let cardNumber: String, iban: String, cardExpire: String }
    struct Crypto: Decodable { let wallet: String }
    let password: String
    let ssn: String
    let ein: String
    let ip: String
    let macAddress: String
    let birthDate: String
    let bank: Bank
    let crypto: Crypto

    var values: [String] {
      [password, ssn, ein, ip, macAddress, birthDate, bank.cardNumber, bank.iban, crypto.wallet]
    }
  }

  struct GetPersonalFields: Endpoint {
    var request: Request<PersonalFields> { Request(path: "users/7") }
  }

  /// `/auth/me` sent without the session: only a cookie jar could sign it in.
  struct AnonymousMe: Endpoint {
    var request: Request<TestUser> { Request(path: "auth/me") }
  }

  @Test func personalFieldsOfServedUsersNeverReachTheLogsAtAnyLevel() async throws {
    let server = SandboxServer()
    try server.start()
    defer { server.stopAndWait() }
    let service = sandboxService(server)
    let personal = try await service.send(GetPersonalFields()).value.values
    let capture = CapturingLogSink()
    try await Log.withScope(sink: capture, levels: .all) {
      _ = try await service.send(GetPersonalFields())
    }
    #expect(capture.text.contains("response body"), "bodies were logged at trace")
    for value in personal { #expect(!capture.text.contains(value), "\(value) was logged") }
  }

  @Test func cookiesTheServerSetsAreNeverKeptOrSent() async throws {
    let server = SandboxServer()
    try server.start()
    defer { server.stopAndWait() }
    let service = sandboxService(server)
    // Answered with accessToken/refreshToken cookies.
    _ = try await service.send(DummyJSONAuth.login(expiresInSeconds: 60))
    let error = await networkError { _ = try await service.send(AnonymousMe()) }
    guard case .unauthorized? = error?.kind else {
      Issue.record("expected a 401 (no session), got \(String(describing: error))")
      return
    }
    let sent = try #require(server.journal.entries.last)
    #expect(sent.path == "/auth/me" && sent.header("Cookie") == nil)
  }

  @Test func aTokenTheServerCannotVerifyIsRenewedOnceNotRetriedAsA500() async throws {
    let (server, login, _) = try await HostileServerTests.signedInSandbox()
    defer { server.stopAndWait() }
    let signature = login.accessToken.split(separator: ".").last ?? ""
    let forged = login.accessToken.dropLast(signature.count) + "AAAA" + signature.dropFirst(4)
    let plain = sandboxService(server)
    let session = sandboxSession(
      server, plain,
      DummyJSONAuth.Tokens(accessToken: String(forged), refreshToken: login.refreshToken))
    var configuration = NetworkOptions(baseURL: server.baseURL, deadline: .seconds(300))
    configuration.credentialRejection = CredentialRejection { status, body in
      status == 401
        || (status == 500 && String(decoding: body, as: UTF8.self).contains("invalid signature"))
    }
    let service = NetworkService(
      options: configuration, transport: sharedTransport, authenticator: session)
    #expect(try await service.send(GetMe()).value.firstName == "Emily")
    #expect(server.journal.count(method: "GET", path: "/auth/me") == 2, "500, then 200")
    #expect(server.journal.count(method: "POST", path: "/auth/refresh") == 1)

    // Without the rule the 500 is a server error, retried as one: what users met before.
    let standard = sandboxService(
      server,
      authenticator: sandboxSession(
        server, plain,
        DummyJSONAuth.Tokens(accessToken: String(forged), refreshToken: login.refreshToken)))
    let error = await networkError { _ = try await standard.send(GetMe()) }
    guard case .server(500, _) = error?.kind else {
      Issue.record("expected 500, got \(String(describing: error))")
      return
    }
    #expect(server.journal.count(method: "GET", path: "/auth/me") == 2 + 4, "1 + 3 retries")
  }
}
