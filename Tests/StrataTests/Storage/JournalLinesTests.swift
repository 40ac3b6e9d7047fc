import Foundation
import Testing

@testable import Strata

/// The line format both store files share, and its decoding on every core: long runs of lines
/// are cut into chunks decoded in parallel, and what comes back must be in the file's order,
/// with each damaged line in its own place.
@Suite("Journal lines")
struct JournalLinesTests {
  private struct Item: Codable, Sendable, Equatable {
    var number: Int
  }

  /// 5,000 lines (well past the size decoded in parallel), every 997th with a flipped byte,
  /// one torn line at the end: every intact line decodes in order, the damaged ones are
  /// reported where they are (salvaged when asked for), and the torn tail is not a line.
  @Test func manyLinesDecodeInOrderWithDamageInPlace() throws {
    let items = (0..<5_000).map { Item(number: $0) }
    var bytes: [UInt8] = []
    for json in try JournalLines.encode(items) { bytes += JournalLines.line(for: json) }
    var flipped: [Int] = []
    let scanned = JournalLines.scan(bytes, 0..<bytes.count)
    for index in stride(from: 0, to: items.count, by: 997) {
      bytes[scanned.lines[index].lowerBound + 1] ^= 0x01  // a checksum digit: the JSON decodes
      flipped.append(index)
    }
    bytes += Array("0000abcd {\"number\":".utf8)  // torn: no newline

    let scan = JournalLines.scan(bytes, 0..<bytes.count)
    #expect(scan.lines.count == items.count)
    #expect(bytes.count - scan.consumed == 19)
    let plain = JournalLines.decode(Item.self, scan.lines, in: bytes)
    let salvaged = JournalLines.decode(Item.self, scan.lines, in: bytes, salvage: true)
    for (index, (line, kept)) in zip(plain, salvaged).enumerated() {
      switch (line, kept) {
      case (.value(let item), .value(let same)):
        #expect(item == items[index] && same == item && !flipped.contains(index))
      case (.damaged(nil), .damaged(let salvage)):
        #expect(flipped.contains(index) && salvage == items[index])
      default:
        Issue.record("line \(index): \(line), \(kept)")
      }
    }
  }

  /// A line whose checksum holds but whose JSON is not the type asked for is not damage: a
  /// newer build may have written it, and the store must not skip it silently.
  @Test func anIntactLineOfAnotherShapeIsUndecodableNotDamaged() {
    let bytes = JournalLines.line(for: Data(#"{"other":true}"#.utf8))
    let scan = JournalLines.scan(bytes, 0..<bytes.count)
    guard case .undecodable = JournalLines.decode(Item.self, scan.lines, in: bytes).first else {
      Issue.record("an intact line of another shape was not reported undecodable")
      return
    }
  }
}
