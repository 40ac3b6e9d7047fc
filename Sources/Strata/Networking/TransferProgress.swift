/// How far a transfer is: bytes done, and the whole when the server said (`Content-Length`,
/// or a `Content-Range`'s total). A resumed download counts what was on disk as done.
public struct TransferProgress: Sendable, Equatable {
  public let done: Int64
  public let expected: Int64?

  public init(done: Int64, expected: Int64?) {
    (self.done, self.expected) = (done, expected)
  }

  /// 0…1, when the whole is known.
  public var fraction: Double? {
    expected.map { $0 > 0 ? min(1, Double(done) / Double($0)) : 1 }
  }
}
