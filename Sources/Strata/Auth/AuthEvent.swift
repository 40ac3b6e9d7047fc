import Foundation
import StrataConcurrency

/// A change of the session that a UI or CLI may want to show ("signed out, log in again").
public enum AuthEvent: Sendable, Equatable {
  /// Credentials were stored after a login.
  case signedIn
  /// The access token was refreshed.
  case refreshed
  /// The session ended, and why.
  case signedOut(SignOutReason)
}

/// Why a session ended.
public enum SignOutReason: Sendable, Equatable {
  /// The user (or app) asked.
  case requested
  /// The server rejected the refresh token.
  case refreshRejected
  /// Too many refreshes in a short time: the server keeps rejecting new tokens.
  case refreshLoop
  /// The server rejected an access token it had just issued.
  case tokenRejected
  /// Another account signed in on this device (``AuthSession/signIn(_:)``); what the previous
  /// account kept to send waits for it.
  case switchedAccount
  /// Another process sharing the session's store signed out, or signed in as another account:
  /// this process follows as soon as it next asks who is signed in (``AuthSession/owner()``,
  /// before every request for an account and every change a store sends).
  case endedElsewhere
}
