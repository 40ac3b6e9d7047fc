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
      /// A credential found by its shape: `text` with `SECRET` replaced, put in a JSON value
      /// under an innocent name, in an innocent header and in a server's message.
      case shape(String)
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
      case .shape(let text):
        let text = text.replacingOccurrences(of: "SECRET", with: secret)
        let body = (try? JSONSerialization.data(withJSONObject: ["id": 7, "note": text])) ?? Data()
        return [
          redactor.redact(body: body),
          redactor.redact(headers: ["X-Debug": text])["X-Debug"] ?? "",
          UntrustedText.sanitize(text),
        ].joined(separator: " | ")
      }
    }
  }

  static let headerNames = [
    "Authorization", "authorization", "AUTHORIZATION", "Proxy-Authorization", "Cookie",
    "Set-Cookie", "X-API-Key", "x-api-key", "Api-Key", "X-Auth-Token", "X-Access-Token",
    "Private-Token", "X-CSRF-Token", "X-Amz-Security-Token", "X-Goog-Api-Key",
    "X-Upstream-Token", "X-Refresh-Token", "X-Client-Secret", "X_Api_Key", "X-XSRF-Token",
    "X-Session-Id", "X-Auth",
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
    "user.birthDate", "idToken", "pwd", "pass", "passphrase", "key", "auth", "session",
    "sessionId", "signature", "sig", "otp", "pin", "credentials", "bearer", "privateKey",
    "accessKey", "secretKey", "refresh", "mfaCode", "totp", "otp_code", "connectionString",
    "dsn", "database_url", "bank.cardCvv", "cvv", "cvc", "passport", "passportNumber", "taxId",
    "ipAddress", "dob", "date_of_birth", "creditCard", "credit_card_number",
    "bank.accountNumber", "bank.routingNumber", "bankAccount",
  ]
  /// Credentials under names that say nothing, found by their shape.
  static let shapes = [
    "https://app:SECRET@db.example:5432/main", "postgres://u:SECRET@h/x?sslmode=require",
    "https://api.example/x?page=1&token=SECRET", "https://api.example/cb#access_token=SECRET",
    "Authorization: Bearer SECRET", "authorization:Bearer SECRET", "Bearer SECRET",
    "Basic SECRET", "password=SECRET", "password: SECRET", "retry with api_key=SECRET&x=1",
    "(client_secret:SECRET)",
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
    probes += shapes.map { Probe(place: .shape($0), secret: next()) }
    return probes
  }()

  @Test func thereAreAtLeastSixtyProbes() { #expect(Self.probes.count >= 60) }

  /// The redactor's name tables and this table are one: every name it hides has a probe here,
  /// so a name dropped from the redactor fails a probe, and a name added needs one.
  @Test func everyNameTheRedactorHidesHasAProbe() {
    func normalised(_ names: [String]) -> Set<String> {
      Set(
        names.map { String($0.split(separator: ".").last ?? "") }.map {
          $0.lowercased().filter { $0 != "_" && $0 != "-" }
        })
    }
    let probedFields = normalised(Self.jsonPaths + Self.queryNames)
    let fields = Redactor.defaultFieldNames.union(Redactor.defaultPersonalFieldNames)
    #expect(fields.subtracting(probedFields).isEmpty, "\(fields.subtracting(probedFields))")
    let headers = Set(Redactor.defaultHeaderNames.map { $0.filter { $0 != "-" } })
    let probedHeaders = normalised(Self.headerNames)
    #expect(headers.subtracting(probedHeaders).isEmpty, "\(headers.subtracting(probedHeaders))")
  }

  /// The word after `Bearer` or `Basic` is a credential from 8 token characters on: the
  /// 8-character one is masked, the 7-character one is a word.
  @Test func aSchemesCredentialIsMaskedFromEightCharacters() {
    #expect(UntrustedText.sanitize("Bearer Ab3defgh") == "Bearer \(Redactor.placeholder)")
    #expect(UntrustedText.sanitize("Basic Zm9vOmJh") == "Basic \(Redactor.placeholder)")
    #expect(UntrustedText.sanitize("Bearer Ab3defg") == "Bearer Ab3defg")
  }

  /// Shapes that only look like credentials stay readable: short words after "basic", names
  /// that are not secret, a URL without a password.
  @Test func textThatIsNotACredentialSurvives() {
    for text in [
      "basic information", "Bearer token expired", "page=2&limit=5", "at 12:30:00 UTC",
      "see https://user@api.example/x?page=2", "Date: Mon, 1 Jan",
    ] {
      #expect(UntrustedText.sanitize(text) == text, "\(text)")
    }
  }

  @Test(arguments: probes)
  func noProbeLeaks(_ probe: Probe) {
    let text = probe.redacted(by: .standard)
    #expect(!text.contains(probe.secret), "\(probe.place) leaked: \(text)")
    #expect(text.contains(Redactor.placeholder), "\(text)")
  }

  /// A URL's password and secret query values become known secrets, masked in any text; its
  /// other values do not.
  @Test func aURLsSecretsAreRegistered() throws {
    let url = try #require(
      URL(string: "https://emily:pw-7f3e9a21@api.example/f?access_token=at-55c0e1d2&page=20250"))
    Redactor.standard.registerSecrets(in: url)
    #expect(
      KnownSecrets.mask("pw-7f3e9a21 at-55c0e1d2 20250") == "<redacted> <redacted> 20250")
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

  /// Hundreds of secrets sharing a prefix (`value 1`, `value 2`, … as a config of numbered
  /// keys gives), beside 4-to-7-byte ones: each is masked whole, a short one inside a long
  /// one's prefix does not cut the long one, and text that only starts like them is left.
  @Test func manySecretsSharingAPrefixAreEachMaskedWhole() {
    let run = UUID().uuidString.prefix(6)
    let numbered = (0..<300).map { "val\(run)-\($0)" }
    let short = "val\(run.prefix(1))"  // 4 bytes, the long ones' prefix
    KnownSecrets.register(numbered + [short])
    #expect(KnownSecrets.mask("a \(numbered[299]) b") == "a <redacted> b")
    #expect(KnownSecrets.mask("\(numbered[7]),\(numbered[70])") == "<redacted>,<redacted>")
    #expect(KnownSecrets.mask("[\(short)]") == "[<redacted>]")
    #expect(KnownSecrets.mask("[\(short)] and \(numbered[1])") == "[<redacted>] and <redacted>")
    #expect(KnownSecrets.mask("va\(run)-1") == "va\(run)-1")
  }

  /// The scan skips up to three bytes at a time on what no secret holds near its start: on
  /// random text over a tiny alphabet (secrets everywhere, overlapping, at both ends, 4 to 12
  /// bytes, some multi-byte) it must find exactly what a byte-by-byte search for the longest
  /// secret at each position finds.
  @Test func maskingFindsWhatAByteByByteSearchFinds() {
    // Characters no other test's secrets are made of, so parallel registrations cannot match.
    let alphabet: [Character] = ["q", "!", "^", "~", "ж"]
    var generator = SeededRandom(seed: 0x5EC2E7)
    func word(_ length: Int) -> String {
      String((0..<length).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] })
    }
    let secrets = Set((0..<12).map { word(4 + $0 % 9) })
    KnownSecrets.register(Array(secrets))
    let patterns = secrets.map { Array($0.utf8) }.sorted { $0.count > $1.count }
    func expected(_ text: String) -> String {
      let bytes = Array(text.utf8)
      var output: [UInt8] = []
      var index = 0
      while index < bytes.count {
        if let match = patterns.first(where: { bytes[index...].starts(with: $0) }) {
          output += Array("<redacted>".utf8)
          index += match.count
        } else {
          output.append(bytes[index])
          index += 1
        }
      }
      return String(decoding: output, as: UTF8.self)
    }
    for length in [0, 1, 3, 4, 5, 9, 40, 200] {
      for _ in 0..<200 {
        let text = word(length)
        #expect(KnownSecrets.mask(text) == expected(text), "text: \(text)")
      }
    }
    for secret in secrets {
      #expect(KnownSecrets.mask(secret) == "<redacted>")
      #expect(KnownSecrets.mask("ab" + secret) == "ab<redacted>")
    }
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
