import Foundation
import Strata
import StrataTesting
import Testing

/// Every probe hides a distinct secret value in one place the redactor must cover; none may
/// survive into the redacted text.
@Suite("Redaction table")
struct RedactionTableTests {
  struct Probe: Sendable, CustomTestStringConvertible {
    enum Place: Sendable {
      case header(String)
      case query(String)
      case json(String)
      case userInfo
      case fragment
    }
    let place: Place
    let secret: String

    var testDescription: String { "\(place)" }

    /// The redacted text of wherever the secret was put.
    func redacted(by redactor: Redactor) -> String {
      switch place {
      case .header(let name):
        return redactor.redact(headers: [name: secret]).map { "\($0.key): \($0.value)" }
          .joined()
      case .query(let name):
        let url = URL(string: "https://api.example/p?page=2&\(name)=\(secret)")!
        return redactor.redact(url: url)
      case .json(let path):
        // `a.b` nests the field one level down, inside an array for good measure.
        let parts = path.split(separator: ".").map(String.init)
        var leaf: [String: Any] = ["id": 7]
        leaf[parts[parts.count - 1]] = secret
        var object: [String: Any] = leaf
        if parts.count > 1 { object = [parts[0]: [leaf] as [Any]] }
        let data = (try? JSONSerialization.data(withJSONObject: object)) ?? Data()
        return redactor.redact(body: data)
      case .userInfo:
        return redactor.redact(url: URL(string: "https://emily:\(secret)@api.example/users")!)
      case .fragment:
        return redactor.redact(
          url: URL(string: "https://api.example/cb#access_token=\(secret)&state=1")!)
      }
    }
  }

  static let headerNames = [
    "Authorization", "authorization", "AUTHORIZATION", "Proxy-Authorization", "Cookie",
    "Set-Cookie", "X-API-Key", "x-api-key", "Api-Key", "X-Auth-Token", "X-Access-Token",
    "Private-Token", "X-CSRF-Token", "X-Amz-Security-Token", "X-Goog-Api-Key",
    "X-Upstream-Token", "X-Refresh-Token", "X-Client-Secret", "X_Api_Key",
  ]
  static let queryNames = [
    "token", "access_token", "refresh_token", "api_key", "apikey", "key", "auth", "jwt",
    "password", "secret", "client_secret", "signature", "sig", "id_token", "session_token",
  ]
  static let jsonPaths = [
    "accessToken", "refreshToken", "token", "password", "authorization", "jwt", "sessionToken",
    "cookie", "private_key", "access_key", "passwd", "client_secret", "apiKey", "secret",
    "nested.accessToken", "nested.Refresh-Token", "user.password", "bank.cardNumber",
    "bank.iban", "crypto.wallet", "ssn", "ein", "ip", "macAddress", "bank.cardExpire",
    "user.birthDate",
  ]

  static let probes: [Probe] = {
    var probes: [Probe] = []
    var number = 0
    func next() -> String {
      number += 1
      return "s3cr3tvalue\(number)x"
    }
    probes += headerNames.map { Probe(place: .header($0), secret: next()) }
    probes += queryNames.map { Probe(place: .query($0), secret: next()) }
    probes += jsonPaths.map { Probe(place: .json($0), secret: next()) }
    probes += [Probe(place: .userInfo, secret: next()), Probe(place: .fragment, secret: next())]
    return probes
  }()

  @Test func thereAreAtLeastSixtyProbes() { #expect(Self.probes.count >= 60) }

  @Test(arguments: probes)
  func noProbeLeaks(_ probe: Probe) {
    let text = probe.redacted(by: .standard)
    #expect(!text.contains(probe.secret), "\(probe.place) leaked: \(text)")
    #expect(text.contains(Redactor.placeholder), "\(text)")
  }

  @Test func ordinaryValuesSurvive() throws {
    let body = Data(#"{"id":7,"firstName":"Emily","email":"e@x","nested":{"page":2}}"#.utf8)
    let text = Redactor.standard.redact(body: body)
    #expect(text.contains("Emily") && text.contains("\"page\":2") && text.contains("e@x"))
    let url = try #require(URL(string: "https://api.example/users?limit=5&skip=10"))
    #expect(Redactor.standard.redact(url: url) == "https://api.example/users?limit=5&skip=10")
    #expect(
      Redactor.standard.redact(headers: ["Accept": "application/json"])["Accept"]
        == "application/json")
  }

  @Test func personalDataCanBeRevealedForLocalDebugging() {
    let body = Data(#"{"ssn":"900-11-2222","password":"pw-secret-1"}"#.utf8)
    let revealing = Redactor(revealsPersonalData: true)
    let text = revealing.redact(body: body)
    #expect(text.contains("900-11-2222"))
    #expect(!text.contains("pw-secret-1"), "secrets stay hidden")
    #expect(!Redactor.standard.redact(body: body).contains("900-11-2222"))
  }
}

@Suite("Secrets masked by value, server text untrusted")
struct KnownSecretsTests {
  @Test func registeredValuesAreMaskedInLogsErrorsAndTheirEncodedForms() async throws {
    let token = "tok-\(UUID().uuidString)/+x"
    KnownSecrets.register(token)
    #expect(KnownSecrets.mask("a \(token) b") == "a <redacted> b")
    let escaped = token.replacingOccurrences(of: "/", with: "\\/")
    #expect(!KnownSecrets.mask("{\"echo\":\"\(escaped)\"}").contains(escaped))
    let unreserved = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-._~"))
    let encoded = try #require(token.addingPercentEncoding(withAllowedCharacters: unreserved))
    #expect(encoded != token)
    #expect(!KnownSecrets.mask("?q=\(encoded)").contains(encoded))

    // A server echoing the token under an innocent name, in every place an error is shown.
    let body = Data(#"{"message":"you sent \#(token)","note":"\#(token)"}"#.utf8)
    let server = NetworkError.server(status: 500, body: body, serverMessage: "you sent \(token)")
    #expect(!server.description.contains(token))
    #expect(server.description.contains("<redacted>"))
    let capture = CapturingLogSink()
    Log.withScope(sink: capture, levels: .all) {
      for level in LogLevel.allCases { Log.general.log(level, "header was Bearer \(token)") }
    }
    #expect(capture.records.count == LogLevel.allCases.count)
    #expect(!capture.text.contains(token))
  }

  /// One secret the prefix of another: the longer is masked whole, whichever came first.
  @Test(arguments: [true, false])
  func aSecretThatExtendsAnotherIsMaskedWhole(_ shorterFirst: Bool) {
    let short = "pw-\(UUID().uuidString.prefix(8))"
    let long = short + "-TAILSECRET"
    KnownSecrets.register(shorterFirst ? [short, long] : [long, short])
    #expect(KnownSecrets.mask("[\(long)]") == "[<redacted>]")
    #expect(KnownSecrets.mask("[\(short)]") == "[<redacted>]")
    #expect(KnownSecrets.mask("\(short) \(long)") == "<redacted> <redacted>")
  }

  @Test func secretConfigValuesAndURLPasswordsAreMaskedByValue() throws {
    let key = "cfg-\(UUID().uuidString)"
    let password = "pw-\(UUID().uuidString)"
    _ = try Config(
      parsing: "CLIENT_SECRET = \(key)\nUPSTREAM = https://svc:\(password)@api.example/v1\n")
    let echoed = NetworkError.server(
      status: 502, body: Data(#"{"message":"upstream said \#(key) / \#(password)"}"#.utf8))
    #expect(!echoed.description.contains(key) && !echoed.description.contains(password))
    let capture = CapturingLogSink()
    Log.withScope(sink: capture) { Log.general.error("value: \(key) \(password)") }
    #expect(capture.text.contains("value: <redacted> <redacted>"))
  }

  @Test func shortValuesAreNotRegistered() {
    KnownSecrets.register("abc")
    #expect(KnownSecrets.mask("abc") == "abc")
  }

  @Test(arguments: [
    ("line one\nline two\r\nthree", "line one line two three"),
    ("\u{1B}[31mred\u{1B}[0m text", "red text"),
    ("title\u{1B}]0;pwned\u{07}done", "titledone"),
    ("bell\u{07}\u{08}\u{7F}end", "bell end"),
    ("rtl \u{202E}gnp.exe", "rtl gnp.exe"),
    ("tab\tand  spaces", "tab and spaces"),
    ("a eyJhbGciOiJIUzI1NiJ9.eyJpZCI6MX0.c2lnbmF0dXJl b", "a <redacted> b"),
  ])
  func serverTextIsMadeOneSafeLine(_ input: String, _ expected: String) {
    #expect(UntrustedText.sanitize(input) == expected)
  }

  @Test func serverTextIsCapped() {
    let text = UntrustedText.sanitize(String(repeating: "x", count: 10_000), limit: 50)
    #expect(text.count == 51 && text.hasSuffix("…"))
    let message = NetworkError.server(
      status: 500,
      body: Data(#"{"message":"\#(String(repeating: "y", count: 5_000))\n\u{1B}[2J"}"#.utf8))
    #expect(message.description.count < 260)
    #expect(!message.description.contains("\u{1B}"))
  }
}
