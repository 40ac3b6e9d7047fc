import Foundation

/// A token store that cannot be read yet: the Keychain before the device's first unlock after
/// boot (an app launched for a background task, a push). Not damage, and not a sign-out: an
/// ``AuthSession`` whose restore met it reads the store again when next asked whose session
/// it is, and a sign-out meanwhile leaves every other account's cached answers alone.
public struct TokenStoreLocked: Error, LocalizedError, Equatable, CustomStringConvertible {
  public init() {}

  public var description: String {
    "the session cannot be read until the device is unlocked; it is read again then"
  }

  public var errorDescription: String? { description }
}
