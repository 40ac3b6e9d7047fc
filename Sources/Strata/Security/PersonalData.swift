/// Personal data inside free text from a server — an error message that quotes what the user
/// sent — found by its shape, where no field name marks it, and replaced by `<redacted>`:
/// - card numbers: 13 to 19 digits, in groups split by single spaces or dashes, that pass
///   the Luhn check (so order numbers and timestamps stay readable);
/// - the value after an account label (`account`, `acct`, `routing`, `iban`, `aba`): a word
///   with four or more digits;
/// - a date after a birth label (`dob`, `birth`, `birthdate`, `born`);
/// - a code after a one-time-code label (`mfa`, `otp`, `2fa`, `totp`, `passcode`,
///   `verification`, `cvv`, `cvc`): three to eight digits.
/// Filler words between a label and its value (`number`, `no`, `code`, `is`, `of`, `date`)
/// are skipped. Text is scanned as ASCII bytes; other characters pass through untouched.
enum PersonalData {
  static func mask(_ text: String) -> String {
    let bytes = Array(text.utf8)
    guard bytes.contains(where: isDigit) else { return text }
    let spans = (cardNumbers(in: bytes) + labelledValues(in: bytes)).sorted {
      $0.lowerBound < $1.lowerBound
    }
    guard !spans.isEmpty else { return text }
    var output: [UInt8] = []
    var position = 0
    for span in spans where span.lowerBound >= position {
      output += bytes[position..<span.lowerBound]
      output += Array(Redactor.placeholder.utf8)
      position = span.upperBound
    }
    output += bytes[position...]
    return String(decoding: output, as: UTF8.self)
  }

  // MARK: Card numbers

  private static func cardNumbers(in bytes: [UInt8]) -> [Range<Int>] {
    var spans: [Range<Int>] = []
    var index = 0
    while index < bytes.count {
      guard isDigit(bytes[index]), index == 0 || !isWordByte(bytes[index - 1]) else {
        index += 1
        continue
      }
      var digits: [UInt8] = []
      var end = index
      while end < bytes.count {
        if isDigit(bytes[end]) {
          digits.append(bytes[end] - 48)
          end += 1
        } else if bytes[end] == 0x20 || bytes[end] == 0x2D, end + 1 < bytes.count,
          isDigit(bytes[end + 1]), digits.count < 19
        {
          end += 1
        } else {
          break
        }
      }
      let whole = end == bytes.count || !isWordByte(bytes[end])
      if whole, (13...19).contains(digits.count), luhn(digits) { spans.append(index..<end) }
      index = max(end, index + 1)
    }
    return spans
  }

  private static func luhn(_ digits: [UInt8]) -> Bool {
    var sum = 0
    for (offset, digit) in digits.reversed().enumerated() {
      let value = Int(digit) * (offset.isMultiple(of: 2) ? 1 : 2)
      sum += value > 9 ? value - 9 : value
    }
    return sum.isMultiple(of: 10)
  }

  // MARK: Labelled values

  private enum Label {
    case account, birth, code
  }

  private static let labels: [String: Label] = [
    "account": .account, "acct": .account, "routing": .account, "iban": .account,
    "aba": .account, "dob": .birth, "birth": .birth, "birthdate": .birth, "born": .birth,
    "mfa": .code, "otp": .code, "2fa": .code, "totp": .code, "passcode": .code,
    "verification": .code, "cvv": .code, "cvc": .code,
  ]
  private static let fillers: Set<String> = [
    "number", "no", "num", "nr", "code", "is", "of", "date", "on", "was",
  ]

  private static func labelledValues(in bytes: [UInt8]) -> [Range<Int>] {
    let words = self.words(in: bytes)
    var spans: [Range<Int>] = []
    for (position, word) in words.enumerated() {
      guard let label = labels[lowercased(bytes[word])] else { continue }
      var next = position + 1
      while next < words.count, next - position <= 3,
        fillers.contains(lowercased(bytes[words[next]]))
      {
        next += 1
      }
      guard next < words.count, let span = value(label, at: next, words, bytes) else { continue }
      spans.append(span)
    }
    return spans
  }

  /// The value a label at `index`'s word points at, when it is shaped like one.
  private static func value(_ label: Label, at index: Int, _ words: [Range<Int>], _ bytes: [UInt8])
    -> Range<Int>?
  {
    let word = words[index]
    let digits = bytes[word].filter(isDigit).count
    switch label {
    case .account:
      return digits >= 4 ? word : nil
    case .code:
      return (3...8).contains(digits) && digits == word.count ? word : nil
    case .birth:
      // 1990-01-01, 01/01/1990, 1.1.1990: three digit words joined by one separator each.
      guard digits == word.count, index + 2 < words.count else { return nil }
      let parts = words[index...(index + 2)]
      for (left, right) in zip(parts, parts.dropFirst()) {
        guard right.lowerBound - left.upperBound == 1,
          [0x2D, 0x2F, 0x2E].contains(bytes[left.upperBound]),
          bytes[right].allSatisfy(isDigit)
        else { return nil }
      }
      return word.lowerBound..<words[index + 2].upperBound
    }
  }

  /// The maximal runs of ASCII letters and digits.
  private static func words(in bytes: [UInt8]) -> [Range<Int>] {
    var words: [Range<Int>] = []
    var start: Int?
    for (index, byte) in bytes.enumerated() {
      if isWordByte(byte) {
        if start == nil { start = index }
      } else if let first = start {
        words.append(first..<index)
        start = nil
      }
    }
    if let first = start { words.append(first..<bytes.count) }
    return words
  }

  private static func lowercased(_ word: ArraySlice<UInt8>) -> String {
    String(decoding: word.map { (65...90).contains($0) ? $0 + 32 : $0 }, as: UTF8.self)
  }

  private static func isDigit(_ byte: UInt8) -> Bool { (48...57).contains(byte) }

  private static func isWordByte(_ byte: UInt8) -> Bool {
    isDigit(byte) || (65...90).contains(byte) || (97...122).contains(byte)
  }
}
