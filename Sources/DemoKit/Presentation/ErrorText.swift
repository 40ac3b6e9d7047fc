import Strata

/// The one sentence a view shows for a failure.
enum ErrorText {
  static func describe(_ error: any Error) -> String {
    switch error {
    case let network as NetworkError where network.isUnauthorized:
      "You are signed out. Log in again."
    case let network as NetworkError: network.description
    default: String(describing: error)
    }
  }

  /// Whether `error` says the device has no network route.
  static func isOffline(_ error: (any Error)?) -> Bool {
    (error as? NetworkError)?.kind == .offline
  }
}
