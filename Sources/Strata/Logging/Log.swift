/// The application's category loggers, one per concern (networking, auth, navigation, general).
///
/// ```swift
/// Log.networking.info("GET \(path) → \(status)")
/// Log.auth.debug("refreshing for \(user, privacy: .private)")
/// ```
public enum Log {
  /// Requests, responses, retries.
  public static let networking = Logger(category: "networking")
  /// Sign-in, refresh, sign-out.
  public static let auth = Logger(category: "auth")
  /// Screen and route changes.
  public static let navigation = Logger(category: "navigation")
  /// Everything else.
  public static let general = Logger(category: "general")
}
