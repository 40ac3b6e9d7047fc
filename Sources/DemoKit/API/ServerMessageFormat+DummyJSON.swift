import Strata

extension ServerMessageFormat {
  /// DummyJSON explains every error as `{"message": "…"}` (Express's own
  /// pages say `{"error": "…"}`).
  public static let dummyJSON = jsonField("message", "error")
}
