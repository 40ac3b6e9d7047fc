import Foundation

/// `Range: bytes=…` on an answer that offers ranges (`Accept-Ranges: bytes`), per RFC 9110
/// §14: one satisfiable range → `206` with `Content-Range`; a valid range wholly past the end
/// → `416`; an invalid range set (another unit, `5-3`, not a number, several ranges) or an
/// `If-Range` that does not match the answer's strong `ETag` → ignored, the whole answer,
/// `200`. A position too large for an `Int` is clamped (§14.1.2: a last position past the end
/// means the end).
enum ByteRanges {
  /// What a `Range` header asks of a representation of a given length.
  enum Asked: Equatable {
    /// Not a valid range set: ignored.
    case whole
    case range(Range<Int>)
    /// Valid, but wholly past the end.
    case unsatisfiable
  }

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
    switch parse(header, total: total) {
    case .whole: return response
    case .unsatisfiable:
      var refused = SandboxResponse(status: 416, headers: [("Content-Range", "bytes */\(total)")])
      refused.headers += response.headers.filter { $0.name.lowercased() == "etag" }
      return refused
    case .range(let range):
      var partial = response
      partial.status = 206
      partial.body = response.body.subdata(in: range)
      partial.headers.append(
        ("Content-Range", "bytes \(range.lowerBound)-\(range.upperBound - 1)/\(total)"))
      return partial
    }
  }

  /// `bytes=first-last`, `bytes=first-` or `bytes=-suffix`, one range only.
  static func parse(_ header: String, total: Int) -> Asked {
    let lower = header.lowercased()
    guard lower.hasPrefix("bytes="), !lower.contains(",") else { return .whole }
    let spec = lower.dropFirst(6).trimmingCharacters(in: .whitespaces)
    let parts = spec.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
    guard parts.count == 2 else { return .whole }
    /// Digits only; past `Int` (19 digits and more may be) clamped to `Int.max`.
    func number(_ text: Substring) -> Int? {
      guard !text.isEmpty, text.utf8.allSatisfy({ (48...57).contains($0) }) else { return nil }
      return Int(text) ?? Int.max
    }
    if parts[0].isEmpty {
      guard let suffix = number(parts[1]) else { return .whole }
      guard suffix > 0, total > 0 else { return .unsatisfiable }
      return .range(max(0, total - min(suffix, total))..<total)
    }
    guard let first = number(parts[0]) else { return .whole }
    var last = total - 1
    if !parts[1].isEmpty {
      guard let given = number(parts[1]) else { return .whole }
      guard given >= first else { return .whole }  // `5-3`: invalid, so ignored
      last = min(given, total - 1)
    }
    guard first < total else { return .unsatisfiable }
    return .range(first..<(last + 1))
  }
}
