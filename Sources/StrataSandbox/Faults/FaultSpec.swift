extension FaultInjector.Fault {
  /// A fault spec that does not parse; the message says what is wrong.
  public struct SpecError: Error, CustomStringConvertible {
    /// What is wrong and the expected form.
    public let description: String
  }

  /// Parses `METHOD PATH ACTION[xCOUNT]`, as given to `strata-demo sandbox serve --fault`:
  /// `GET /users 503x2`, `* /posts/* drop`, `POST /auth/refresh 403 x10`,
  /// `GET /todos delay=1500ms`, `GET /users truncate`, `GET /users truncate-head` (the status
  /// line and part of a header, then the connection closed), `* /* echo=500` (the request echoed in
  /// the error body), `GET /users endless` (a body that never ends), `GET /users/*
  /// cache=max-age=60,stale-if-error=600` (that `Cache-Control` on the answers), `GET /auth/me
  /// vary=Authorization` (that `Vary`), `PUT /posts/1 edited-elsewhere` (someone else edits
  /// the post first). METHOD `*` matches any method; a PATH ending in `*`
  /// matches a prefix; COUNT defaults to 1.
  /// - Throws: ``SpecError`` naming the bad part.
  public init(spec: String) throws {
    let form = "expected 'METHOD PATH ACTION[xCOUNT]', e.g. 'GET /users 503x2'"
    var parts = spec.split(whereSeparator: \.isWhitespace).map(String.init)
    var count = 1
    if parts.count == 4, parts[3].hasPrefix("x") {
      count = try Self.count(String(parts[3].dropFirst()), spec: spec)
      parts.removeLast()
    }
    guard parts.count == 3 else { throw SpecError(description: "fault '\(spec)': \(form)") }
    let method = parts[0] == "*" ? nil : parts[0].uppercased()
    if let method, method.isEmpty || !method.allSatisfy({ $0.isASCII && $0.isLetter }) {
      throw SpecError(description: "fault '\(spec)': METHOD must be letters or '*'")
    }
    guard parts[1].hasPrefix("/") else {
      throw SpecError(description: "fault '\(spec)': PATH must start with '/'")
    }
    var action = parts[2]
    // `503x2`: a count glued to the action.
    if let x = action.lastIndex(of: "x") {
      let suffix = String(action[action.index(after: x)...])
      if !suffix.isEmpty, suffix.allSatisfy(\.isNumber) {
        count = try Self.count(suffix, spec: spec)
        action = String(action[..<x])
      }
    }
    self.init(
      method: method, path: parts[1], count: count, action: try Self.action(action, spec: spec))
  }

  private static func count(_ text: String, spec: String) throws -> Int {
    guard let count = Int(text), count > 0 else {
      throw SpecError(description: "fault '\(spec)': COUNT must be a positive number")
    }
    return count
  }

  private static func action(_ text: String, spec: String) throws -> FaultInjector.Action {
    switch text {
    case "drop": return .dropConnection
    case "lose-answer": return .dropAfterHandling
    case "truncate": return .truncateBody
    case "truncate-head": return .truncateHead
    case "endless": return .endlessBody
    case "edited-elsewhere": return .editedElsewhere
    default: break
    }
    // `vary=Authorization`, `cache=max-age=60`: a header on the answer, one token of ASCII.
    for (prefix, header, example) in [
      ("vary=", "Vary", "header names, e.g. vary=Authorization"),
      ("cache=", "Cache-Control", "a Cache-Control value, e.g. cache=max-age=60"),
    ] where text.hasPrefix(prefix) {
      let value = String(text.dropFirst(prefix.count))
      guard !value.isEmpty, value.allSatisfy({ $0.isASCII && !$0.isWhitespace && !$0.isNewline })
      else {
        throw SpecError(
          description: "fault '\(spec)': \(prefix.dropLast()) needs \(example)")
      }
      return .header(name: header, value: value)
    }
    if text.hasPrefix("echo=") {
      guard let status = Int(text.dropFirst("echo=".count)), (100...599).contains(status) else {
        throw SpecError(description: "fault '\(spec)': echo needs a status, e.g. echo=500")
      }
      return .echo(status: status)
    }
    if text.hasPrefix("delay=") {
      let value = text.dropFirst("delay=".count)
      let (number, scale): (Substring, Double) =
        value.hasSuffix("ms")
        ? (value.dropLast(2), 0.001) : value.hasSuffix("s") ? (value.dropLast(), 1) : ("", 0)
      guard let amount = Double(number), amount >= 0, amount * scale <= 3600 else {
        throw SpecError(
          description: "fault '\(spec)': delay needs a duration from 0 to 1h, such as 500ms or 2s")
      }
      return .delay(.milliseconds(Int64((amount * scale * 1000).rounded())))
    }
    guard let status = Int(text), (100...599).contains(status) else {
      throw SpecError(
        description:
          "fault '\(spec)': ACTION must be \(FaultInjector.Fault.actionSpellings.joined(separator: ", "))"
      )
    }
    return .respond(status: status)
  }
}
