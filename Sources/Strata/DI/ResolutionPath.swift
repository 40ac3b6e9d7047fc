import StrataConcurrency

/// Finds the cycles of a resolution before they recurse forever. Resolution is synchronous —
/// a factory cannot suspend — so a task-local stack is exact, and it follows nested `resolve`
/// calls whether a factory uses the container it was handed or one it captured.
///
/// What each resolve pays is kept small, since a graph resolves many services:
/// - A transient registration counts the resolves of it under way (one atomic add each way).
///   While it is the only one, nothing else is tracked: a graph without cycles, resolved on
///   one thread at a time, pushes no task-local and allocates nothing for its path.
/// - A transient met while a resolve of it is under way — a cycle on this thread, or another
///   thread resolving it too — and every singleton or weak build is tracked exactly: the
///   first pushes one task-local ``Stack``, and the nested ones move its depth.
/// - A transient cycle only recurses, and each turn meets the same registrations again, so it
///   is found when their tracked depth passes ``maxDepth`` — and reported as the first repeat
///   an eager check would have stopped at. A singleton or weak registration is looked for
///   among those being built before it is built.
///
/// The path a cycle report names is not kept on the way down: the error thrown where the
/// cycle closes (``Unwinding``) collects each service as it passes back up through their
/// resolves, and the resolve where the cycle began (or where tracking began) reports it.
enum ResolutionPath {
  /// Tracked resolves nested deeper than this are treated as a cycle (it also guards
  /// hook-driven transient loops). A cycle recurses to this depth before it is reported, so
  /// it must fit the smallest stack a resolve runs on — 512 KiB on an Apple platform's
  /// secondary thread and cooperative pool — with room for the caller's own frames: a level
  /// takes about 4.3 KiB in a debug build (1.8 KiB optimised), so 64 levels take 280 KiB; at
  /// 200 a cycle overflowed such a stack instead of being reported. Real graphs nest far less.
  static let maxDepth = 64

  /// One tracked resolution's state, shared by its nested resolves (and by a task a factory
  /// starts, which inherits it — hence an atomic): how many tracked resolves are under way.
  final class Stack: Sendable {
    let depth = AtomicInt(0)
  }

  /// The singleton and weak registrations being built, per resolution: building one again on
  /// the same thread would wait on its own cell, so each is looked for before it is built.
  /// One lock for all resolutions, as each singleton is built once; kept out of ``Stack`` so
  /// tracking a transient allocates no lock.
  private static let building = Lock<[ObjectIdentifier: [Registration]]>([:])

  /// Thrown where a cycle closes; each resolve it passes adds its registration, so `path`
  /// runs from the innermost service out.
  struct Unwinding: Error {
    var path: [Registration]
    /// The registration met twice (nil: the depth limit was passed).
    let repeated: Registration?
  }

  @TaskLocal static var current: Stack?

  /// Runs `body` with `registration` on the path; throws
  /// ``DependencyError/circularDependency(path:)`` if that closes a cycle.
  static func enter<R>(_ registration: Registration, _ body: () throws -> R) throws -> R {
    guard registration.scope == .transient else { return try tracking(registration, body) }
    let underWay = registration.resolvesUnderWay.add(1)
    defer { registration.resolvesUnderWay.add(-1) }
    if underWay > 1 { return try tracking(registration, body) }
    do {
      return try body()
    } catch var unwinding as Unwinding {
      unwinding.path.append(registration)
      throw unwinding
    }
  }

  private static func tracking<R>(
    _ registration: Registration, _ body: () throws -> R
  ) throws -> R {
    guard let stack = current else {
      let stack = Stack()
      do {
        return try $current.withValue(stack) { try run(registration, in: stack, body) }
      } catch let unwinding as Unwinding {
        // Where tracking began: a depth cycle ends here, named by its first repeat.
        throw DependencyError.circularDependency(path: firstCycle(unwinding.path.reversed()))
      }
    }
    return try run(registration, in: stack, body)
  }

  private static func run<R>(
    _ registration: Registration, in stack: Stack, _ body: () throws -> R
  ) throws -> R {
    let tracked = registration.scope != .transient
    if tracked {
      let repeated = building.withLock { building in
        let key = ObjectIdentifier(stack)
        if building[key]?.contains(where: { $0 === registration }) == true { return true }
        building[key, default: []].append(registration)
        return false
      }
      if repeated { throw Unwinding(path: [registration], repeated: registration) }
    }
    defer {
      stack.depth.add(-1)
      if tracked {
        building.withLock { building in
          let key = ObjectIdentifier(stack)
          guard let index = building[key]?.lastIndex(where: { $0 === registration }) else {
            return
          }
          building[key]?.remove(at: index)
          if building[key]?.isEmpty == true { building[key] = nil }
        }
      }
    }
    if stack.depth.add(1) > maxDepth { throw Unwinding(path: [registration], repeated: nil) }
    do {
      return try body()
    } catch var unwinding as Unwinding {
      unwinding.path.append(registration)
      if let repeated = unwinding.repeated, repeated === registration {
        // Where the cycle began: from here to the repeat.
        throw DependencyError.circularDependency(path: unwinding.path.reversed().map(\.label))
      }
      throw unwinding
    }
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
