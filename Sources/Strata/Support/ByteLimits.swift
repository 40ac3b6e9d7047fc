/// Sizes in bytes past what a 32-bit `Int` holds, written once and clamped: where `Int` is 32
/// bits (watchOS on arm64_32) each is `Int.max` — 2 GiB less a byte, the most a buffer or a
/// count there can say — rather than a shift that overflows to 0 (`1 << 32`).
enum ByteLimits {
  /// 4 GiB: the largest file read whole.
  static let fourGiB = Int(clamping: Int64(1) << 32)
  /// 1 TiB: the largest size a setting may name.
  static let oneTiB = Int(clamping: Int64(1) << 40)
}
