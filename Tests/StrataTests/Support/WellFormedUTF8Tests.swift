import Foundation
import StrataTesting
import Testing

@testable import Strata

/// The package's UTF-8 check (the standard library's needs macOS 15 / iOS 18): it agrees with
/// `String(validating:as:)` on random bytes, and refuses what UTF-8 forbids.
@Suite("Well-formed UTF-8")
struct WellFormedUTF8Tests {
  @Test func agreesWithTheStandardLibraryOnRandomBytes() {
    var random = SeededRandom(seed: 0x07F8)
    // Bytes drawn mostly from the ranges multi-byte sequences are made of.
    let pool: [UInt8] =
      Array(0x00...0x7F) + Array(0x80...0xBF) + Array(0xC0...0xFF)
      + Array(repeating: 0x80, count: 64) + Array(repeating: 0xE2, count: 32)
    var validSeen = 0
    for _ in 0..<50_000 {
      let bytes = (0..<Int.random(in: 0...8, using: &random)).map { _ in
        pool.randomElement(using: &random) ?? 0
      }
      let ours = String(wellFormedUTF8: bytes)
      #expect(ours == Self.reference(bytes), "\(bytes)")
      if ours != nil { validSeen += 1 }
    }
    #expect(validSeen > 1_000)
  }

  /// The standard library's check where the OS has it (Linux always; Apple platforms from
  /// macOS 15 / iOS 18), Foundation's before.
  private static func reference(_ bytes: [UInt8]) -> String? {
    if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, *) {
      return String(validating: bytes, as: UTF8.self)
    }
    return String(bytes: bytes, encoding: .utf8)
  }

  @Test(
    arguments: [
      [0xC0, 0xAF],  // an overlong "/"
      [0xED, 0xA0, 0x80],  // a surrogate
      [0xE2, 0x82],  // truncated "€"
      [0xF4, 0x90, 0x80, 0x80],  // past U+10FFFF
      [0xFF],
    ] as [[UInt8]])
  func refusesWhatUTF8Forbids(bytes: [UInt8]) {
    #expect(String(wellFormedUTF8: bytes) == nil)
  }

  /// ASCII is checked eight bytes at a time: a non-ASCII byte is found at every place of a
  /// line, in a whole word or in the tail, and a slice is checked from its own start.
  @Test func findsANonASCIIByteAtAnyPlace() {
    for length in 0...40 {
      let ascii = [UInt8](repeating: UInt8(ascii: "a"), count: length)
      #expect(UTF8.scalarsBeforeError(in: ascii) == nil)
      for position in 0..<length {
        var bad = ascii
        bad[position] = 0xFF
        #expect(UTF8.scalarsBeforeError(in: bad) == position, "\(length) \(position)")
        #expect(UTF8.scalarsBeforeError(in: ([0xC3, 0xA9] + bad)[2...]) == position)
        var accented = ascii
        accented.replaceSubrange(position...position, with: [0xC3, 0xA9])
        #expect(String(wellFormedUTF8: accented)?.unicodeScalars.count == length)
      }
    }
  }

  @Test func readsWhatItAccepts() {
    #expect(String(wellFormedUTF8: Array("é€😀 plain".utf8)) == "é€😀 plain")
    #expect(String(wellFormedUTF8: [UInt8]()) == "")
  }
}
