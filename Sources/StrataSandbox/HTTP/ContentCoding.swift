import Foundation
import StrataConcurrency

/// What Express and its compression middleware do to every answer of the real service: a weak
/// `ETag` on 2xx bodies (a matching `If-None-Match` turns a GET into `304 Not Modified`), and
/// gzip for bodies of 1 KiB or more when the request's `Accept-Encoding` allows it.
enum ContentCoding {
  /// Smallest body compressed (the compression middleware's default threshold).
  static let threshold = 1_024

  static func finish(_ response: SandboxResponse, for request: SandboxRequest) -> SandboxResponse {
    var response = response
    guard !response.body.isEmpty, (200..<300).contains(response.status) else { return response }
    // A route that answers in byte ranges gives its own (strong) tag.
    let given = response.header("ETag")
    let tag = given ?? etag(response.body)
    if given == nil { response.headers.append(("ETag", tag)) }
    if request.method == "GET" || request.method == "HEAD",
      let condition = request.header("If-None-Match"), matches(condition, tag)
    {
      return SandboxResponse(status: 304, headers: [("ETag", tag)])
    }
    guard response.body.count >= threshold, isCompressible(response), acceptsGzip(request) else {
      return response
    }
    response.body = Gzip.compress(response.body)
    response.headers.append(("Content-Encoding", "gzip"))
    return response
  }

  /// `W/"<length in hex>-<hash>"`, the shape of Express's weak ETags.
  static func etag(_ body: Data) -> String {
    let digest = Data(SHA256.hash(body)).base64EncodedString().prefix(27)
    return "W/\"\(String(body.count, radix: 16))-\(digest)\""
  }

  /// `"<length in hex>-<hash>"`: a strong tag, for answers served in byte ranges (a weak one
  /// never matches an `If-Range`).
  static func strongTag(_ body: Data) -> String { String(etag(body).dropFirst(2)) }

  /// `*`, or a list of tags of which one equals `tag` (weak comparison).
  private static func matches(_ condition: String, _ tag: String) -> Bool {
    let wanted = tag.hasPrefix("W/") ? String(tag.dropFirst(2)) : tag
    return condition.split(separator: ",").contains { candidate in
      let text = candidate.trimmingCharacters(in: .whitespaces)
      return text == "*" || (text.hasPrefix("W/") ? String(text.dropFirst(2)) : text) == wanted
    }
  }

  /// A type the compression middleware would gzip (so the answer varies by encoding).
  static func isCompressible(_ response: SandboxResponse) -> Bool {
    let type =
      response.headers.first { $0.name.lowercased() == "content-type" }?.value.lowercased() ?? ""
    return type.contains("json") || type.hasPrefix("text/")
  }

  /// Whether `Accept-Encoding` lists gzip (or `*`) without `q=0`.
  private static func acceptsGzip(_ request: SandboxRequest) -> Bool {
    guard let header = request.header("Accept-Encoding") else { return false }
    return header.lowercased().split(separator: ",").contains { item in
      let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
      guard let coding = parts.first, coding == "gzip" || coding == "*" else { return false }
      let quality = parts.dropFirst().first { $0.hasPrefix("q=") }.flatMap {
        Double($0.dropFirst(2))
      }
      return (quality ?? 1) > 0
    }
  }
}
