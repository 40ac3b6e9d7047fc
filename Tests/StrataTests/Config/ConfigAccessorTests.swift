import Foundation
import Strata
import Testing

@Suite("Config typed access")
struct ConfigAccessorTests {
  static func config(_ value: String) throws -> Config {
    try Config(parsing: "V = \(value)", name: "a.xcconfig")
  }

  @Test(arguments: [
    ("https://dummyjson.com", "https://dummyjson.com"),
    ("http://127.0.0.1:8080/api", "http://127.0.0.1:8080/api"),
  ])
  func validURL(_ text: String, _ expected: String) throws {
    #expect(try Self.config(text).url("V").absoluteString == expected)
  }

  @Test(arguments: ["dummyjson.com", "/relative/path", "https://", "not a url", ""])
  func invalidURL(_ text: String) throws {
    let error = try #require(throws: ConfigError.self) { try Self.config("'\(text)'").url("V") }
    #expect(
      error.kind == .invalidValue(key: "V", expected: "a URL with a scheme and host (https://host)")
    )
    #expect(error.location == SourceLocation(file: "a.xcconfig", line: 1, column: 1))
  }

  @Test(arguments: [("42", 42), ("-7", -7), ("0", 0)])
  func validInt(_ text: String, _ expected: Int) throws {
    #expect(try Self.config(text).int("V") == expected)
  }

  @Test(arguments: ["4.2", "x", "1e3", "", "9999999999999999999999"])
  func invalidInt(_ text: String) throws {
    #expect(throws: ConfigError.self) { try Self.config("'\(text)'").int("V") }
  }

  @Test(arguments: [("1.5", 1.5), ("-2", -2.0), ("1e3", 1000.0)])
  func validDouble(_ text: String, _ expected: Double) throws {
    #expect(try Self.config(text).double("V") == expected)
  }

  @Test(arguments: ["abc", "inf", "nan", "", "0x1p3", "1e999", "1.5s"])
  func invalidDouble(_ text: String) throws {
    #expect(throws: ConfigError.self) { try Self.config("'\(text)'").double("V") }
  }

  @Test func aDoubleOutsideItsRangeIsAnErrorNamingTheRange() throws {
    #expect(try Self.config("0.25").double("V", in: 0...1) == 0.25)
    let error = try #require(throws: ConfigError.self) {
      try Self.config("1.5").double("V", in: 0...1)
    }
    #expect(error.message.contains("from 0.0 to 1.0"), "\(error.message)")
  }

  @Test(arguments: [
    ("YES", true), ("yes", true), ("true", true), ("TRUE", true), ("1", true), ("on", true),
    ("NO", false), ("no", false), ("false", false), ("0", false), ("Off", false),
  ])
  func validBool(_ text: String, _ expected: Bool) throws {
    #expect(try Self.config(text).bool("V") == expected)
  }

  @Test(arguments: ["maybe", "2", "onn", ""])
  func invalidBool(_ text: String) throws {
    let error = try #require(throws: ConfigError.self) { try Self.config("'\(text)'").bool("V") }
    #expect(error.message == "V: expected true or false (or yes/no, on/off, 1/0), got '\(text)'")
  }

  /// A fraction has at most nine digits, each counted: `1.500000000s` is 1.5 s, a tenth digit
  /// is refused even when it is a zero.
  @Test func aDurationsFractionHasAtMostNineDigits() throws {
    #expect(try Self.config("1.500000000s").duration("V") == .milliseconds(1_500))
    #expect(throws: ConfigError.self) { try Self.config("1.5000000000s").duration("V") }
    #expect(Duration.textFormat.parse("0.000000001d") == nil, "not a whole millisecond")
  }

  /// Config and preferences read text with one grammar: what one accepts the other does, and
  /// a refusal is one sentence.
  @Test(arguments: ["1d", "1.5s", "250ms", "yes", "off", "42", "-7", "0.25", "1e3"])
  func configAndPreferencesReadTextAlike(_ text: String) throws {
    let config = try Self.config("'\(text)'")
    #expect((try? config.duration("V")) == Duration.textFormat.parse(text))
    #expect((try? config.bool("V")) == Bool.textFormat.parse(text))
    #expect((try? config.int("V")) == Int.textFormat.parse(text))
    #expect((try? config.double("V")) == Double.textFormat.parse(text))
    let key = PreferenceKey("v", default: Duration.seconds(1))
    let refused = PreferenceError.invalid(name: "V", text: "soon", allowed: key.allowed)
    let configRefusal = try #require(throws: ConfigError.self) {
      try Self.config("'soon'").duration("V")
    }
    #expect(configRefusal.message.hasSuffix(refused.description))
  }

  @Test(arguments: [
    ("250ms", Duration.milliseconds(250)), ("2s", .seconds(2)), ("1.5s", .milliseconds(1500)),
    ("5m", .seconds(300)), ("1h", .seconds(3600)), ("0s", .zero), (".5s", .milliseconds(500)),
    ("1.25m", .seconds(75)), ("0.001s", .milliseconds(1)), ("1d", .seconds(86_400)),
  ])
  func validDuration(_ text: String, _ expected: Duration) throws {
    #expect(try Self.config(text).duration("V") == expected)
  }

  /// A duration is whole milliseconds: a value that only rounding would make one (and so
  /// slip into a range it is outside) is refused, as are overflows and more than ten years.
  @Test(arguments: [
    "2", "s", "-1s", "2 s", "1.5.1s", "2w", "fast", "1e3s", "1.5ms", "86400.0000001s", "5.s",
    ".s", "99999999999999999999d", "3651d", "0.0000000001s", "+1s",
  ])
  func invalidDuration(_ text: String) throws {
    let error = try #require(throws: ConfigError.self) {
      try Self.config("'\(text)'").duration("V")
    }
    #expect(
      error.description
        == "a.xcconfig:1:1: V: expected a duration such as 250ms, 2s, 1.5s or 5m, got '\(text)'")
  }

  @Test func missingKeyNamesKeyAndFile() throws {
    let config = try Config(parsing: "A = 1", name: "Config/Debug.xcconfig")
    let error = try #require(throws: ConfigError.self) { try config.string(.api) }
    #expect(error.kind == .missingKey(key: "API"))
    #expect(error.message.contains("'API'"))
    #expect(error.message.contains("Config/Debug.xcconfig"))
    #expect(error.message.contains("STRATA_API"))
  }

  @Test func defaultsApplyOnlyWhenMissing() throws {
    let config = try Config(parsing: "A = 5", name: "a.xcconfig")
    #expect(try config.int("A", default: 1) == 5)
    #expect(try config.int("B", default: 1) == 1)
    #expect(try config.duration("B", default: .seconds(3)) == .seconds(3))
  }

  @Test func invalidValueFromEnvironmentNamesTheVariable() throws {
    let config = try Config(parsing: "", environment: ["STRATA_RETRIES": "many"])
    let error = try #require(throws: ConfigError.self) { try config.int("RETRIES") }
    #expect(error.location == nil)
    #expect(
      error.message == "RETRIES (from env STRATA_RETRIES): expected a whole number, got 'many'")
  }
}

@Suite("Config layers")
struct ConfigLayerTests {
  static let file = "API = https://file.example\nOTHER = $(API)/v1"

  @Test func setBeatsEnvironmentBeatsFileBeatsDefaults() throws {
    let defaults: [Config.Key: String] = [.api: "https://default.example", "ONLY_DEFAULT": "d"]
    let environment = ["STRATA_API": "https://env.example"]

    let all = try Config(
      parsing: Self.file, environment: environment, overrides: ["API": "https://set.example"],
      defaults: defaults)
    #expect(try all.string(.api) == "https://set.example")
    #expect(all.value(.api)?.origin == .override)

    let noSet = try Config(parsing: Self.file, environment: environment, defaults: defaults)
    #expect(try noSet.string(.api) == "https://env.example")
    #expect(noSet.value(.api)?.origin == .environment(variable: "STRATA_API"))

    let fileOnly = try Config(parsing: Self.file, name: "f.xcconfig", defaults: defaults)
    #expect(try fileOnly.string(.api) == "https://file.example")
    #expect(fileOnly.value(.api)?.origin.description == "f.xcconfig:1")

    let nothing = try Config(parsing: "", defaults: defaults)
    #expect(try nothing.string(.api) == "https://default.example")
    #expect(nothing.value(.api)?.origin == .defaults)
    #expect(try nothing.string("ONLY_DEFAULT") == "d")
  }

  @Test func substitutionUsesTheWinningLayer() throws {
    let config = try Config(parsing: Self.file, overrides: ["API": "https://set.example"])
    #expect(try config.string("OTHER") == "https://set.example/v1")
  }

  @Test func overridesAcceptQuotesAndReferences() throws {
    let config = try Config(
      parsing: "HOST = h", overrides: ["URL": "\"https://$(HOST) // x\""])
    #expect(try config.string("URL") == "https://h // x")
  }

  /// `--set` reads its value as a file would after `KEY =`: spaces at either end are
  /// dropped, quotes keep them — never one end trimmed and not the other.
  @Test(arguments: [(" NO", false), ("NO ", false), ("  NO  ", false), ("\" NO\"", nil)])
  func overrideSpacesAreTrimmedAtBothEnds(_ value: String, _ expected: Bool?) throws {
    let config = try Config(parsing: "", overrides: ["FLAG": value])
    if let expected {
      #expect(try config.bool("FLAG") == expected)
    } else {
      #expect(throws: ConfigError.self) { try config.bool("FLAG") }
    }
  }

  /// A range's error suggests only values the range accepts.
  @Test func aRangedDurationSuggestsOnlyValuesInItsRange() throws {
    let error = try #require(throws: ConfigError.self) {
      try ConfigAccessorTests.config("'250ms'").duration(
        "V", in: .seconds(1)...Duration.seconds(86_400))
    }
    #expect(
      error.description
        == "a.xcconfig:1:1: V: expected a duration from 1s to 1d, such as 2s, 30s or 5m, got '250ms'"
    )
  }

  @Test func badOverrideKeyIsRejected() throws {
    let error = try #require(throws: ConfigError.self) {
      try Config(parsing: "", overrides: ["1BAD": "x"])
    }
    #expect(error.kind == .invalidKey)
    #expect(error.location?.file == "--set 1BAD")
  }

  @Test func environmentWithoutPrefixIsIgnoredAsAKey() throws {
    let config = try Config(
      parsing: "", environment: ["API": "x", "STRATA_": "y", "STRATA_A-B": "z"])
    #expect(config.values.isEmpty)
  }
}

@Suite("Config secrets")
struct ConfigSecretTests {
  static let token = "tok-9f8e7d6c5b4a"

  @Test(arguments: ["ACCESS_TOKEN", "CLIENT_SECRET", "DB_PASSWORD", "API_KEY", "refresh_token"])
  func secretNamesAreRedactedInDescriptions(_ key: String) throws {
    let config = try Config(parsing: "\(key) = \(Self.token)\nAPI = https://x.example")
    #expect(config.values[key]?.isSecret == true)
    #expect(config.values[key]?.displayValue == "<redacted>")
    #expect(!config.description.contains(Self.token))
    #expect(config.description.contains("\(key) = <redacted>"))
    #expect(config.description.contains("API = https://x.example"))
  }

  @Test func secretNeverAppearsInAnErrorMessage() throws {
    let config = try Config(parsing: "API_TOKEN = \(Self.token)", name: "s.xcconfig")
    let error = try #require(throws: ConfigError.self) { try config.int("API_TOKEN") }
    #expect(!error.description.contains(Self.token))
    #expect(!String(describing: error).contains(Self.token))
    #expect(error.description.contains("<redacted>"))
  }

  /// The name rule, both ways: a marker in any letter case and at any place, and names that
  /// hold only part of one, or its letters with another byte in between, are not secret.
  @Test(arguments: [
    ("KEY", true), ("key", true), ("kEy", true), ("MONKEY", true), ("X_TOKEN_2", true),
    ("Secret", true), ("PASSWORD", true), ("passWord_1", true), ("TOK", false), ("KE", false),
    ("K_E_Y", false), ("PASSWOR", false), ("SECRE_T", false), ("TOKE", false), ("API", false),
    ("K3Y", false), ("HOST", false),
  ])
  func theNameRuleFindsAMarkerInAnyCase(_ key: String, _ isSecret: Bool) {
    #expect(Config.Key(key).isSecret == isSecret)
  }

  /// A setting under a name that only looks secret is shown and never masked: one of the
  /// setting words, a number, a duration, a flag — not under a name holding PASSWORD or SECRET,
  /// and not under a key loaded as a secret; any other value under such a name is a secret
  /// (masked in text from 8 bytes, so a short one does not mangle ordinary words).
  @Test func settingsUnderSecretLookingNamesAreShown() throws {
    let text = """
      TOKEN_STORE = keychain
      TOKEN_LIFETIME = 30m
      CACHE_TOKEN_TTL = 3600
      KEY_ROTATION = on
      API_KEY = k3y-9a8b
      DB_PASSWORD = 12345678
      CLIENT_SECRET = none
      SESSION_TOKEN = file
      """
    let config = try Config(parsing: text, secrets: ["SESSION_TOKEN"])
    for (key, shown) in [
      ("TOKEN_STORE", "keychain"), ("TOKEN_LIFETIME", "30m"), ("CACHE_TOKEN_TTL", "3600"),
      ("KEY_ROTATION", "on"),
    ] {
      #expect(config.value(Config.Key(key))?.isSecret == false, "\(key)")
      #expect(config.description.contains("\(key) = \(shown)"))
    }
    for key in ["API_KEY", "DB_PASSWORD", "CLIENT_SECRET", "SESSION_TOKEN"] {
      #expect(config.value(Config.Key(key))?.isSecret == true, "\(key)")
      #expect(config.description.contains("\(key) = <redacted>"))
    }
    #expect(KnownSecrets.mask("the keychain said 30m") == "the keychain said 30m")
    #expect(KnownSecrets.mask("sent k3y-9a8b") == "sent <redacted>")
    #expect(KnownSecrets.mask("login 12345678") == "login <redacted>")
  }

  /// Keys named as `secrets:` are secrets whatever layer sets them: redacted when shown or
  /// in an error, and masked in logs from the load on.
  @Test func keysLoadedAsSecretsAreRedacted() throws {
    let config = try Config(parsing: "SESSION = \(Self.token)", secrets: ["SESSION"])
    #expect(!config.description.contains(Self.token))
    let other = try Config(parsing: "PIN = 1234x", defaults: ["PIN": "0"], secrets: ["PIN"])
    #expect(other.value("PIN")?.isSecret == true)
    let error = try #require(throws: ConfigError.self) { try other.int("PIN") }
    #expect(!error.description.contains("1234x"))
    let overridden = try Config(parsing: "", overrides: ["OTP": "9f8e7d6c5b"], secrets: ["OTP"])
    #expect(overridden.value("OTP")?.isSecret == true)
    #expect(!overridden.description.contains("9f8e7d6c5b"))
    #expect(KnownSecrets.mask("sent 9f8e7d6c5b") == "sent <redacted>")
    let plain = try Config(parsing: "PIN = 1234x")
    #expect(plain.value("PIN")?.isSecret == false, "not a secret by name")
  }
}
