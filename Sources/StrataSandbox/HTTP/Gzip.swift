import Foundation

/// gzip (RFC 1952) around DEFLATE (RFC 1951) with the fixed Huffman codes and a single-probe
/// LZ77 match finder: small and dependency-free; on the seeded JSON it makes bodies about a
/// third of their size (zlib's fastest level: a quarter). The sandbox only compresses; clients (libcurl, URLSession) inflate.
enum Gzip {
  static func compress(_ data: Data) -> Data {
    let input = [UInt8](data)
    var output: [UInt8] = [0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3]
    output += deflate(input)
    for value in [crc32(input), UInt32(truncatingIfNeeded: input.count)] {
      output += (0..<4).map { UInt8(truncatingIfNeeded: value >> UInt32($0 * 8)) }
    }
    return Data(output)
  }

  // MARK: DEFLATE, one fixed-Huffman block

  private static let lengthBases: [Int] = [
    3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131,
    163, 195, 227, 258,
  ]
  private static let lengthExtraBits: [Int] = [
    0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
  ]
  private static let distanceBases: [Int] = [
    1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537,
    2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577,
  ]
  private static let distanceExtraBits: [Int] = [
    0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13,
    13,
  ]
  private static let window = 32_768
  private static let maxMatch = 258

  static func deflate(_ input: [UInt8]) -> [UInt8] {
    var writer = BitWriter()
    writer.write(1, bits: 1)  // BFINAL
    writer.write(1, bits: 2)  // BTYPE 01: fixed Huffman codes
    var table = [Int](repeating: -1, count: 1 << 15)
    func hash(_ position: Int) -> Int {
      (Int(input[position]) << 10 ^ Int(input[position + 1]) << 5 ^ Int(input[position + 2]))
        & 0x7fff
    }
    var position = 0
    while position < input.count {
      var length = 0
      var distance = 0
      if position + 3 <= input.count {
        let key = hash(position)
        let candidate = table[key]
        table[key] = position
        if candidate >= 0, position - candidate <= window {
          let limit = min(maxMatch, input.count - position)
          while length < limit, input[candidate + length] == input[position + length] {
            length += 1
          }
          distance = position - candidate
        }
      }
      if length >= 3 {
        writer.writeLengthAndDistance(length, distance)
        for next in (position + 1)..<(position + length) where next + 3 <= input.count {
          table[hash(next)] = next
        }
        position += length
      } else {
        writer.writeLiteral(Int(input[position]))
        position += 1
      }
    }
    writer.writeLiteral(256)  // end of block
    writer.flush()
    return writer.bytes
  }

  private struct BitWriter {
    var bytes: [UInt8] = []
    private var buffer: UInt64 = 0
    private var count: UInt64 = 0

    /// Writes `bits` bits of `value`, least significant first (DEFLATE's bit order).
    mutating func write(_ value: Int, bits: Int) {
      buffer |= UInt64(value) << count
      count += UInt64(bits)
      while count >= 8 {
        bytes.append(UInt8(truncatingIfNeeded: buffer))
        buffer >>= 8
        count -= 8
      }
    }

    /// Writes a Huffman code, most significant bit first.
    mutating func writeCode(_ code: Int, bits: Int) {
      var reversed = 0
      for bit in 0..<bits where code >> bit & 1 == 1 { reversed |= 1 << (bits - 1 - bit) }
      write(reversed, bits: bits)
    }

    /// A literal/length symbol in the fixed code (RFC 1951 §3.2.6).
    mutating func writeLiteral(_ symbol: Int) {
      switch symbol {
      case 0...143: writeCode(0x30 + symbol, bits: 8)
      case 144...255: writeCode(0x190 + symbol - 144, bits: 9)
      case 256...279: writeCode(symbol - 256, bits: 7)
      default: writeCode(0xc0 + symbol - 280, bits: 8)
      }
    }

    mutating func writeLengthAndDistance(_ length: Int, _ distance: Int) {
      let lengthIndex = Gzip.lengthBases.lastIndex { $0 <= length } ?? 0
      writeLiteral(257 + lengthIndex)
      write(length - Gzip.lengthBases[lengthIndex], bits: Gzip.lengthExtraBits[lengthIndex])
      let distanceIndex = Gzip.distanceBases.lastIndex { $0 <= distance } ?? 0
      writeCode(distanceIndex, bits: 5)
      write(
        distance - Gzip.distanceBases[distanceIndex], bits: Gzip.distanceExtraBits[distanceIndex])
    }

    mutating func flush() {
      if count > 0 { bytes.append(UInt8(truncatingIfNeeded: buffer)) }
      buffer = 0
      count = 0
    }
  }

  // MARK: CRC-32 (IEEE 802.3, reflected)

  private static let crcTable: [UInt32] = (0..<256).map { index in
    var value = UInt32(index)
    for _ in 0..<8 { value = value & 1 == 1 ? 0xedb8_8320 ^ (value >> 1) : value >> 1 }
    return value
  }

  static func crc32(_ bytes: [UInt8]) -> UInt32 {
    ~bytes.reduce(~UInt32(0)) { crc, byte in
      crcTable[Int((crc ^ UInt32(byte)) & 0xff)] ^ (crc >> 8)
    }
  }
}
