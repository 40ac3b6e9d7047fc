/// The chain of services being built in the current task (or thread, outside a task), used to
/// detect cycles before they recurse forever. Resolution is synchronous — a factory cannot
/// suspend — so a task-local chain is exact, and it follows nested `resolve` calls whether a
/// factory uses the container it was handed or one it captured.
enum ResolutionPath {
  /// A resolution deeper than this is treated as a cycle (guards hook-driven transient loops).
  static let maxDepth = 200

  /// One registration on the path, linked to the one that asked for it.
  final class Link: Sendable {
    let registration: Registration
    let caller: Link?
    let depth: Int

    init(_ registration: Registration, caller: Link?) {
      self.registration = registration
      self.caller = caller
      self.depth = (caller?.depth ?? 0) + 1
    }

    /// The labels from the outermost service to this one.
    var labels: [String] {
      var labels: [String] = []
      var link: Link? = self
      while let current = link {
        labels.append(current.registration.label)
        link = current.caller
      }
      return labels.reversed()
    }
  }

  @TaskLocal static var innermost: Link?

  /// Runs `body` with `registration` on the path; throws if it is already on it.
  static func enter<R>(_ registration: Registration, _ body: () throws -> R) throws -> R {
    let caller = innermost
    var link = caller
    while let current = link {
      if current.registration === registration {
        let path = caller?.labels ?? []
        throw DependencyError.circularDependency(
          path: path[(current.depth - 1)...] + [registration.label])
      }
      link = current.caller
    }
    if let caller, caller.depth >= maxDepth {
      throw DependencyError.circularDependency(path: caller.labels + [registration.label])
    }
    return try $innermost.withValue(Link(registration, caller: caller)) { try body() }
  }
}
