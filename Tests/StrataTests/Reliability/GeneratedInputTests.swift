import Foundation
import Strata
import StrataTesting
import Testing

@Suite("Generated bad input")
struct GeneratedInputTests {
  static let seedText = """
    // seed
    #include? "missing.xcconfig"
    API = https://dummyjson.com   // real
    NAME = "quoted // text \\" with escapes\\n"
    LITERAL = 'single $(NOT) quoted'
    URL = $(API)/v1 # comment
    NESTED = ${URL}/x$$y
    EMPTY =
    """
  static let alphabet: [UInt8] =
    Array("\"'$(){}#/\\=\r\n\t ABCxyz_09.:;?\u{FEFF}é".utf8) + [0xFF, 0xC3, 0x00]

  static func mutate(_ bytes: [UInt8], _ random: inout SeededRandom) -> [UInt8] {
    var result = bytes
    for _ in 0..<Int.random(in: 1...6, using: &random) {
      let position = result.isEmpty ? 0 : Int.random(in: 0..<result.count, using: &random)
      let byte = alphabet[Int.random(in: 0..<alphabet.count, using: &random)]
      switch Int.random(in: 0..<4, using: &random) {
      case 0: result.insert(byte, at: position)
      case 1: if !result.isEmpty { result.remove(at: position) }
      case 2: if !result.isEmpty { result[position] = byte }
      default:
        let length = Int.random(in: 1...12, using: &random)
        let slice = result[position..<min(result.count, position + length)]
        result.insert(contentsOf: slice, at: min(result.count, position + length))
      }
    }
    return result
  }

  @Test func tenThousandMutatedConfigsNeverCrashAndFailWithALocation() async throws {
    let directory = try TemporaryDirectory()
    let (failures, problems) = try await offThePool { () throws -> (Int, [String]) in
      var random = SeededRandom(seed: 0xC0FF_EE)
      let seed = Array(Self.seedText.utf8)
      var failures = 0
      var problems: [String] = []
      for index in 0..<10_000 {
        let bytes = Self.mutate(seed, &random)
        do {
          if index % 10 == 0 {
            // Raw bytes through a file: invalid UTF-8, NULs and stray CRs included.
            let path = try directory.write("m\(index % 50).xcconfig", bytes: bytes)
            _ = try Config(file: path, environment: [:])
          } else {
            _ = try Config(
              parsing: String(decoding: bytes, as: UTF8.self), name: "m.xcconfig", environment: [:]
            )
          }
        } catch let error as ConfigError {
          failures += 1
          switch error.kind {
          case .unreadableFile, .missingKey, .invalidValue:
            problems.append("unexpected kind \(error.kind) for input \(index)")
          default:
            guard let line = error.location?.line, let column = error.location?.column else {
              problems.append("input \(index): error without a location: \(error)")
              continue
            }
            if line < 1 || line > bytes.count + 1 || column < 1 {
              problems.append("input \(index): location \(line):\(column) outside the input")
            }
          }
        } catch {
          problems.append("input \(index) threw a non-ConfigError: \(error)")
        }
      }
      return (failures, problems)
    }
    #expect(problems.isEmpty, "\(problems.prefix(10))")
    #expect(failures > 1000, "the mutations do exercise the error paths (\(failures))")
    #expect(failures < 10_000, "and some mutations still parse")
  }
}
