import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A `multipart/form-data` body (RFC 7578): text fields and files, in order. Files are read
/// when the request is built, a megabyte at a time, into one temporary file that each attempt
/// streams — so a form with a gigabyte's video in it never holds more than that megabyte.
public struct MultipartForm: Sendable {
  /// One part: a field's name, its content, and for a file its name and type.
  struct Part: Sendable {
    enum Content: Sendable {
      case data(Data)
      case file(URL)
    }
    let name: String
    let filename: String?
    let contentType: String?
    let content: Content
  }

  /// Separates the parts; random, so no content contains it.
  public let boundary: String
  private(set) var parts: [Part] = []

  public init() {
    boundary = "strata-" + UUID().uuidString.replacingOccurrences(of: "-", with: "")
  }

  /// A text field.
  public mutating func add(_ name: String, _ value: String) {
    parts.append(
      Part(name: name, filename: nil, contentType: nil, content: .data(Data(value.utf8))))
  }

  /// Bytes sent as a file named `filename`.
  public mutating func add(_ name: String, data: Data, filename: String, contentType: String) {
    parts.append(
      Part(name: name, filename: filename, contentType: contentType, content: .data(data)))
  }

  /// A file from disk, sent under its own name unless `filename` is given.
  public mutating func add(
    _ name: String, file: URL, filename: String? = nil, contentType: String
  ) {
    parts.append(
      Part(
        name: name, filename: filename ?? file.lastPathComponent, contentType: contentType,
        content: .file(file)))
  }

  var contentType: String { "multipart/form-data; boundary=\(boundary)" }

  /// The whole body, written to `output` as it is made (and `output` closed); its length in
  /// bytes.
  /// - Throws: ``FileError`` naming a file of the form that cannot be read; the error of a
  ///   write that failed.
  func stream(into output: FileHandle) throws -> Int {
    defer { try? output.close() }
    var length = 0
    func emit(_ data: Data) throws {
      try output.write(contentsOf: data)
      length += data.count
    }
    for part in parts {
      try emit(Data(head(of: part).utf8))
      switch part.content {
      case .data(let data): try emit(data)
      case .file(let url):
        let input = FileHandle(
          fileDescriptor: try PrivateFile.openUserFile(url.path), closeOnDealloc: true)
        defer { try? input.close() }
        while let chunk = try input.read(upToCount: 1 << 20), !chunk.isEmpty { try emit(chunk) }
      }
      try emit(Data("\r\n".utf8))
    }
    try emit(Data("--\(boundary)--\r\n".utf8))
    return length
  }

  /// A part's boundary line and headers. Quotes, CR and LF in names are percent-encoded, as
  /// browsers do, so a name cannot end its header early.
  private func head(of part: Part) -> String {
    func quoted(_ text: String) -> String {
      text.replacingOccurrences(of: "\"", with: "%22").replacingOccurrences(of: "\r", with: "%0D")
        .replacingOccurrences(of: "\n", with: "%0A")
    }
    var head = "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(quoted(part.name))\""
    if let filename = part.filename { head += "; filename=\"\(quoted(filename))\"" }
    head += "\r\n"
    if let type = part.contentType { head += "Content-Type: \(quoted(type))\r\n" }
    return head + "\r\n"
  }
}

/// A body each attempt sends from a file, read from the start; a temporary one (a multipart
/// form's) is removed when the call that made it ends.
final class StreamedBody: Sendable {
  let path: String
  let length: Int
  private let temporary: Bool

  init(path: String, length: Int, temporary: Bool) {
    (self.path, self.length, self.temporary) = (path, length, temporary)
  }

  deinit { if temporary { unlink(path) } }
}
