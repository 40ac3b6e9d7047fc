import Foundation

// Prints a module's public API, one declaration per line, sorted by its path
// (`Config.int(_:default:in:) | func int(…) throws -> Int`), from the symbol graph that
// `swift-symbolgraph-extract -minimum-access-level public` writes. The output is checked in
// (Tests/PublicAPI/<module>.txt) so that every change to a shipped surface shows up in a diff.
// Usage: strata-api-dump <symbol graph directory> [module, default Strata]

struct SymbolGraph: Decodable {
  struct Symbol: Decodable {
    struct Fragment: Decodable { let spelling: String }
    let pathComponents: [String]
    let declarationFragments: [Fragment]?
  }
  let symbols: [Symbol]
}

let arguments = CommandLine.arguments
guard (2...3).contains(arguments.count) else {
  FileHandle.standardError.write(
    Data("usage: strata-api-dump <symbol graph directory> [module]\n".utf8))
  exit(2)
}
let directory = URL(fileURLWithPath: arguments[1])
let module = arguments.count == 3 ? arguments[2] : "Strata"
var lines: [String] = []
// <module>.symbols.json, plus <module>@<Other>.symbols.json for extensions of other modules' types.
let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
  .filter { $0 == module + ".symbols.json" || $0.hasPrefix(module + "@") }
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
