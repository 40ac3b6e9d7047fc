import Strata

extension Log {
  /// Screen and route changes (the ``Router``'s tab switches, pushes and pops).
  public static let navigation = Log(category: "navigation")
}
