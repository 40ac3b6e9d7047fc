import Foundation
import Testing

/// Every file the library writes goes through `Files/PrivateFile.swift` (0600, never
/// through a link, only the user's own, never in a shared temporary directory): a call that
/// makes, opens or writes a file any other way in `Sources/Strata` fails this test, with the
/// file, the line and what to use instead.
@Suite("One way to write a file: no other file call in the library")
struct FileWritingLintTests {
  /// A spelling that makes or opens a file its own way, and what to use.
  static let rules: [(pattern: String, use: String)] = [
    (#"(^|[^.\w])(?<!func )open\("#, "PrivateFile.open, openUserFile or openSystemFile"),
    (#"\bfopen\("#, "PrivateFile.open"),
    (#"\bcreat\("#, "PrivateFile.open"),
    (#"createFile\("#, "PrivateFile.create"),
    (#"\bO_CREAT\b"#, "PrivateFile.open(_:_:creating:): only it makes files"),
    (#"\.write\(to:"#, "PrivateFile.replace"),
    (#"FileHandle\(forWriting"#, "PrivateFile.open, then FileHandle(fileDescriptor:)"),
    (#"FileHandle\(forUpdating"#, "PrivateFile.open, then FileHandle(fileDescriptor:)"),
    (#"NSTemporaryDirectory"#, "a directory of the app's own (AppDirectories)"),
    (#"temporaryDirectory"#, "a directory of the app's own (AppDirectories)"),
    (#"createDirectory\("#, "PrivateFile.makeDirectory (0700 in one step)"),
    (#"(^|[^.\w])mkdir\("#, "PrivateFile.makeDirectory"),
  ]

  static let library = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Sources/Strata")

  /// `file:line: text (use …)` for each call outside the one place; comments are skipped.
  static func violations(in text: String, file: String) throws -> [String] {
    let expressions = try rules.map { (try NSRegularExpression(pattern: $0.pattern), $0.use) }
    var found: [String] = []
    for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
    {
      let code = String(line)
      let trimmed = code.trimmingCharacters(in: .whitespaces)
      guard !trimmed.hasPrefix("//") else { continue }
      let range = NSRange(code.startIndex..., in: code)
      for (expression, use) in expressions
      where expression.firstMatch(in: code, range: range) != nil {
        found.append("\(file):\(index + 1): \(trimmed) (use \(use))")
      }
    }
    return found
  }

  @Test func theLibraryWritesFilesOnlyThroughPrivateFile() throws {
    let files = FileManager.default.enumerator(atPath: Self.library.path)?.allObjects as? [String]
    let sources = (files ?? []).filter { $0.hasSuffix(".swift") }
    #expect(sources.count > 50, "the library's sources were found")
    var found: [String] = []
    for file in sources where file != "Files/PrivateFile.swift" {
      let text = try String(
        contentsOf: Self.library.appendingPathComponent(file), encoding: .utf8)
      found += try Self.violations(in: text, file: "Sources/Strata/" + file)
    }
    #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
  }

  /// The lint finds each spelling (a lint that finds nothing passes every tree).
  @Test func eachSpellingIsFound() throws {
    let planted = """
      let fd = open(path, O_RDWR)
      FileManager.default.createFile(atPath: p, contents: nil)
      try data.write(to: url)
      let t = NSTemporaryDirectory()
      let flags = O_WRONLY | O_CREAT
      mkdir(p, 0o755)
      try FileManager.default.createDirectory(atPath: p, withIntermediateDirectories: true)
      // open(path) in a comment is fine
      files.open(path, flags)
      static func open(_ path: String)
      """
    let found = try Self.violations(in: planted, file: "x")
    #expect(found.count == 7, "\(found)")
  }
}
