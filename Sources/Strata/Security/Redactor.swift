import Foundation

/// Removes secrets from what gets logged: header values, JSON body fields, URL query
/// parameters, URL passwords and fragments. The networking layer runs every request and
/// response it logs through its redactor, so redaction cannot be forgotten; values the process
/// knows to be secret are masked on top of this by ``KnownSecrets`` whatever their name.
///
/// Names are compared case- and separator-insensitively (`access_token`, `accessToken` and
/// `Access-Token` are one name). A name is secret when it is in the set, or when it contains a
/// secret word (`token`, `secret`, `password`, `apikey`, …), so `X-Upstream-Token` and
/// `sessionToken` are caught without being listed. Personal data (`ssn`, `iban`, `cardNumber`,
/// `ip`, …) is redacted too unless `revealsPersonalData` is set for local debugging. Inside
/// string values and header values, credentials are also found by their shape (a URL's
/// password, `token=…` pairs, `Bearer …`), wherever the server put them.
package struct Redactor: Sendable {
  /// What replaces a secret.
  package static let placeholder = "<redacted>"

  /// Headers whose values are secrets (matched case- and separator-insensitively).
  package static let defaultHeaderNames: Set<String> = [
    "authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key", "api-key",
    "x-auth-token", "x-access-token", "x-refresh-token", "private-token", "x-csrf-token",
    "x-xsrf-token", "x-amz-security-token", "x-goog-api-key", "x-session-id", "x-auth",
  ]

  /// JSON fields and query parameters whose values are secrets.
  package static let defaultFieldNames: Set<String> = [
    "accesstoken", "refreshtoken", "token", "idtoken", "password", "passwd", "pwd", "pass",
    "passphrase", "secret", "clientsecret", "apikey", "key", "auth", "authorization", "jwt",
    "sessiontoken", "session", "sessionid", "cookie", "privatekey", "accesskey", "secretkey",
    "signature", "sig", "otp", "pin", "credentials", "bearer", "refresh", "mfacode", "totp",
    "otpcode", "connectionstring", "dsn", "databaseurl",
  ]

  /// Words that make any header, field or parameter name secret when it contains them.
  package static let secretWords: [String] = [
    "token", "secret", "password", "passwd", "apikey", "privatekey", "accesskey",
    "authorization", "cookie", "credential", "jwt",
  ]

  /// JSON fields with personal data, redacted unless `revealsPersonalData` is set.
  package static let defaultPersonalFieldNames: Set<String> = [
    "ssn", "ein", "cardnumber", "cardexpire", "cardcvv", "cvv", "cvc", "iban", "wallet", "ip",
    "ipaddress", "macaddress", "passport", "passportnumber", "taxid", "birthdate", "dob",
    "dateofbirth", "creditcard", "creditcardnumber", "accountnumber", "routingnumber",
    "bankaccount",
  ]

  /// The redactor used by the library.
  package static let standard = Redactor()

  /// Normalised header names to redact.
  package var headerNames: Set<String>
  /// Normalised field names to redact.
  package var fieldNames: Set<String>
  /// Normalised personal-data field names.
  package var personalFieldNames: Set<String>
  /// Show personal-data fields in logged bodies (local debugging only; secrets stay hidden).
  package var revealsPersonalData: Bool

  /// The standard names; `revealsPersonalData` shows personal-data fields (local debugging
  /// only: secrets stay hidden).
  package init(revealsPersonalData: Bool = false) {
    self.init(
      headerNames: Self.defaultHeaderNames, fieldNames: Self.defaultFieldNames,
      personalFieldNames: Self.defaultPersonalFieldNames, revealsPersonalData: revealsPersonalData)
  }

  /// Names are given in any case, with or without `_` and `-`.
  package init(
    headerNames: Set<String>, fieldNames: Set<String>, personalFieldNames: Set<String>,
    revealsPersonalData: Bool
  ) {
    self.headerNames = Set(headerNames.map(Self.normalise))
    self.fieldNames = Set(fieldNames.map(Self.normalise))
    self.personalFieldNames = Set(personalFieldNames.map(Self.normalise))
    self.revealsPersonalData = revealsPersonalData
  }

  // MARK: Headers

  /// Whether a header's value must be hidden (`Authorization`, `X-Auth-Token`, …).
  package func isSensitive(header name: String) -> Bool {
    let normalised = Self.normalise(name)
    return headerNames.contains(normalised) || Self.containsSecretWord(normalised)
  }

  /// The value to log for a header: ``placeholder`` for a sensitive one, otherwise the value
  /// made one safe line (it may have come from a server).
  package func redact(headerValue value: String, named name: String) -> String {
    isSensitive(header: name) ? Self.placeholder : UntrustedText.sanitize(value)
  }

  /// A copy of `headers` with sensitive values replaced.
  package func redact(headers: [String: String]) -> [String: String] {
    headers.reduce(into: [:]) { result, field in
      result[field.key] = redact(headerValue: field.value, named: field.key)
    }
  }

  // MARK: Bodies and URLs

  /// Whether a JSON field or query parameter holds a secret (`password`, `refresh_token`, …).
  package func isSensitive(field name: String) -> Bool {
    let normalised = Self.normalise(name)
    return fieldNames.contains(normalised) || Self.containsSecretWord(normalised)
  }

  /// Whether a JSON field holds personal data that is hidden by default.
  private func isPersonal(field name: String) -> Bool {
    !revealsPersonalData && personalFieldNames.contains(Self.normalise(name))
  }

  /// A loggable rendering of a body: JSON with secret (and personal) fields replaced at any
  /// depth, known secrets masked, cut to `limit` characters; a non-JSON body is summarised by
  /// its size and never printed.
  package func redact(body: Data, limit: Int = 2048) -> String {
    guard !body.isEmpty else { return "<empty>" }
    guard
      let object = try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed]),
      let data = try? JSONSerialization.data(
        withJSONObject: redact(json: object), options: [.sortedKeys, .fragmentsAllowed]),
      let text = String(data: data, encoding: .utf8)
    else { return "<\(body.count) bytes, not JSON>" }
    let safe = UntrustedText.sanitize(text, limit: .max)
    guard safe.count > limit else { return safe }
    return String(safe.prefix(limit)) + "…(\(body.count) bytes)"
  }

  /// A loggable rendering of a form-encoded body: each field whose name says secret
  /// (`password`, `client_secret`, `refresh_token`, …) or holds a known secret replaced, the
  /// rest made one safe line, cut to `limit` characters.
  package func redact(form body: Data, limit: Int = 2048) -> String {
    let fields = String(decoding: body, as: UTF8.self).split(separator: "&").map { pair in
      let parts = pair.split(separator: "=", maxSplits: 1)
      let name = String(parts[0]).removingPercentEncoding ?? String(parts[0])
      let value = parts.count > 1 ? (String(parts[1]).removingPercentEncoding ?? "") : ""
      let shown = isSensitive(field: name) ? Self.placeholder : KnownSecrets.mask(value)
      return UntrustedText.sanitize(name) + "=" + UntrustedText.sanitize(shown)
    }
    let text = fields.joined(separator: "&")
    return text.count > limit ? String(text.prefix(limit)) + "…(\(body.count) bytes)" : text
  }

  /// Registers the secrets `url` carries — its user's password, the values of secret query
  /// parameters — with ``KnownSecrets``, so the address a caller gave is masked wherever it
  /// is shown again (a download's resume hint, an error, a server's echo). Runs for every
  /// request, so a URL is parsed only when it may hold one: an `@`, or a query naming a
  /// secret (`?limit=10&skip=20`, a page's, is not parsed).
  package func registerSecrets(in url: URL) {
    let text = url.absoluteString
    let query = text.firstIndex(of: "?").map { Self.normalise(String(text[$0...])) } ?? ""
    guard
      text.utf8.contains(UInt8(ascii: "@")) || Self.containsSecretWord(query)
        || fieldNames.contains(where: { query.contains($0) }),
      let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
    else { return }
    let values = (components.queryItems ?? []).filter { isSensitive(field: $0.name) }.map(\.value)
    KnownSecrets.register([components.password] + values)
  }

  /// Registers the values of secret-named members of a request body — a JSON body's, at any
  /// depth, or a form's — as known secrets, so a server that echoes one back (inside a JSON
  /// string, in an error message) has it masked in the logs, the records and the HAR, as a
  /// token is. Parses only a body of at most 64 KiB whose text names a secret; a larger one
  /// (an upload) is left as it is.
  package func registerSecrets(inBody body: Data, contentType: String?) {
    guard !body.isEmpty, body.count <= 64 << 10 else { return }
    let normalised = Self.normalise(String(decoding: body, as: UTF8.self))
    guard Self.containsSecretWord(normalised) || fieldNames.contains(where: normalised.contains)
    else { return }
    let type = contentType?.lowercased() ?? ""
    var values: [String?] = []
    if type.hasPrefix("application/x-www-form-urlencoded") {
      var form = URLComponents()
      form.percentEncodedQuery = String(decoding: body, as: UTF8.self)
      values = (form.queryItems ?? []).filter { isSensitive(field: $0.name) }.map(\.value)
    } else if type.contains("json"),
      let object = try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed])
    {
      collectSecrets(object, into: &values, depth: 0)
    }
    KnownSecrets.register(values)
  }

  /// The string values of secret-named members in a parsed JSON value, 32 levels deep at most.
  private func collectSecrets(_ value: Any, into values: inout [String?], depth: Int) {
    guard depth < 32 else { return }
    if let object = value as? [String: Any] {
      for (name, member) in object {
        if isSensitive(field: name), let text = member as? String {
          values.append(text)
        } else {
          collectSecrets(member, into: &values, depth: depth + 1)
        }
      }
    } else if let array = value as? [Any] {
      for element in array { collectSecrets(element, into: &values, depth: depth + 1) }
    }
  }

  /// The URL as text with the password of its user info, the values of secret query
  /// parameters and the fragment (where OAuth puts tokens) replaced.
  package func redact(url: URL) -> String {
    let text = url.absoluteString
    // Without '@', '#' or '?' there is no password, fragment or query to look into: most
    // URLs, on every request's record, without parsing them.
    if !text.utf8.contains(where: {
      $0 == UInt8(ascii: "@") || $0 == UInt8(ascii: "#") || $0 == UInt8(ascii: "?")
    }) {
      return KnownSecrets.mask(text)
    }
    guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
      return Self.placeholder
    }
    var changed = false
    if components.password != nil {
      components.password = Self.placeholder
      changed = true
    }
    if components.fragment != nil {
      components.fragment = Self.placeholder
      changed = true
    }
    if let items = components.queryItems, items.contains(where: { isSensitive(field: $0.name) }) {
      components.queryItems = items.map {
        isSensitive(field: $0.name) ? URLQueryItem(name: $0.name, value: Self.placeholder) : $0
      }
      changed = true
    }
    guard changed else { return KnownSecrets.mask(text) }
    let redacted = (components.string ?? Self.placeholder)
      .replacingOccurrences(of: "%3Credacted%3E", with: Self.placeholder)
    return KnownSecrets.mask(redacted)
  }

  private func redact(json: Any) -> Any {
    if let object = json as? [String: Any] {
      return object.reduce(into: [String: Any]()) { result, field in
        result[field.key] =
          isSensitive(field: field.key) || isPersonal(field: field.key)
          ? Self.placeholder : redact(json: field.value)
      }
    }
    if let array = json as? [Any] { return array.map { redact(json: $0) } }
    if let text = json as? String {
      let masked = CredentialShapes.mask(text) { isSensitive(field: String($0)) }
      return revealsPersonalData ? masked : PersonalData.mask(masked)
    }
    return json
  }

  private static func containsSecretWord(_ normalised: String) -> Bool {
    secretWords.contains { normalised.contains($0) }
  }

  static func normalise(_ name: String) -> String {
    name.lowercased().filter { $0 != "_" && $0 != "-" && $0 != " " && $0 != "." }
  }
}
