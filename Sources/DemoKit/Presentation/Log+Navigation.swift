import Strata

extension Log {
  /// Screen and route changes (the ``Router``'s tab switches, pushes and pops).
  public static let navigation = Log(category: "navigation")
  /// Signing in and out (the core's session refreshes log as `auth`).
  public static let account = Log(category: "account")
}
