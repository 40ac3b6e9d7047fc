import Foundation

// Prints Strata's public API, one declaration per line, sorted by its path
// (`Config.int(_:default:in:) | func int(…) throws -> Int`), from the symbol graph that
// `swift-symbolgraph-extract -minimum-access-level public` writes. The output is checked in
// (Tests/PublicAPI/Strata.txt) so that every change to the surface shows up in a diff.
// Usage: strata-api-dump <symbol graph directory>

struct SymbolGraph: Decodable {
  struct Symbol: Decodable {
    struct Fragment: Decodable { let spelling: String }
    let pathComponents: [String]
    let declarationFragments: [Fragment]?
  }
  let symbols: [Symbol]
}

let arguments = CommandLine.arguments
guard arguments.count == 2 else {
  FileHandle.standardError.write(Data("usage: strata-api-dump <symbol graph directory>\n".utf8))
  exit(2)
}
let directory = URL(fileURLWithPath: arguments[1])
var lines: [String] = []
// Strata.symbols.json, plus Strata@<Module>.symbols.json for extensions of other modules' types.
let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
  .filter { $0.hasPrefix("Strata") && $0.hasSuffix(".symbols.json") }
for file in files {
  let graph = try JSONDecoder().decode(
    SymbolGraph.self, from: Data(contentsOf: directory.appendingPathComponent(file)))
  for symbol in graph.symbols {
    // One line each: collapse the whitespace of multi-line declarations.
    let declaration = (symbol.declarationFragments ?? []).map(\.spelling).joined()
      .split(whereSeparator: \.isWhitespace).joined(separator: " ")
    lines.append("\(symbol.pathComponents.joined(separator: ".")) | \(declaration)")
  }
}
print(lines.sorted().joined(separator: "\n"))
