/// Text that came from a server (error messages, body excerpts, header values), made safe to
/// print or log: one line, no control characters, ANSI escapes or bidirectional overrides,
/// JWT-shaped strings, credentials found by their shape (a URL password, `password=…`,
/// `Bearer …`), personal data found by its shape (card numbers, account numbers, birth dates,
/// one-time codes after their labels) and known secrets masked, and capped in length.
public enum UntrustedText {
  /// The default cap, in characters.
  package static let defaultLimit = 300

  /// `text` made safe to show; see ``UntrustedText``. `limit` is the most characters kept
  /// before `…` (counted after masking, so a cut never leaves half a secret).
  public static func sanitize(_ text: String, limit: Int = 300) -> String {
    let shapes = CredentialShapes.mask(maskingJWTs(in: oneLine(text))) {
      Redactor.standard.isSensitive(field: String($0))
    }
    let flat = KnownSecrets.mask(PersonalData.mask(shapes))
    guard flat.count > limit else { return flat }
    return String(flat.prefix(max(0, limit))) + "…"
  }

  /// Control characters become spaces (runs collapse to one), escape sequences and bidi
  /// controls are removed, and the result is trimmed.
  static func oneLine(_ text: String) -> String {
    var output = String.UnicodeScalarView()
    var scalars = text.unicodeScalars.makeIterator()
    var pendingSpace = false
    func emit(_ scalar: Unicode.Scalar) {
      if pendingSpace, !output.isEmpty { output.append(" ") }
      pendingSpace = false
      output.append(scalar)
    }
    while let scalar = scalars.next() {
      switch scalar.value {
      case 0x1B:  // ESC: drop the whole sequence (CSI `ESC [ … final`, OSC `ESC ] … BEL`).
        switch scalars.next()?.value {
        case 0x5B:
          while let next = scalars.next(), !(0x40...0x7E).contains(next.value) {}
        case 0x5D:
          while let next = scalars.next(), next.value != 0x07, next.value != 0x1B {}
        default: break
        }
      case 0x200E, 0x200F, 0x061C, 0x202A...0x202E, 0x2066...0x2069:
        continue  // bidirectional controls can make text read backwards
      case 0x20, 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029:
        pendingSpace = true
      default:
        emit(scalar)
      }
    }
    return String(output)
  }

  /// Replaces anything shaped like a JWT (`eyJ….….…`) with `<redacted>`.
  static func maskingJWTs(in text: String) -> String {
    guard text.contains("eyJ") else { return text }
    let scalars = Array(text.unicodeScalars)
    var output = String.UnicodeScalarView()
    var index = 0
    while index < scalars.count {
      if let end = jwtEnd(scalars, from: index) {
        output.append(contentsOf: Redactor.placeholder.unicodeScalars)
        index = end
      } else {
        output.append(scalars[index])
        index += 1
      }
    }
    return String(output)
  }

  /// The end of a JWT starting at `start` (`eyJ`, three base64url segments, two dots).
  private static func jwtEnd(_ scalars: [Unicode.Scalar], from start: Int) -> Int? {
    guard start + 3 <= scalars.count, scalars[start] == "e", scalars[start + 1] == "y",
      scalars[start + 2] == "J", start == 0 || !isBase64URL(scalars[start - 1])
    else { return nil }
    var index = start
    var dots = 0
    var segment = 0
    while index < scalars.count {
      let scalar = scalars[index]
      if isBase64URL(scalar) {
        segment += 1
      } else if scalar == ".", dots < 2, segment > 0 {
        dots += 1
        segment = 0
      } else {
        break
      }
      index += 1
    }
    return dots == 2 ? index : nil
  }

  private static func isBase64URL(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar {
    case "A"..."Z", "a"..."z", "0"..."9", "-", "_", "=": true
    default: false
    }
  }
}
