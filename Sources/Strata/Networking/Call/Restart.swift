import Foundation

/// Why a call asks again from the start, outside its retries: each names a kept copy of the
/// answer — an answer in the HTTP cache, a download's part — that the server's answer shows
/// cannot be used. The attempt loop (``NetworkService/run(_:_:)``) makes at most
/// ``maxRestarts`` of them, so a server that keeps answering so cannot hold a call in a loop;
/// after that the call fails with ``failure``.
enum Restart: Error, Sendable, Equatable {
  /// A `304` names another representation than the kept answer, or the kept answer no longer
  /// decodes: dropped, and asked for without validators.
  case keptAnswerUnusable
  /// A `416` to a request with `Range`: the part on disk is no prefix of the file. Dropped,
  /// and the file asked for whole.
  case rangeRefused
  /// A `206` that does not continue the part (another offset, another validator, another
  /// length), or the part changed under the download: dropped, and asked for whole.
  case partialDoesNotContinue

  static let maxRestarts = 2

  /// What the call fails with when it cannot start over (no restart left, or nothing asked
  /// for a part: a `206` to a request without `Range`).
  var failure: NetworkError {
    switch self {
    case .keptAnswerUnusable: return NetworkError(.invalidResponse)
    case .rangeRefused, .partialDoesNotContinue:
      return .transport(
        URLError(
          .badServerResponse,
          userInfo: [
            NSLocalizedDescriptionKey:
              "the server's partial answer (206) does not continue the file; nothing was saved"
          ]))
    }
  }

  /// For the log line that says the call starts over.
  var description: String {
    switch self {
    case .keptAnswerUnusable: return "the kept answer cannot be used"
    case .rangeRefused: return "the server refused the part's range (416)"
    case .partialDoesNotContinue: return "the part on disk cannot be continued"
    }
  }
}
