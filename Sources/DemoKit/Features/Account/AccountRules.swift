/// What a sign-in needs before anything is sent: a username of DummyJSON's shape (one word of
/// printable characters; the longest it issues is well under `longestUsername`) and a password.
/// The password is never trimmed or shaped: whatever the person typed is what the server judges.
public enum AccountRules {
  public static let longestUsername = 64

  /// The username trimmed, or the first rule broken (username, then password).
  public static func validatedUsername(
    _ username: String, password: String
  ) throws(ValidationError) -> String {
    let text = Localized.current
    let name = username.trimmingCharacters(in: .whitespacesAndNewlines)
    if name.isEmpty { throw ValidationError(field: "username", text("rule.username.empty")) }
    if name.contains(where: \.isWhitespace) {
      throw ValidationError(field: "username", text("rule.username.spaces"))
    }
    if name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
      throw ValidationError(field: "username", text("rule.username.control"))
    }
    if name.count > longestUsername {
      throw ValidationError(
        field: "username", text("rule.username.long", ["limit": String(longestUsername)]))
    }
    if password.isEmpty { throw ValidationError(field: "password", text("rule.password.empty")) }
    return name
  }
}
