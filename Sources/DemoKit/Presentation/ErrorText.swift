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
}
