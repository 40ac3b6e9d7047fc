import Foundation

/// A body as text: the charset a `Content-Type` names, and the bytes read in it.
enum BodyText {
  /// The `charset` parameter of a `Content-Type` (`text/plain; charset="ISO-8859-1"`), lower
  /// case and unquoted; nil when there is none.
  static func charset(of contentType: String?) -> String? {
    guard let contentType else { return nil }
    for parameter in contentType.split(separator: ";").dropFirst() {
      let pair = parameter.split(separator: "=", maxSplits: 1)
      guard pair.count == 2,
        pair[0].trimmingCharacters(in: .whitespaces).lowercased() == "charset"
      else { continue }
      let value = pair[1].trimmingCharacters(in: .whitespaces)
        .trimmingCharacters(in: CharacterSet(charactersIn: "\"")).lowercased()
      return value.isEmpty ? nil : value
    }
    return nil
  }

  /// `data` read in `charset` (UTF-8 when nil: JSON's and the web's default); nil when the
  /// charset is unknown or the bytes are not valid in it. A UTF-8 byte-order mark is dropped.
  static func decode(_ data: Data, charset: String?) -> String? {
    switch charset ?? "utf-8" {
    case "utf-8", "utf8":
      var bytes = data[...]
      if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
      // Not `String(validating:)`: it needs macOS 15, past the package's floor.
      return String(data: Data(bytes), encoding: .utf8)
    case "us-ascii", "ascii":
      return data.allSatisfy { $0 < 0x80 } ? String(decoding: data, as: UTF8.self) : nil
    case "iso-8859-1", "latin1", "iso_8859-1", "l1":
      // Every byte is a character: the first 256 code points.
      return String(String.UnicodeScalarView(data.map { Unicode.Scalar($0) }))
    case "utf-16": return String(data: data, encoding: .utf16)
    case "utf-16le": return String(data: data, encoding: .utf16LittleEndian)
    case "utf-16be": return String(data: data, encoding: .utf16BigEndian)
    case "windows-1252", "cp1252": return String(data: data, encoding: .windowsCP1252)
    default: return nil
    }
  }
}
