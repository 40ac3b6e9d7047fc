import Foundation
import StrataTesting
import Testing

@testable import Strata

/// The store's own line types read their lines without `JSONDecoder` (a reopen reads one per
/// change). `JSONDecoder` stays the reference: whatever the store writes is read to the same
/// value both ways, and a line the fast reader is not sure of is left to `JSONDecoder`.
@Suite("Store lines")
struct StoreLineTests {
  private struct Item: Codable, Sendable, Equatable {
    var title: String
    var tags: [String]
  }

  private static let decoder: JSONDecoder = {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .millisecondsSince1970
    return decoder
  }()

  /// Text with what JSON escapes and what it does not: quotes, backslashes, slashes, control
  /// characters, line separators, accents, a euro sign and an emoji.
  private static let alphabet: [String] = [
    "a", "Z", "7", " ", "\"", "\\", "/", "\n", "\t", "\r", "\u{01}", "\u{1F}", "\u{7F}", "é", "€",
    "😀", "\u{2028}", "{", "}", ":", ",", "[",
  ]

  private static func text(_ random: inout SeededRandom, maxLength: Int = 12) -> String {
    (0..<Int.random(in: 0...maxLength, using: &random)).map { _ in
      alphabet.randomElement(using: &random) ?? ""
    }.joined()
  }

  private static func entry(_ random: inout SeededRandom) -> OutboxEntry {
    let payload = Data(
      (0..<Int.random(in: 0...40, using: &random)).map { _ in
        UInt8.random(in: 0...255, using: &random)
      })
    var entry = OutboxEntry(
      kind: text(&random), payload: payload,
      createdAt: Date(timeIntervalSince1970: Double.random(in: 0...4e9, using: &random)))
    entry.status = SyncStatus.allCases.randomElement(using: &random) ?? .pending
    entry.attempts = Int.random(in: 0...Int(Int32.max), using: &random)
    entry.message = Bool.random(using: &random) ? text(&random, maxLength: 40) : nil
    entry.recordKey = Bool.random(using: &random) ? text(&random) : nil
    entry.serverKey = Bool.random(using: &random) ? text(&random) : nil
    entry.after = Bool.random(using: &random) ? UUID() : nil
    return entry
  }

  private static func record(_ random: inout SeededRandom) -> StoredRecord<Item> {
    StoredRecord(
      value: Item(title: text(&random), tags: (0..<3).map { _ in text(&random, maxLength: 3) }),
      status: SyncStatus.allCases.randomElement(using: &random) ?? .synced,
      updatedAt: Date(timeIntervalSince1970: Double.random(in: 0...4e9, using: &random)),
      message: Bool.random(using: &random) ? text(&random) : nil,
      deleted: Bool.random(using: &random),
      serverKey: Bool.random(using: &random) ? text(&random) : nil)
  }

  /// The value `T` reads from `json` itself, and the one `JSONDecoder` decodes.
  private static func bothWays<T: StoreLine>(_ type: T.Type, _ json: Data) -> (fast: T?, slow: T?) {
    let fast = JSONObject(ArraySlice(json)).flatMap { T.read($0, decoder: decoder) }
    return (fast, try? decoder.decode(T.self, from: json))
  }

  /// Changes are compared as the JSON they encode to, keys sorted (they are not Equatable).
  private static func sorted(_ change: StoreChange<Item>?) throws -> Data? {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    encoder.dateEncodingStrategy = .millisecondsSince1970
    return try change.map { try encoder.encode($0) }
  }

  /// CPU work for seconds: on a thread of its own, never holding the tests' cooperative pool.
  /// The journal's lines keep the names every store so far wrote — an append is `enqueue`, a
  /// rewrite `settle`, a discard `discard` — so a store written before the outbox's words
  /// changed opens, and one written now opens in an older build.
  @Test func theJournalKeepsItsNamesForEveryStoreSoFar() throws {
    var random = SeededRandom(seed: 7)
    let entry = Self.entry(&random)
    let encoder = JSONEncoder()
    let named: [(StoreChange<Item>, String)] = [
      (.append(entry: entry, record: nil), "enqueue"),
      (.rewrite(entry: entry, record: nil, formerKey: nil), "settle"),
      (.discard(id: entry.id), "discard"),
    ]
    for (change, name) in named {
      let line = String(decoding: try encoder.encode(change), as: UTF8.self)
      #expect(line.hasPrefix(#"{"\#(name)":"#), "\(line)")
      let read = try JSONDecoder().decode(StoreChange<Item>.self, from: Data(line.utf8))
      #expect(String(describing: read) == String(describing: change))
    }
  }

  @Test func whatTheStoreWritesReadsTheSameBothWays() async throws {
    let problems = try await offThePool { try Self.writtenLinesReadTheSameBothWays() }
    #expect(problems.isEmpty, "\(problems.prefix(5))")
  }

  /// What was read differently (an `#expect` needs the test's task, which this thread is not).
  private static func writtenLinesReadTheSameBothWays() throws -> [String] {
    var problems: [String] = []
    var random = SeededRandom(seed: 0x5107_E11E)
    for _ in 0..<1_500 {
      let entry = Self.entry(&random)
      let record = Self.record(&random)
      let changes: [StoreChange<Item>] = [
        .append(entry: entry, record: Bool.random(using: &random) ? record : nil),
        .rewrite(
          entry: entry, record: Bool.random(using: &random) ? record : nil,
          formerKey: Bool.random(using: &random) ? Self.text(&random) : nil),
      ]
      let lines = try JournalLines.encode([entry])
      let entryBothWays = Self.bothWays(OutboxEntry.self, lines[0])
      if entryBothWays.fast == nil || entryBothWays.fast != entryBothWays.slow {
        problems.append("entry: " + String(decoding: lines[0], as: UTF8.self))
      }
      let recordLine = try JournalLines.encode([record])[0]
      let recordBothWays = Self.bothWays(StoredRecord<Item>.self, recordLine)
      if recordBothWays.fast == nil || recordBothWays.fast != recordBothWays.slow {
        problems.append("record: " + String(decoding: recordLine, as: UTF8.self))
      }
      for json in try JournalLines.encode(changes) {
        let (fast, slow) = Self.bothWays(StoreChange<Item>.self, json)
        if try fast == nil || Self.sorted(fast) != Self.sorted(slow) {
          problems.append("change: " + String(decoding: json, as: UTF8.self))
        }
      }
    }
    return problems
  }

  private static let id = "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"

  private static func entryJSON(_ members: String) -> Data {
    Data(("{" + members + "}").utf8)
  }

  private static let base =
    #""id":"\#(id)","kind":"post.create","payload":"e30=","createdAt":1795632374020.5,"status":"pending","attempts":2"#

  private static func replacing(_ old: String, _ new: String) -> String {
    base.replacingOccurrences(of: old, with: new)
  }

  /// Hand-written entry lines, and whether the fast reader must read each itself.
  private static let unusualLines: [(members: String, readsItself: Bool)] = [
    (base, true),
    (base + #","message":null,"recordKey":null"#, true),
    (base + #","message":"\ud83d\ude00 \u00e9\"\\\/\b\f\n\r\t""#, true),
    (" " + replacing(",", " ,\n\t") + " ", true),
    (replacing(id, id.lowercased()), true),
    (replacing("1795632374020.5", "-0.0"), true),
    (base + #","extra":1"#, false),
    (base + #","kind":"again""#, false),
    (replacing(#""kind""#, #""k\u0069nd""#), false),
    (replacing(#""attempts":2"#, #""attempts":2.0"#), false),
    (replacing(#""attempts":2"#, #""attempts":2e0"#), false),
    (replacing(#""attempts":2"#, #""attempts":02"#), false),
    (replacing(#""attempts":2"#, #""attempts":9223372036854775808"#), false),
    (replacing(#","attempts":2"#, ""), false),
    (replacing("1795632374020.5", "1e400"), false),
    (replacing(id, id.replacingOccurrences(of: "-", with: "")), false),
    (replacing(id, "E621E1F8-C36C-495A-93FC-0C247A3E6E5G"), false),
    (replacing("e30=", "e30"), false),
    (replacing(#""pending""#, #""lost""#), false),
    (base + #","message":"\ud800""#, false),
    (base + ",\"message\":\"a\u{01}b\"", false),
    (base + #","message":"\x""#, false),
    (base + #","message":5"#, false),
  ]

  /// Lines written by hand, as no store writes them: each is read the same both ways, or left
  /// to `JSONDecoder` — never read to another value. Those the fast reader must read itself
  /// are marked: it does not give up on every unusual line.
  @Test(arguments: unusualLines)
  func unusualEntryLinesAreReadTheSameOrLeftToJSONDecoder(members: String, readsItself: Bool) {
    let (fast, slow) = Self.bothWays(OutboxEntry.self, Self.entryJSON(members))
    if let fast { #expect(fast == slow) }
    #expect((fast != nil) == readsItself)
  }

  /// Not one object: trailing text, two objects, an unclosed one, an array.
  @Test(arguments: [#"{"a":1} x"#, #"{"a":1}{"b":2}"#, #"{"a":{"b":1}"#, "[1]", "", #"{"a":}"#])
  func onlyOneWholeObjectIsAnObject(text: String) {
    #expect(JSONObject(ArraySlice(Array(text.utf8))) == nil)
  }

  /// Damage the checksum would catch, read anyway (a salvage reads a damaged line's JSON): any
  /// byte of a written line (half the time the first of a value) changed, dropped or doubled,
  /// 20,000 times. The fast reader never traps and never reads a value JSONDecoder would not.
  /// (Seconds of CPU: on a thread of its own, off the tests' cooperative pool.)
  @Test func damagedLinesAreReadTheSameOrLeftToJSONDecoder() async throws {
    let misread = try await offThePool { try Self.damagedLinesReadDifferently() }
    #expect(misread.isEmpty, "\(misread.prefix(5))")
  }

  private static func damagedLinesReadDifferently() throws -> [String] {
    var misread: [String] = []
    var random = SeededRandom(seed: 0xDA_3A6E)
    let replacements =
      Array(#"{}[]":,\ 0123456789.eE-+nulltrufasxu"#.utf8) + [0x00, 0x1F, 0xC3, 0xFF]
    for _ in 0..<20_000 {
      var bytes = Array(try JournalLines.encode([Self.entry(&random)])[0])
      // Half the time the first byte of a value, where the reader decides what a value is.
      let valueStarts = bytes.indices.filter { $0 > 0 && bytes[$0 - 1] == UInt8(ascii: ":") }
      let index =
        Bool.random(using: &random)
        ? valueStarts.randomElement(using: &random) ?? 0
        : Int.random(in: 0..<bytes.count, using: &random)
      switch Int.random(in: 0..<3, using: &random) {
      case 0: bytes[index] = replacements.randomElement(using: &random) ?? 0
      case 1: bytes.remove(at: index)
      default: bytes.insert(bytes[index], at: index)
      }
      let (fast, slow) = Self.bothWays(OutboxEntry.self, Data(bytes))
      if let fast, fast != slow { misread.append(String(decoding: bytes, as: UTF8.self)) }
    }
    return misread
  }

  /// A damaged or foreign line with a great many keys is left to JSONDecoder at once (the
  /// check for a repeated key compares each key with those before it).
  @Test func aLineWithManyKeysIsLeftToJSONDecoder() {
    let many = (0..<100_000).map { #""k\#($0)":\#($0)"# }.joined(separator: ",")
    #expect(JSONObject(ArraySlice(Array("{\(many)}".utf8))) == nil)
    let few = (0..<JSONObject.maxMembers).map { #""k\#($0)":\#($0)"# }.joined(separator: ",")
    #expect(JSONObject(ArraySlice(Array("{\(few)}".utf8)))?.count == JSONObject.maxMembers)
  }

  @Test func nestedValuesAreSkippedWholeAndReadOnRequest() throws {
    let text = #"{"a":{"b":[1,{"c":"}]\"{"}],"d":null},"e":"x"}"#
    let object = try #require(JSONObject(ArraySlice(Array(text.utf8))))
    #expect(object.count == 2)
    #expect(object.value("e")?.string == "x")
    let inner = try #require(object.value("a")?.object)
    #expect(inner.value("d")?.isNull == true)
    #expect(
      inner.value("b").map { String(decoding: $0.bytes, as: UTF8.self) } == #"[1,{"c":"}]\"{"}]"#)
  }
}
