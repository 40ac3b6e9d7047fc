/// The embedded DummyJSON-compatible API server. The server itself arrives with the sandbox
/// issue; this namespace gives the target a home.
public enum StrataSandbox {
  /// The seeded demo account's user name.
  public static let demoUsername = "emilys"
}
