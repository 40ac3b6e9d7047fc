import Foundation
import StrataTesting
import Testing

@testable import Strata

/// The store's checksum: the standard CRC-32 (check value 0xCBF43926), the same eight bytes a
/// step over contiguous bytes as a byte a step over any other sequence, at every length and
/// every alignment.
@Suite("CRC-32")
struct CRC32Tests {
  @Test func theStandardCheckValue() {
    #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
    #expect(CRC32.checksum(Data("123456789".utf8)) == 0xCBF4_3926)
    #expect(CRC32.checksum([UInt8]()) == 0)
  }

  @Test func eightBytesAStepAgreesWithOneAtEveryLengthAndAlignment() {
    var generator = SeededRandom(seed: 0xC3C3)
    let bytes = (0..<200).map { _ in UInt8.random(in: 0...255, using: &generator) }
    for start in 0..<8 {
      for length in 0...(bytes.count - start) {
        let slice = bytes[start..<(start + length)]
        // A lazy map is not contiguous: it takes the byte-a-step path.
        #expect(CRC32.checksum(slice) == CRC32.checksum(slice.lazy.map { $0 }))
      }
    }
  }
}
