/// CRC-32 (IEEE 802.3, the zlib/PNG polynomial): the store log's per-record checksum, which
/// tells a record cut short or overwritten by a crash from a whole one. Eight bytes a step
/// ("slicing by 8": eight tables of 256, 8 KiB) over contiguous bytes — every store line is
/// checked on each open, so this is on the reopen's path — and a byte a step otherwise.
package enum CRC32 {
  /// `tables[k * 256 + b]`: the CRC of byte `b` followed by `k` zero bytes.
  private static let tables: [UInt32] = {
    var tables = [UInt32](repeating: 0, count: 8 * 256)
    for index in 0..<256 {
      var value = UInt32(index)
      for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
      tables[index] = value
    }
    for slice in 1..<8 {
      for index in 0..<256 {
        let previous = tables[(slice - 1) * 256 + index]
        tables[slice * 256 + index] = (previous >> 8) ^ tables[Int(previous & 0xFF)]
      }
    }
    return tables
  }()

  package static func checksum(_ bytes: some Sequence<UInt8>) -> UInt32 {
    if let crc = bytes.withContiguousStorageIfAvailable({ checksum(UnsafeRawBufferPointer($0)) }) {
      return crc
    }
    return tables.withUnsafeBufferPointer { table in
      var crc: UInt32 = 0xFFFF_FFFF
      for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
      return crc ^ 0xFFFF_FFFF
    }
  }

  private static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
    tables.withUnsafeBufferPointer { table in
      var crc: UInt32 = 0xFFFF_FFFF
      var offset = 0
      while offset + 8 <= bytes.count {
        let low = bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self).littleEndian ^ crc
        let high = bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self).littleEndian
        crc =
          table[7 * 256 + Int(low & 0xFF)] ^ table[6 * 256 + Int((low >> 8) & 0xFF)]
          ^ table[5 * 256 + Int((low >> 16) & 0xFF)] ^ table[4 * 256 + Int(low >> 24)]
          ^ table[3 * 256 + Int(high & 0xFF)] ^ table[2 * 256 + Int((high >> 8) & 0xFF)]
          ^ table[256 + Int((high >> 16) & 0xFF)] ^ table[Int(high >> 24)]
        offset += 8
      }
      while offset < bytes.count {
        crc = table[Int((crc ^ UInt32(bytes[offset])) & 0xFF)] ^ (crc >> 8)
        offset += 1
      }
      return crc ^ 0xFFFF_FFFF
    }
  }
}
