import Foundation
import Testing

/// The folders of `Strata`, and of the demo app's `DemoKit`, depend one way: a folder may use
/// the types of its own layer and of the layers below, never of one above. Swift has no imports between folders of one
/// module, so this test reads the sources: it finds the types each folder declares at the
/// top level, then every use of a type from a higher layer, and names file and line.
@Suite("Strata's layers depend one way")
struct LayeringTests {
  /// Bottom first. A folder not listed here fails the test: place it on purpose.
  static let layers: [String: Int] = [
    "Support": 0, "Security": 1, "Files": 2, "Identity": 2, "Config": 2, "Caching": 3, "DI": 2,
    "Logging": 3,
    "Networking": 4, "Auth": 5, "Storage": 5, "Preferences": 5, "Sync": 6,
  ]

  /// The demo app's: what every screen shares at the bottom, then the offline layer the
  /// features build on, the features, and the app that composes them. The offline layer
  /// names no feature (a feature registers itself with it), so a new feature touches only its
  /// folder and the composition root.
  static let demoLayers: [String: Int] = [
    "Support": 0, "Localization": 1, "Domain": 2, "API": 2, "Offline": 3, "Presentation": 4,
    "Features": 5, "App": 6,
  ]

  static func sources(_ module: String) -> URL {
    URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Sources/\(module)")
  }

  struct SourceFile {
    let folder: String
    let name: String
    let lines: [Substring]
  }

  static func files(_ module: String = "Strata") throws -> [SourceFile] {
    let sources = sources(module)
    let manager = FileManager.default
    var files: [SourceFile] = []
    for folder in try manager.contentsOfDirectory(atPath: sources.path).sorted() {
      let directory = sources.appendingPathComponent(folder)
      guard let walker = manager.enumerator(atPath: directory.path) else { continue }
      for case let path as String in walker where path.hasSuffix(".swift") {
        let text = try String(
          contentsOf: directory.appendingPathComponent(path), encoding: .utf8)
        files.append(
          SourceFile(
            folder: folder, name: path,
            lines: text.split(separator: "\n", omittingEmptySubsequences: false)))
      }
    }
    return files
  }

  /// Type names declared at the top level of a file (`public struct Name`, `enum Name`, …).
  static func declaredTypes(_ file: SourceFile) -> [String] {
    let kinds: Set<Substring> = ["struct", "enum", "class", "protocol", "actor", "typealias"]
    let modifiers: Set<Substring> = ["public", "package", "internal", "final"]
    return file.lines.compactMap { line in
      guard let first = line.first, first.isLetter else { return nil }  // top level only
      let words = line.split(whereSeparator: { !$0.isLetter && !$0.isNumber && $0 != "_" })
      guard let index = words.firstIndex(where: kinds.contains), index + 1 < words.count,
        words[..<index].allSatisfy(modifiers.contains)
      else { return nil }
      return String(words[index + 1])
    }
  }

  /// Capitalised identifiers used on a line, comments left out.
  static func identifiers(in line: Substring) -> Set<Substring> {
    let code = line.range(of: "//").map { line[..<$0.lowerBound] } ?? line
    return Set(
      code.split(whereSeparator: { !$0.isLetter && !$0.isNumber && $0 != "_" })
        .filter { $0.first?.isUppercase == true })
  }

  static func backEdges(in files: [SourceFile], layers: [String: Int] = layers) -> [String] {
    var owner: [Substring: String] = [:]
    for file in files {
      for type in declaredTypes(file) { owner[Substring(type)] = file.folder }
    }
    var found: [String] = []
    for file in files {
      let layer = layers[file.folder] ?? -1
      for (number, line) in file.lines.enumerated() {
        for name in identifiers(in: line) {
          guard let other = owner[name], let otherLayer = layers[other], otherLayer > layer
          else { continue }
          found.append(
            "\(file.folder)/\(file.name):\(number + 1) uses \(name) from \(other), a layer above")
        }
      }
    }
    return found.sorted()
  }

  @Test func everyFolderHasALayer() throws {
    let folders = Set(try Self.files().map(\.folder))
    #expect(folders.subtracting(Self.layers.keys).isEmpty, "unplaced: \(folders)")
    #expect(folders.count >= 7, "the sources were found: \(folders.sorted())")
  }

  @Test func noFolderUsesALayerAboveIt() throws {
    let edges = Self.backEdges(in: try Self.files())
    #expect(edges.isEmpty, "\(edges.joined(separator: "\n"))")
  }

  @Test func demoKitFoldersDependOneWay() throws {
    let files = try Self.files("DemoKit")
    let folders = Set(files.map(\.folder))
    #expect(folders.subtracting(Self.demoLayers.keys).isEmpty, "unplaced: \(folders)")
    #expect(folders.count >= 7, "the sources were found: \(folders.sorted())")
    let edges = Self.backEdges(in: files, layers: Self.demoLayers)
    #expect(edges.isEmpty, "\(edges.joined(separator: "\n"))")
  }

  /// The check itself works: the types it must see are seen, and a planted back-edge is
  /// caught (a mention in a comment is not a use).
  @Test func theCheckCatchesAPlantedBackEdge() throws {
    let files = try Self.files()
    let declared = Set(files.flatMap(Self.declaredTypes))
    #expect(declared.isSuperset(of: ["NetworkService", "AuthSession", "Log", "Config", "Origin"]))
    let planted = SourceFile(
      folder: "Config", name: "Planted.swift",
      lines: ["let service: NetworkService? = nil  // AuthSession in a comment is fine"])
    #expect(
      Self.backEdges(in: files + [planted]) == [
        "Config/Planted.swift:1 uses NetworkService from Networking, a layer above"
      ])
  }
}
