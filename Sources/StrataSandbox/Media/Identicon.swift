import Foundation
import StrataConcurrency

/// A square identicon for a name, as a PNG: a 5 × 5 mirrored pattern in one colour, both drawn
/// from the SHA-256 of the name, so the same name always gives the same bytes. (DummyJSON draws
/// its icons with another library; what the sandbox keeps of its contract is the route, the
/// sizes and the headers, not the pixels.)
enum Identicon {
  /// `size` × `size` pixels, 8-bit RGB.
  static func png(for name: String, size: Int) -> Data {
    let digest = SHA256.hash(Data(name.utf8))
    let colour = [digest[0] / 2 + 64, digest[1] / 2 + 64, digest[2] / 2 + 64]
    let background: [UInt8] = [240, 240, 240]
    // Column c of the left three decides c and 4 - c: the pattern is mirrored.
    func filled(_ row: Int, _ column: Int) -> Bool {
      let half = column < 3 ? column : 4 - column
      return digest[3 + row * 3 + half] & 1 == 1
    }
    let cell = max(1, size / 6)  // a margin of half a cell around the 5 × 5 grid
    let margin = (size - cell * 5) / 2
    // Each band of `cell` rows is one row repeated: drawn once, copied (a 1000-pixel icon is
    // 3 MB of pixels; a debug build drawing each of them kept a client waiting past its
    // timeout on a busy machine).
    func line(_ row: Int?) -> Data {
      var line = Data([0])  // filter: none
      for x in 0..<size {
        let column = (x - margin) / cell
        let inside = row != nil && x >= margin && column < 5
        line.append(contentsOf: inside && filled(row ?? 0, column) ? colour : background)
      }
      return line
    }
    let bands = (0..<5).map { line($0) }
    let blank = line(nil)
    var raw = Data(capacity: (size * 3 + 1) * size)
    for y in 0..<size {
      let row = (y - margin) / cell
      raw.append(y >= margin && row < 5 ? bands[row] : blank)
    }
    var header = Data()
    header.appendBigEndian(UInt32(size))
    header.appendBigEndian(UInt32(size))
    header.append(contentsOf: [8, 2, 0, 0, 0])  // 8 bits, RGB, deflate, no filter, no interlace
    var png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    png.appendChunk("IHDR", header)
    png.appendChunk("IDAT", Zlib.wrap(raw, compressed: raw.count <= 64 * 1024))
    png.appendChunk("IEND", Data())
    return png
  }
}

/// A zlib stream (RFC 1950) around the sandbox's own DEFLATE, or around stored blocks: what
/// an avatar's size compresses well and fast; a large icon goes stored rather than through a
/// compressor written for JSON pages.
enum Zlib {
  static func wrap(_ data: Data, compressed: Bool) -> Data {
    var out = Data([0x78, 0x01])
    if compressed {
      out.append(contentsOf: Gzip.deflate([UInt8](data)))
    } else {
      var offset = data.startIndex
      repeat {
        let count = min(65_535, data.endIndex - offset)
        let last: UInt8 = offset + count == data.endIndex ? 1 : 0
        out.append(contentsOf: [last, UInt8(count & 0xFF), UInt8(count >> 8)])
        out.append(contentsOf: [UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)])
        out.append(data[offset..<offset + count])
        offset += count
      } while offset < data.endIndex
    }
    out.appendBigEndian(adler32(data))
    return out
  }

  static func adler32(_ data: Data) -> UInt32 {
    var (a, b): (UInt32, UInt32) = (1, 0)
    for byte in data {
      a = (a + UInt32(byte)) % 65_521
      b = (b + a) % 65_521
    }
    return b << 16 | a
  }
}

extension Data {
  fileprivate mutating func appendBigEndian(_ value: UInt32) {
    append(contentsOf: [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) })
  }

  /// A PNG chunk: length, type, data, and the CRC-32 of type and data.
  fileprivate mutating func appendChunk(_ type: String, _ data: Data) {
    appendBigEndian(UInt32(data.count))
    let typed = Data(type.utf8) + data
    append(typed)
    appendBigEndian(Gzip.crc32([UInt8](typed)))
  }
}
