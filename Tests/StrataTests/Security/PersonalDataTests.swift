import Foundation
import Strata
import Testing

/// Personal data a server quotes back in free text is masked wherever that text is shown or
/// kept (`UntrustedText.sanitize`: error messages, refusal notes), by its shape, while the
/// numbers people need to read (ids, timestamps, counts) stay.
@Suite("Personal data in server text")
struct PersonalDataTests {
  @Test func theHostileRefusalFromTheIssueIsMasked() {
    let text =
      "card 4111111111111111 was declined; account 000123456789 routing 021000021; "
      + "dob 1990-01-01; mfa code 123456"
    let shown = UntrustedText.sanitize(text)
    for leaked in ["4111111111111111", "000123456789", "021000021", "1990-01-01", "123456"] {
      #expect(!shown.contains(leaked), "\(leaked) in \(shown)")
    }
    #expect(shown.hasPrefix("card <redacted> was declined; account <redacted> routing <redacted>"))
  }

  @Test(arguments: [
    ("paid with 4111 1111 1111 1111 today", "paid with <redacted> today"),
    ("card 5500-0000-0000-0004 expired", "card <redacted> expired"),
    ("IBAN: DE89370400440532013000 is closed", "IBAN: <redacted> is closed"),
    ("date of birth: 01/02/1985", "date of birth: <redacted>"),
    ("born 1.2.1985 in Ulm", "born <redacted> in Ulm"),
    ("your OTP is 8841", "your OTP is <redacted>"),
    ("CVV 123 rejected", "CVV <redacted> rejected"),
  ])
  func shapesAreMasked(_ text: String, _ expected: String) {
    #expect(UntrustedText.sanitize(text) == expected)
  }

  @Test(arguments: [
    "order 4111111111111112 shipped",  // fails the Luhn check: not a card number
    "post 251 of 251, created 2026-11-25T10:00:00Z",
    "user 12345 not found",
    "retry after 1700000000000",
    "code 123456 is not a valid status",  // no one-time-code label
    "account settings changed",
  ])
  func ordinaryNumbersStay(_ text: String) {
    #expect(UntrustedText.sanitize(text) == text)
  }
}
