import Foundation

/// Where an API puts the human-readable explanation in its error bodies, so
/// ``NetworkError/serverMessage`` (and the error's description) can quote it.
///
/// The default reads RFC 9457 problem details (`detail`, else `title`). An app whose API
/// answers `{"message": "…"}` or anything else describes it with its own reader. Whatever the
/// reader returns is sanitised (one line, no control characters, capped) before anyone sees it.
public struct ServerMessageFormat: Sendable {
  private let read: @Sendable (_ status: Int, _ body: Data) -> String?

  /// A reader over the status and the error body, for an API ``jsonField(_:)`` cannot
  /// describe: a message nested in `{"error": {"text": …}}`, one that depends on the status,
  /// XML. Never trust the body's size or content; returning nil means "no message".
  public init(_ read: @escaping @Sendable (_ status: Int, _ body: Data) -> String?) {
    self.read = read
  }

  /// The explanation in `body`, if it has one.
  package func message(status: Int, body: Data) -> String? {
    guard !body.isEmpty, body.count <= Self.largestBodyRead else { return nil }
    return read(status, body)
  }

  /// Bodies larger than this (64 KiB) are not searched for a message.
  package static let largestBodyRead = 64 * 1024

  /// RFC 9457 problem details: `detail`, else `title`.
  package static let problemDetails = jsonField("detail", "title")

  /// The first of `names` that is a string at the top level of a JSON object body.
  public static func jsonField(_ names: String...) -> ServerMessageFormat {
    ServerMessageFormat { _, body in
      guard let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any]
      else { return nil }
      return names.lazy.compactMap { object[$0] as? String }.first
    }
  }
}
