import DemoKit
import Foundation
import Strata

/// What a command shows: text for a person, or JSON with `--json`. Every command's result is
/// rendered here, so tables, detail views and JSON look the same everywhere.
struct Output {
  enum Text {
    /// Aligned columns, then an optional footer line ("showing 1–10 of 208").
    case table(headers: [String], rows: [[String]], footer: String?)
    /// `Label: value` lines; nil values are left out.
    case detail([(String, String?)])
    case line(String)
    /// Nothing (the command wrote as it went).
    case nothing
  }

  var text: Text
  /// What `--json` prints; nil prints the text.
  var json: (any Encodable)?
  /// The exit status once printed (`sync` exits 75 while changes wait).
  var status = ExitStatus.ok

  /// A command that has already written everything.
  static var none: Output { Output(text: .nothing, json: nil) }

  /// The lines to print, or nil for nothing.
  func rendered(json asJSON: Bool) throws -> String? {
    if asJSON, let json { return try Self.json(json) }
    switch text {
    case .table(let headers, let rows, let footer):
      return Self.table(headers, rows) + (footer.map { "\n" + $0 } ?? "")
    case .detail(let fields): return Self.detail(fields)
    case .line(let line): return line
    case .nothing: return nil
    }
  }

  /// A page a view model loaded, as a table (its failure thrown, for the exit status).
  static func page<Item: Encodable & PageItem>(
    _ page: Page<Item>?, failure: (any Error)?, headers: [String], row: (Item) -> [String]
  ) throws -> Output {
    if let failure { throw failure }
    guard let page else { throw CommandFailure(Localized.current("error.nothingLoaded")) }
    return Output(
      text: .table(headers: headers, rows: page.items.map(row), footer: footer(page)),
      json: page)
  }

  /// The footer of a page: which items of how many.
  static func footer<Item>(_ page: Page<Item>) -> String {
    let text = Localized.current
    guard page.total > 0 else { return text("page.empty") }
    guard !page.items.isEmpty else { return text("page.none", ["total": String(page.total)]) }
    return text(
      "page.showing",
      [
        "first": String(page.skip + 1), "last": String(page.skip + page.items.count),
        "total": String(page.total),
      ])
  }

  // MARK: Rendering

  static func table(_ headers: [String], _ rows: [[String]], maxWidth: Int = 48) -> String {
    let cells = rows.map { $0.map { clip($0, maxWidth) } }
    let widths = headers.indices.map { column in
      max(
        headers[column].count,
        cells.map { $0.indices.contains(column) ? $0[column].count : 0 }.max() ?? 0)
    }
    func line(_ values: [String]) -> String {
      values.enumerated().map { index, value in
        index == values.count - 1
          ? value : value + String(repeating: " ", count: widths[index] - value.count)
      }.joined(separator: "  ")
    }
    return ([line(headers)] + cells.map(line)).joined(separator: "\n")
  }

  static func detail(_ fields: [(String, String?)]) -> String {
    let present = fields.compactMap { key, value in
      value.map { (key, UntrustedText.sanitize($0)) }
    }
    let width = present.map(\.0.count).max() ?? 0
    return present.map { key, value in
      key + ":" + String(repeating: " ", count: width - key.count + 1) + value
    }
    .joined(separator: "\n")
  }

  /// `1.5s` from one second up, `250ms` below (`1,5 s`, `250 ms` in German): how the CLI
  /// shows waits and run times.
  static func duration(_ duration: Duration) -> String { Localized.current.duration(duration) }

  /// A cell: server text made one safe line (no control characters or escapes), clipped.
  static func clip(_ text: String, _ width: Int) -> String {
    UntrustedText.sanitize(text, limit: max(1, width - 1))
  }

  /// Server text is kept whole in JSON, but a character a terminal acts on — C1 controls
  /// (U+0080–U+009F, U+009B is CSI), DEL, bidi overrides and isolates, line separators — is
  /// written as a `\uXXXX` escape: a JSON reader gets the text back, a terminal sees no control.
  /// (JSONEncoder already escapes C0.) Such characters only occur inside JSON strings, where
  /// an escape means the same character.
  static func json(_ value: any Encodable, pretty: Bool = true) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    if pretty { encoder.outputFormatting.insert(.prettyPrinted) }
    let text = String(decoding: try encoder.encode(value), as: UTF8.self)
    guard text.unicodeScalars.contains(where: isTerminalControl) else { return text }
    var escaped = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
      guard isTerminalControl(scalar) else {
        escaped.append(scalar)
        continue
      }
      let hex = String(scalar.value, radix: 16)
      escaped.append(
        contentsOf: ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).unicodeScalars)
    }
    return String(escaped)
  }

  private static func isTerminalControl(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x7F...0x9F, 0x061C, 0x200E, 0x200F, 0x2028...0x202E, 0x2066...0x2069: true
    default: false
    }
  }
}
