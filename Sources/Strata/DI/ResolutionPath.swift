/// The chain of services being built in the current task (or thread, outside a task), used to
/// find cycles before they recurse forever. Resolution is synchronous — a factory cannot
/// suspend — so a task-local chain is exact, and it follows nested `resolve` calls whether a
/// factory uses the container it was handed or one it captured.
enum ResolutionPath {
  /// A resolution deeper than this is treated as a cycle (guards hook-driven transient loops).
  static let maxDepth = 200

  /// One registration on the path, linked to the one that asked for it. Immutable, so a task
  /// a factory starts may inherit the chain and read it safely.
  final class Link: Sendable {
    let registration: Registration
    let caller: Link?
    let depth: Int

    init(_ registration: Registration, caller: Link?) {
      self.registration = registration
      self.caller = caller
      self.depth = (caller?.depth ?? 0) + 1
    }

    /// The registrations from the outermost service to this one.
    var chain: [Registration] {
      var chain: [Registration] = []
      var link: Link? = self
      while let current = link {
        chain.append(current.registration)
        link = current.caller
      }
      return chain.reversed()
    }
  }

  @TaskLocal static var innermost: Link?

  /// Runs `body` with `registration` on the path; throws if that closes a cycle.
  ///
  /// A singleton or weak registration is looked for on the path before it is built (it is
  /// built once, so this is rare), since building it again on the same thread would wait on
  /// its own cell. A transient one is not looked for on every resolve — walking the path
  /// would cost more than the resolve — as a transient cycle only recurses: it is found when
  /// the path passes ``maxDepth``, and reported as the first repeat an eager check would have
  /// stopped at.
  static func enter<R>(_ registration: Registration, _ body: () throws -> R) throws -> R {
    let caller = innermost
    if let caller, registration.scope != .transient || caller.depth >= maxDepth {
      let chain = caller.chain + [registration]
      if registration.scope != .transient,
        let first = chain.dropLast().firstIndex(where: { $0 === registration })
      {
        throw DependencyError.circularDependency(path: chain[first...].map(\.label))
      }
      if caller.depth >= maxDepth {
        throw DependencyError.circularDependency(path: firstCycle(chain))
      }
    }
    return try $innermost.withValue(Link(registration, caller: caller)) { try body() }
  }

  /// The labels of the first cycle on the path from the outermost service: from a
  /// registration's first appearance to its second. The whole path when none repeats (a
  /// chain deeper than ``maxDepth`` made by hooks).
  private static func firstCycle(_ chain: [Registration]) -> [String] {
    var seen: [ObjectIdentifier: Int] = [:]
    for (index, registration) in chain.enumerated() {
      if let first = seen[ObjectIdentifier(registration)] {
        return chain[first...index].map(\.label)
      }
      seen[ObjectIdentifier(registration)] = index
    }
    return chain.map(\.label)
  }
}
