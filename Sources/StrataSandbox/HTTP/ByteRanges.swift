import Foundation

/// `Range: bytes=…` on an answer that offers ranges (`Accept-Ranges: bytes`), per RFC 9110
/// §14: one range → `206` with `Content-Range`; a range past the end → `416`; several ranges,
/// a malformed header, or an `If-Range` that does not match the answer's strong `ETag` → the
/// whole answer, `200`.
enum ByteRanges {
  static func apply(_ response: SandboxResponse, for request: SandboxRequest) -> SandboxResponse {
    guard response.status == 200, request.method == "GET",
      response.header("Accept-Ranges") == "bytes", let header = request.header("Range")
    else { return response }
    if let condition = request.header("If-Range"),
      condition.hasPrefix("W/") || condition != response.header("ETag")
    {
      return response  // changed (or only weakly the same): the whole representation
    }
    let total = response.body.count
    guard let range = parse(header, total: total) else {
      guard header.lowercased().hasPrefix("bytes="), !header.contains(",") else { return response }
      var refused = SandboxResponse(status: 416, headers: [("Content-Range", "bytes */\(total)")])
      refused.headers += response.headers.filter { $0.name.lowercased() == "etag" }
      return refused
    }
    var partial = response
    partial.status = 206
    partial.body = response.body.subdata(in: range)
    partial.headers.append(
      ("Content-Range", "bytes \(range.lowerBound)-\(range.upperBound - 1)/\(total)"))
    return partial
  }

  /// One satisfiable range of `bytes=first-last`, `bytes=first-` or `bytes=-suffix`; nil for
  /// anything else (several ranges, bad numbers, or nothing of it within `total`).
  static func parse(_ header: String, total: Int) -> Range<Int>? {
    let lower = header.lowercased()
    guard lower.hasPrefix("bytes="), !lower.contains(",") else { return nil }
    let spec = lower.dropFirst(6).trimmingCharacters(in: .whitespaces)
    let parts = spec.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
    guard parts.count == 2 else { return nil }
    func number(_ text: Substring) -> Int? {
      text.isEmpty || text.count > 18 || !text.allSatisfy(\.isASCII) ? nil : Int(text)
    }
    if parts[0].isEmpty {
      guard let suffix = number(parts[1]), suffix > 0, total > 0 else { return nil }
      return max(0, total - suffix)..<total
    }
    guard let first = number(parts[0]), first < total else { return nil }
    let last = parts[1].isEmpty ? total - 1 : number(parts[1]).map { min($0, total - 1) }
    guard let last, last >= first else { return nil }
    return first..<(last + 1)
  }
}
