/// Where an answer came from, for a screen that says "offline — from 12 min ago".
public enum ResponseSource: Sendable, Equatable {
  /// The server sent it just now.
  case network
  /// A fresh stored answer; no request was made. `age` in whole seconds.
  case cache(age: Int)
  /// A stored answer the server confirmed unchanged (`304 Not Modified`) just now.
  case revalidated
  /// A stored answer past its freshness, standing in because the server could not be reached
  /// or failed. `age` in whole seconds.
  case stale(age: Int)

  /// `miss`, `hit`, `revalidated` or `stale`: what a request record and `--http-log` show.
  public var label: String {
    switch self {
    case .network: "miss"
    case .cache: "hit"
    case .revalidated: "revalidated"
    case .stale: "stale"
    }
  }

  /// How old the stored answer is, in whole seconds: for ``cache(age:)`` and ``stale(age:)``.
  public var age: Int? {
    switch self {
    case .cache(let age), .stale(let age): age
    case .network, .revalidated: nil
    }
  }

  /// The source a ``label`` names (`age` for `hit` and `stale`); nil for any other text.
  init?(label: String, age: Int) {
    switch label {
    case "miss": self = .network
    case "hit": self = .cache(age: age)
    case "revalidated": self = .revalidated
    case "stale": self = .stale(age: age)
    default: return nil
    }
  }
}
