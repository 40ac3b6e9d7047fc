import Foundation

/// Why a resolution failed. DependencyContainer errors raised while building a dependency pass through
/// unchanged, so the outermost caller sees the real cause (the missing service, the cycle).
///
/// Equatable: a factory's failure compares by service and by what its error says.
public enum DependencyError: Error, Equatable, CustomStringConvertible, LocalizedError {
  /// Nothing is registered for the service; `registered` lists what is (this container and
  /// its parents), so a typo or a missing registration is obvious.
  case notRegistered(service: String, registered: [String])
  /// Services depend on each other; `path` is the whole chain, first service repeated last:
  /// `["A", "B", "C", "A"]`.
  case circularDependency(path: [String])
  /// A registration was found but what it made (or the argument it was given) is not of the
  /// type asked for — a factory whose result was bridged to another type, say.
  case typeMismatch(service: String, expected: String, found: String)
  /// A factory or post-init hook threw; `underlying` is its error.
  case factoryFailed(service: String, underlying: any Error)
  /// ``DependencyContainer/validate()`` found these failures (all of them, not just the first).
  case validationFailed([DependencyError])

  /// The errors that are not the container's own — what the failing factories threw — in
  /// order, without repeats of one message (a bad configuration value usually fails every
  /// service that depends on it). Empty when the container itself is the cause.
  public var underlyingErrors: [any Error] {
    var seen: Set<String> = []
    var found: [any Error] = []
    func collect(_ error: DependencyError) {
      switch error {
      case .factoryFailed(_, let underlying as DependencyError): collect(underlying)
      case .factoryFailed(_, let underlying):
        if seen.insert(String(describing: underlying)).inserted { found.append(underlying) }
      case .validationFailed(let failures): failures.forEach(collect)
      case .notRegistered, .circularDependency, .typeMismatch: break
      }
    }
    collect(self)
    return found
  }

  /// Same case and payload; a factory's error compares by its description.
  public static func == (lhs: DependencyError, rhs: DependencyError) -> Bool {
    switch (lhs, rhs) {
    case (.notRegistered(let a, let listA), .notRegistered(let b, let listB)):
      a == b && listA == listB
    case (.circularDependency(let a), .circularDependency(let b)): a == b
    case (
      .typeMismatch(let a, let expectedA, let foundA),
      .typeMismatch(let b, let expectedB, let foundB)
    ):
      a == b && expectedA == expectedB && foundA == foundB
    case (.factoryFailed(let a, let errorA), .factoryFailed(let b, let errorB)):
      a == b && String(describing: errorA) == String(describing: errorB)
    case (.validationFailed(let a), .validationFailed(let b)): a == b
    default: false
    }
  }

  public var errorDescription: String? { description }

  /// A message naming the service(s) involved.
  public var description: String {
    switch self {
    case .notRegistered(let service, let registered):
      let list = registered.isEmpty ? "nothing" : registered.joined(separator: ", ")
      return "no registration for \(service); registered: \(list)"
    case .circularDependency(let path):
      return "circular dependency: \(path.joined(separator: " → "))"
    case .typeMismatch(let service, let expected, let found):
      return "the registration for \(service) made a \(found), not a \(expected)"
    case .factoryFailed(let service, let underlying):
      return "factory for \(service) failed: \(underlying)"
    case .validationFailed(let failures):
      return "container validation found \(failures.count) problem(s):\n"
        + failures.map { "  - \($0)" }.joined(separator: "\n")
    }
  }
}
