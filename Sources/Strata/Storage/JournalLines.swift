import Dispatch
import Foundation
import StrataConcurrency

/// The one line format of the store's files — the journal and, since format 4, the snapshot's
/// body: `<CRC-32 of the JSON, 8 hex digits> <JSON>\n` (JSON never holds a raw newline). A line
/// checks itself, so damage is found and set aside line by line, and lines decode on every
/// core: opening a store of 100,000 changes is mostly JSON decoding, each line on its own.
enum JournalLines {
  /// Whole lines in a buffer, newlines excluded, in order.
  struct Scan {
    var lines: [Range<Int>] = []
    /// Bytes up to the end of the last whole line; anything after it is a torn tail.
    var consumed = 0
  }

  /// One line, checked and decoded.
  enum Decoded<T> {
    case value(T)
    /// The checksum failed; `salvaged` is what its JSON still decodes to, when asked for.
    case damaged(salvaged: T?)
    /// The checksum holds but the JSON does not decode as `T`: a newer build's line.
    case undecodable(any Error)
  }

  /// The line for `json`, newline included.
  static func line(for json: Data) -> [UInt8] {
    var line = Array(String(format: "%08x ", CRC32.checksum(json)).utf8)
    line.reserveCapacity(line.count + json.count + 1)
    line += json
    line.append(UInt8(ascii: "\n"))
    return line
  }

  /// The whole lines of `bytes[range]`.
  static func scan(_ bytes: [UInt8], _ range: Range<Int>) -> Scan {
    var scan = Scan()
    var start = range.lowerBound
    while let newline = bytes[start..<range.upperBound].firstIndex(of: UInt8(ascii: "\n")) {
      scan.lines.append(start..<newline)
      start = newline + 1
    }
    scan.consumed = start - range.lowerBound
    return scan
  }

  /// Each of `lines` of `bytes` checked and decoded as `T`, in order; a damaged line's JSON is
  /// decoded too when `salvage` is set.
  static func decode<T: Decodable & Sendable>(
    _ type: T.Type, _ lines: [Range<Int>], in bytes: [UInt8], salvage: Bool = false
  ) -> [Decoded<T>] {
    decode(type, lines, in: bytes, salvage: salvage, reading: nil)
  }

  /// The same for the store's own line types, each line read by the type itself when it can
  /// (``StoreLine``), by `JSONDecoder` otherwise.
  static func decode<T: StoreLine>(
    _ type: T.Type, _ lines: [Range<Int>], in bytes: [UInt8], salvage: Bool = false
  ) -> [Decoded<T>] {
    decode(type, lines, in: bytes, salvage: salvage) { T.read($0, decoder: $1) }
  }

  private static func decode<T: Decodable & Sendable>(
    _ type: T.Type, _ lines: [Range<Int>], in bytes: [UInt8], salvage: Bool,
    reading: (@Sendable (JSONObject, JSONDecoder) -> T?)?
  ) -> [Decoded<T>] {
    inChunks(lines.count) { chunk in
      let decoder = JSONDecoder()
      decoder.dateDecodingStrategy = .millisecondsSince1970
      return lines[chunk].map { line in
        let json = line.count > 9 ? bytes[(line.lowerBound + 9)..<line.upperBound] : []
        let intact = json.isEmpty ? false : checksum(bytes[line]) == CRC32.checksum(json)
        guard intact || salvage else { return .damaged(salvaged: nil) }
        if let reading, let object = JSONObject(json), let value = reading(object, decoder) {
          return intact ? .value(value) : .damaged(salvaged: value)
        }
        do {
          let value = try decoder.decode(T.self, from: Data(json))
          return intact ? .value(value) : .damaged(salvaged: value)
        } catch {
          return intact ? .undecodable(error) : .damaged(salvaged: nil)
        }
      }
    }
  }

  /// Each value's JSON, in order.
  static func encode<T: Encodable & Sendable>(_ values: [T]) throws -> [Data] {
    try inChunks(values.count) { chunk in
      let encoder = JSONEncoder()
      encoder.dateEncodingStrategy = .millisecondsSince1970
      return values[chunk].map { value in Result { try encoder.encode(value) } }
    }.map { try $0.get() }
  }

  /// The checksum a line claims, nil when its first nine bytes are not `<8 hex digits> `.
  private static func checksum(_ line: ArraySlice<UInt8>) -> UInt32? {
    guard line.count > 9, line[line.startIndex + 8] == UInt8(ascii: " ") else { return nil }
    return UInt32(String(decoding: line.prefix(8), as: UTF8.self), radix: 16)
  }

  /// Lists shorter than this are coded on the calling thread: below it, handing chunks to
  /// other threads costs more than it saves.
  private static var parallelThreshold: Int { 2_048 }

  /// `work` over `0..<count` cut into one chunk per core, the chunks' results joined in order.
  private static func inChunks<T: Sendable>(
    _ count: Int, _ work: @escaping @Sendable (Range<Int>) -> [T]
  ) -> [T] {
    let cores = ProcessInfo.processInfo.activeProcessorCount
    guard count >= parallelThreshold, cores > 1 else { return work(0..<count) }
    let chunks = min(cores, 8)
    let size = (count + chunks - 1) / chunks
    // One slot per chunk, each filled by exactly one iteration.
    let slots = Lock([[T]](repeating: [], count: chunks))
    DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
      let range = (chunk * size)..<min(count, (chunk + 1) * size)
      let results = range.isEmpty ? [] : work(range)
      slots.withLock { $0[chunk] = results }
    }
    return slots.withLock { $0.flatMap { $0 } }
  }
}

extension JournalLines.Decoded: Sendable where T: Sendable {}
