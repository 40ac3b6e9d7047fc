import Observation
import Strata

/// Tabs and a typed navigation stack per tab, as SwiftUI's `NavigationStack(path:)` wants.
@MainActor @Observable
public final class Router {
  public enum Tab: String, Sendable, CaseIterable {
    case users
    case posts
    case todos
    case profile
  }

  /// A screen that can be pushed.
  public enum Route: Sendable, Hashable {
    case user(id: Int)
    case post(id: Int)
    case login
  }

  public private(set) var selectedTab: Tab = .users
  private var stacks: [Tab: [Route]] = [:]

  /// Creates a router on the users tab with empty stacks.
  public nonisolated init() {}

  /// The visible tab's stack, root first.
  public var path: [Route] { stacks[selectedTab] ?? [] }

  /// Switches tab (each tab keeps its own stack).
  public func select(_ tab: Tab) {
    selectedTab = tab
    Log.navigation.debug("tab \(tab.rawValue)")
  }

  /// Pushes a screen on the visible tab.
  public func push(_ route: Route) {
    stacks[selectedTab, default: []].append(route)
    Log.navigation.debug("push \(String(describing: route)) on \(selectedTab.rawValue)")
  }

  /// Pops the top screen of the visible tab (nothing at the root).
  public func pop() {
    guard stacks[selectedTab]?.isEmpty == false else { return }
    stacks[selectedTab]?.removeLast()
    Log.navigation.debug("pop on \(selectedTab.rawValue)")
  }

  /// Returns the visible tab to its root.
  public func popToRoot() {
    stacks[selectedTab] = []
    Log.navigation.debug("pop to root on \(selectedTab.rawValue)")
  }

  /// Shows the login screen on the profile tab (once, however often it is asked).
  public func showLogin() {
    selectedTab = .profile
    if stacks[.profile]?.last != .login { stacks[.profile, default: []].append(.login) }
    Log.navigation.debug("show login")
  }

  /// Takes the login screen away after a sign-in.
  public func dismissLogin() {
    stacks[.profile]?.removeAll { $0 == .login }
    Log.navigation.debug("dismiss login")
  }
}
