import Foundation
import StrataConcurrency
import StrataTesting
import Testing

@testable import Strata

/// The store reads an app's values over its own scan of a line (a reopen reads 100,000 and
/// more); `JSONDecoder` with dates as milliseconds since 1970 stays the reference: whatever
/// the scan reads, it reads to the same value, and what it is not sure of it leaves.
@Suite("Values read from a line's scan")
struct ScannedJSONDecoderTests {
  enum Mood: String, Codable, Equatable { case calm, busy }
  enum Rank: Int, Codable, Equatable {
    case low = 1
    case high = 9
  }

  struct Author: Codable, Equatable {
    var name: String
    var joined: Date
  }

  /// A value with what apps keep: nested values, arrays of them, optionals absent, null or
  /// present, raw-value enumerations, a dictionary, every integer width, dates.
  struct Rich: Codable, Equatable {
    var id: Int
    var title: String
    var done: Bool
    var score: Double
    var note: String?
    var mood: Mood
    var rank: Rank?
    var tags: [String]
    var authors: [Author]
    var counts: [String: Int]
    var grid: [[Int8]]
    var small: Int16
    var unsigned: UInt32
    var big: Int64
    var when: Date?
  }

  private static let reference: JSONDecoder = {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .millisecondsSince1970
    return decoder
  }()

  private static func value(_ json: String) throws -> JSONObject.Value {
    try #require(JSONObject(ArraySlice(Array(#"{"v":\#(json)}"#.utf8)))?.value("v"))
  }

  /// The scan's value (nil: left to `JSONDecoder`) and the reference's.
  private static func bothWays<T: Decodable>(_ type: T.Type, _ json: String) throws -> (T?, T?) {
    let scanned = try? ScannedJSONDecoder.decode(type, from: value(json))
    return (scanned, try? reference.decode(type, from: Data(json.utf8)))
  }

  private static let alphabet = ["a", "\"", "\\", "/", "\n", "\u{01}", "é", "€", "😀", "\u{2028}"]

  private static func text(_ random: inout SeededRandom) -> String {
    (0..<Int.random(in: 0...8, using: &random)).map { _ in
      alphabet.randomElement(using: &random) ?? ""
    }.joined()
  }

  private static func rich(_ random: inout SeededRandom) -> Rich {
    func date() -> Date {
      Date(timeIntervalSince1970: Double.random(in: -1e9...4e9, using: &random).rounded() / 1000)
    }
    return Rich(
      id: Int.random(in: Int.min...Int.max, using: &random), title: text(&random),
      done: Bool.random(using: &random), score: Double.random(in: -1e6...1e6, using: &random),
      note: Bool.random(using: &random) ? text(&random) : nil,
      mood: Bool.random(using: &random) ? .calm : .busy,
      rank: Bool.random(using: &random) ? .high : nil,
      tags: (0..<Int.random(in: 0...3, using: &random)).map { _ in text(&random) },
      authors: (0..<Int.random(in: 0...2, using: &random)).map { _ in
        Author(name: text(&random), joined: date())
      },
      counts: Dictionary(
        uniqueKeysWithValues: (0..<Int.random(in: 0...3, using: &random)).map {
          ("k\($0)", Int.random(in: -9...9, using: &random))
        }),
      grid: [[Int8.min, 0, Int8.max], []], small: Int16.random(in: .min ... .max, using: &random),
      unsigned: UInt32.random(in: .min ... .max, using: &random),
      big: Int64.random(in: .min ... .max, using: &random),
      when: Bool.random(using: &random) ? date() : nil)
  }

  /// What the store writes for an app's value is read by the scan, to the reference's value.
  @Test func whatTheStoreWritesIsReadByTheScanAsJSONDecoderReadsIt() throws {
    let encoder = JSONEncoder()
    encoder.dateEncodingStrategy = .millisecondsSince1970
    var random = SeededRandom(seed: 0x5CA7)
    for _ in 0..<300 {
      let json = String(decoding: try encoder.encode(Self.rich(&random)), as: UTF8.self)
      let (scanned, reference) = try Self.bothWays(Rich.self, json)
      #expect(scanned != nil, "read by the scan: \(json)")
      #expect(scanned == reference, "\(json)")
    }
  }

  /// Text that is JSON but not as the store writes it: the scan reads it the same or leaves it.
  @Test(arguments: [
    #"{"id":1,"title":"t","done":true,"score":1e3,"mood":"calm","tags":[ "a" , "b" ],"authors":[],"counts":{},"grid":[],"small":-0,"unsigned":0,"big":1,"note":null,"rank":null}"#,
    #"{"id":1.0,"title":"t","done":true,"score":1,"mood":"calm","tags":[],"authors":[],"counts":{},"grid":[],"small":1,"unsigned":1,"big":1}"#,
    #"{"id":1e2,"title":"t","done":true,"score":1,"mood":"calm","tags":[],"authors":[],"counts":{},"grid":[],"small":1,"unsigned":1,"big":1}"#,
    #"{"id":1,"title":"\ud83d\ude00\u00e9","done":false,"score":-0.5E-3,"mood":"busy","rank":9,"tags":[],"authors":[{"name":"x","joined":12.5}],"counts":{"a":1},"grid":[[1],[2,3]],"small":32767,"unsigned":4294967295,"big":-9223372036854775808}"#,
    #"{"id":1,"title":"t","done":true,"score":1,"mood":"calm","tags":[],"authors":[],"counts":{},"grid":[[128]],"small":1,"unsigned":1,"big":1}"#,
    #"{"id":1,"title":"t","done":true,"score":1,"mood":"calm","tags":[],"authors":[],"counts":{},"grid":[],"small":1,"unsigned":-1,"big":1}"#,
    #"{"id":1,"title":"t","done":true,"score":1,"mood":"sad","tags":[],"authors":[],"counts":{},"grid":[],"small":1,"unsigned":1,"big":1}"#,
    #"{"id":1,"title":"t","title":"u","done":true,"score":1,"mood":"calm","tags":[],"authors":[],"counts":{},"grid":[],"small":1,"unsigned":1,"big":1}"#,
    #"{"id":1,"title":"t","done":"true","score":1,"mood":"calm","tags":[],"authors":[],"counts":{},"grid":[],"small":1,"unsigned":1,"big":1}"#,
    #"{"id":1,"title":"t","done":true,"score":1,"mood":"calm","tags":[1,],"authors":[],"counts":{},"grid":[],"small":1,"unsigned":1,"big":1}"#,
    #"{"id":1,"done":true,"score":1,"mood":"calm","tags":[],"authors":[],"counts":{},"grid":[],"small":1,"unsigned":1,"big":1}"#,
  ])
  func unusualTextIsReadTheSameOrLeftToJSONDecoder(_ json: String) throws {
    let (scanned, reference) = try Self.bothWays(Rich.self, json)
    if let scanned { #expect(scanned == reference) }
  }

  /// An array's elements are found as JSON has them, and text that only looks like an array
  /// (its closing bracket taken by an element, a trailing comma, a missing one) is none.
  @Test(
    arguments: [
      ("[]", 0), ("[ ]", 0), ("[1]", 1), ("[ 1 , [2,3] , {\"a\":[]} ]", 3), ("[[1]", nil),
      ("[1,]", nil), ("[1 2]", nil), ("[", nil), ("]", nil), ("[\"]", nil), ("{}", nil),
    ] as [(String, Int?)])
  func arraysAreSplitIntoTheirElementsOrRefused(_ text: String, _ count: Int?) {
    #expect(JSONObject.Value(bytes: ArraySlice(Array(text.utf8))).elements?.count == count)
  }

  /// `JSONDecoder` decides what it decodes its own way (`Data` as Base64, `URL`, `Decimal`,
  /// `Float`): the scan leaves them, and the store's answer is still the reference's.
  @Test func typesJSONDecoderReadsItsOwnWayAreLeftToIt() throws {
    #expect(try Self.bothWays(Data.self, #""AQI=""#).0 == nil)
    #expect(try Self.bothWays(URL.self, #""https://example.com/a""#).0 == nil)
    // What these types' own `Decodable` reads and `JSONDecoder` does not: never read here.
    let bytes = try Self.bothWays(Data.self, "[1,2]")
    #expect(bytes.0 == nil && bytes.1 == nil)
    let link = try Self.bothWays(URL.self, #"{"relative":"https://example.com/a"}"#)
    #expect(link.0 == nil && link.1 == nil)
    #expect(try Self.bothWays(Decimal.self, "1.5").0 == nil)
    #expect(try Self.bothWays(Float.self, "0.1").0 == nil)
    #expect(try Self.bothWays(Int.self, "1.0").0 == nil)
    let (scanned, reference) = try Self.bothWays([Double].self, "[0.1,1e308,-0]")
    #expect(scanned != nil && scanned == reference)
    let gaps = try Self.bothWays([String?].self, #"[null,"a",null,"b"]"#)
    #expect(gaps.0 == [nil, "a", nil, "b"] && gaps.0 == gaps.1)
  }

  /// Which elements of an array are there, read as a hand-written `Decodable` reads them:
  /// `decodeNil()` on the array's container, then the element when it is not null.
  struct Presence: Decodable, Equatable {
    var present: [Bool]
    init(from decoder: any Decoder) throws {
      var elements = try decoder.unkeyedContainer()
      present = []
      while !elements.isAtEnd {
        if try elements.decodeNil() {
          present.append(false)
        } else {
          _ = try elements.decode(Int.self)
          present.append(true)
        }
      }
    }
  }

  @Test func anArraysNullsAreToldApartFromItsValues() throws {
    let (scanned, reference) = try Self.bothWays(Presence.self, "[1,null,2,null]")
    #expect(scanned?.present == [true, false, true, false], "read by the scan")
    #expect(scanned == reference)
  }

  struct Tree: Codable, Equatable {
    var children: [Tree]
  }

  /// A recursive type on a line nested past `JSONDecoder`'s own limit is left to it (which
  /// refuses it) rather than followed until the stack runs out; a shallow one is read.
  @Test func aValueNestedPastJSONDecodersLimitIsLeftToIt() throws {
    func nested(_ depth: Int) -> String {
      String(repeating: #"{"children":["#, count: depth) + #"{"children":[]}"#
        + String(repeating: "]}", count: depth)
    }
    let shallow = try Self.bothWays(Tree.self, nested(10))
    #expect(shallow.0 != nil && shallow.0 == shallow.1)
    // On a thread with the stack an app's main thread has, as the store's reader would be.
    let deep = try Self.value(nested(1_000))
    let read = Lock<Tree??>(nil)
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
      read.withLock { $0 = .some(try? ScannedJSONDecoder.decode(Tree.self, from: deep)) }
      done.signal()
    }
    thread.stackSize = 8 << 20
    thread.start()
    #expect(done.wait(timeout: .now() + 60) == .success)
    #expect(read.withLock { $0 } == .some(nil))
  }
}
