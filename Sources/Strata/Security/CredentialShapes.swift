/// Secrets found by their shape inside free text, where no field name marks them: a server's
/// error message quoting `Authorization: Bearer X`, a JSON string holding a connection URL
/// `https://user:PW@host/x?token=T`, a `password=…` pair in a log line. Masked:
/// - the password of a URL's user info;
/// - the value of a `name=value` or `name:value` pair whose name is secret (query strings and
///   fragments included), and the word after a secret `name:` label;
/// - the credential after `Bearer` or `Basic` (a word of 8 or more token characters with a
///   digit, capital or symbol in it, so that "basic information" stays readable).
///
/// Text is scanned once, byte by byte: every delimiter is ASCII, so multi-byte
/// characters pass through untouched.
enum CredentialShapes {
  /// `text` with every credential shape replaced by ``Redactor/placeholder``. `isSecretName`
  /// decides which pair and label names hide their value.
  static func mask(_ text: String, isSecretName: (Substring) -> Bool) -> String {
    let bytes = Array(text.utf8)
    var output: [UInt8] = []
    output.reserveCapacity(bytes.count)
    var pending = Pending.nothing
    var start = 0
    while start < bytes.count {
      if isDelimiter(bytes[start]) {
        output.append(bytes[start])
        start += 1
        continue
      }
      var end = start
      while end < bytes.count, !isDelimiter(bytes[end]) { end += 1 }
      let word = bytes[start..<end]
      pending = maskWord(word, after: pending, into: &output, isSecretName: isSecretName)
      start = end
    }
    return output.count == bytes.count && output == bytes
      ? text : String(decoding: output, as: UTF8.self)
  }

  /// What the previous word asks of the next one.
  private enum Pending {
    case nothing
    /// After `password:` — the next word is a secret, whatever it looks like.
    case labelledValue
    /// After `Bearer` or `Basic` — the next word is a secret if it is shaped like one.
    case schemeCredential
  }

  private static func maskWord(
    _ word: ArraySlice<UInt8>, after pending: Pending, into output: inout [UInt8],
    isSecretName: (Substring) -> Bool
  ) -> Pending {
    let scheme = isScheme(word)
    switch pending {
    case .labelledValue where !scheme, .schemeCredential where isCredential(word):
      output.append(contentsOf: placeholder)
      return .nothing
    default:
      break
    }
    if scheme {
      output.append(contentsOf: word)
      // `Authorization: Bearer X`: after a label the credential is hidden whatever its shape.
      return pending == .labelledValue ? .labelledValue : .schemeCredential
    }
    if word.last == UInt8(ascii: ":"), word.count > 1,
      isSecretName(name(word.dropLast()))
    {
      output.append(contentsOf: word)
      return .labelledValue
    }
    guard word.contains(where: { $0 == UInt8(ascii: "=") || $0 == UInt8(ascii: ":") }) else {
      output.append(contentsOf: word)
      return .nothing
    }
    return maskInside(word, into: &output, isSecretName: isSecretName)
  }

  /// Masks a URL's password and the values of secret `name=value`/`name:value` pairs in one
  /// word; a pair whose value is a scheme (`Authorization:Bearer`) passes the scheme's
  /// credential on to the next word.
  private static func maskInside(
    _ word: ArraySlice<UInt8>, into output: inout [UInt8], isSecretName: (Substring) -> Bool
  ) -> Pending {
    var hidden = Array(repeating: false, count: word.count)
    let base = word.startIndex
    if let (from, to) = userInfoPassword(in: word) {
      for index in from..<to { hidden[index - base] = true }
    }
    var pending = Pending.nothing
    var segmentStart = word.startIndex
    for index in word.indices where index == word.endIndex - 1 || isPairSeparator(word[index + 1]) {
      let segment = word[segmentStart...index]
      segmentStart = index + 2
      guard
        let split = segment.firstIndex(where: { $0 == UInt8(ascii: "=") || $0 == UInt8(ascii: ":") }
        ),
        split > segment.startIndex, split < segment.endIndex - 1,
        !segment[split...].starts(with: Array("://".utf8)),
        isSecretName(name(segment[..<split]))
      else { continue }
      let value = segment[(split + 1)...]
      if isScheme(value) {
        pending = .labelledValue
      } else {
        for position in value.indices { hidden[position - base] = true }
      }
    }
    var index = word.startIndex
    while index < word.endIndex {
      if hidden[index - base] {
        output.append(contentsOf: placeholder)
        while index < word.endIndex, hidden[index - base] { index += 1 }
      } else {
        output.append(word[index])
        index += 1
      }
    }
    return pending
  }

  /// The password's range in `scheme://user:password@host…`, if the word has one.
  private static func userInfoPassword(in word: ArraySlice<UInt8>) -> (Int, Int)? {
    let separator = Array("://".utf8)
    guard
      let schemeEnd = word.indices.first(where: { word[$0...].starts(with: separator) })
    else { return nil }
    let authorityStart = schemeEnd + separator.count
    let authorityEnd =
      word[authorityStart...].firstIndex {
        $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#")
      }
      ?? word.endIndex
    guard let at = word[authorityStart..<authorityEnd].lastIndex(of: UInt8(ascii: "@")),
      let colon = word[authorityStart..<at].firstIndex(of: UInt8(ascii: ":")), colon + 1 < at
    else { return nil }
    return (colon + 1, at)
  }

  private static let placeholder = Array(Redactor.placeholder.utf8)

  private static func name(_ bytes: ArraySlice<UInt8>) -> Substring {
    Substring(decoding: bytes, as: UTF8.self)
  }

  private static func isScheme(_ word: ArraySlice<UInt8>) -> Bool {
    word.count == 5 || word.count == 6
      ? ["basic", "bearer"].contains(String(decoding: word, as: UTF8.self).lowercased()) : false
  }

  /// A token68 word (RFC 9110 §11.2) long enough to be a credential.
  /// A prose word is all lower-case letters; a token has a digit, a capital or a symbol.
  private static func isCredential(_ word: ArraySlice<UInt8>) -> Bool {
    word.count >= 8
      && word.contains { !(UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) }
      && word.allSatisfy { byte in
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
          UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
          UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "+"), UInt8(ascii: "/"),
          UInt8(ascii: "="):
          return true
        default:
          return false
        }
      }
  }

  private static func isPairSeparator(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: "?") || byte == UInt8(ascii: "&") || byte == UInt8(ascii: "#")
  }

  private static func isDelimiter(_ byte: UInt8) -> Bool {
    switch byte {
    case 0x09, 0x0A, 0x0D, 0x20, UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: ","),
      UInt8(ascii: ";"), UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "["),
      UInt8(ascii: "]"), UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "<"),
      UInt8(ascii: ">"):
      return true
    default:
      return false
    }
  }
}
