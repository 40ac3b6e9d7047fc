import Foundation
import StrataConcurrency
import StrataTesting
import Testing

@testable import Strata

/// The store's table of values behaves as the dictionary it replaced: the same answers after
/// any mix of inserts, overwrites and removals (removals close their probe chains, and move
/// the last value into the gap), and its keys keep their text exactly.
@Suite("Record table")
struct RecordTableTests {
  private static func record(_ value: Int) -> StoredRecord<Int> {
    StoredRecord(value: value, status: .synced, updatedAt: Date(timeIntervalSince1970: 0))
  }

  /// Keys of both forms: a device's change identities and the server's short keys, with
  /// look-alikes that must stay text (lower case, one digit short).
  private static let keys: [String] = (0..<300).flatMap { number in
    let id = String(format: "00000000-0000-4000-8000-%012X", number)
    return [id, id.lowercased(), "post-\(number)", String(id.dropLast())]
  }

  private static func key(_ random: inout SeededRandom) -> String {
    keys.randomElement(using: &random) ?? ""
  }

  @Test("any mix of writes and removals answers as a dictionary does", arguments: 1...3)
  func matchesADictionary(seed: UInt64) {
    var random = SeededRandom(seed: seed)
    var table = RecordTable<Int>()
    var model: [String: Int] = [:]
    for step in 0..<3_000 {
      let key = Self.key(&random)
      if Int.random(in: 0..<3, using: &random) == 0 {
        table[key] = nil
        model[key] = nil
      } else {
        table[key] = Self.record(step)
        model[key] = step
      }
      let probe = Self.key(&random)
      #expect(table[probe]?.value == model[probe], "step \(step), key \(probe)")
    }
    #expect(table.count == model.count)
    #expect(Dictionary(uniqueKeysWithValues: table.map { ($0.key, $0.value.value) }) == model)
    table.removeAll { $0.value % 2 == 0 }
    #expect(table.count == model.values.filter { $0 % 2 != 0 }.count)
    for (key, value) in model { #expect(table[key]?.value == (value % 2 == 0 ? nil : value)) }
  }

  @Test("a key made on the device is kept as a UUID; every other key as its text")
  func keyForms() throws {
    let id = UUID()
    #expect(StoreKey(id.uuidString) == .uuid(id))
    #expect(StoreKey(id.uuidString).string == id.uuidString)
    let lower = id.uuidString.lowercased()
    #expect(StoreKey(lower) == .text(lower))
    #expect(StoreKey("post-151") == .text("post-151"))
    #expect(
      StoreKey(String(id.uuidString.dropLast()) + "G")
        == .text(String(id.uuidString.dropLast()) + "G"))
    #expect(UUIDText.parse(lower.utf8) == id)
    #expect(UUIDText.parse(lower.utf8, uppercaseOnly: true) == nil)
    #expect(UUIDText.parse(id.uuidString.replacingOccurrences(of: "-", with: "+").utf8) == nil)
    for _ in 0..<200 {
      let other = UUID()
      #expect(UUIDText.string(other) == other.uuidString)
      #expect(UUIDText.parse(other.uuidString.utf8) == other)
    }
  }

  @Test("the table round-trips through the dictionary form older snapshots hold")
  func codable() throws {
    var table = RecordTable<Int>()
    for number in 0..<50 {
      table[number % 2 == 0 ? "post-\(number)" : UUID().uuidString] = Self.record(number)
    }
    let data = try JSONEncoder().encode(table)
    let back = try JSONDecoder().decode(RecordTable<Int>.self, from: data)
    #expect(back.count == 50)
    for (key, record) in table { #expect(back[key]?.value == record.value) }
  }

  /// An index answers a lookup as a scan would, after any mix of writes and removals, and
  /// reads only the values it names (the filter runs for those alone).
  @Test("an index answers as a scan does, reading only what it names", arguments: 1...3)
  func anIndexAnswersAsAScanDoes(seed: UInt64) {
    var random = SeededRandom(seed: seed)
    let byTens = ValueIndex<Int>("tens") { $0 / 10 }
    var table = RecordTable<Int>()
    table.keep([byTens])
    for step in 0..<2_000 {
      let key = Self.key(&random)
      if Int.random(in: 0..<3, using: &random) == 0 {
        table[key] = nil
      } else {
        table[key] = Self.record(Int.random(in: 0..<100, using: &random))
      }
      if step % 500 == 0 { table.removeAll { $0.value == 42 } }
    }
    for tens in 0..<10 {
      let read = Lock(0)
      let indexed = ValueQuery<Int>(
        byTens.equals(tens),
        where: { _ in
          read.withLock { $0 += 1 }
          return true
        })
      let scanned = ValueQuery<Int>(where: { $0 / 10 == tens })
      let found = Set(table.select(indexed).map(\.key))
      #expect(found == Set(table.select(scanned).map(\.key)), "tens \(tens)")
      #expect(read.withLock { $0 } == found.count, "only the values the index names were read")
      #expect(table.count(indexed) == found.count)
    }
  }
}
