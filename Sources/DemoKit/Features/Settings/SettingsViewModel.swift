import Observation
import Strata

/// The settings screen: every setting with its value and where that came from; a change is
/// checked by its key (a refusal shown, nothing written), and the list follows changes made
/// elsewhere — another process, another account signing in — while ``watch()`` runs.
@MainActor @Observable
public final class SettingsViewModel: LoadStateOwner {
  public private(set) var entries: [Preferences.Entry] = []
  /// A read under way, or the last failure (a refused value: ``PreferenceError``).
  public var state = LoadState.idle
  @ObservationIgnored private let preferences: Preferences

  public nonisolated init(preferences: Preferences) { self.preferences = preferences }

  public func load() async {
    if let entries = await loading(nil, { try await preferences.entries() }) {
      self.entries = entries
    }
  }

  /// Sets `name` from `text`.
  /// - Returns: Whether it was kept (else ``state`` says why).
  @discardableResult
  public func set(_ name: String, to text: String) async -> Bool {
    guard
      await loading(
        Localized.current("failure.changeSetting", ["name": name]),
        { try await preferences.set(name, to: text) })
        != nil
    else { return false }
    await load()
    return true
  }

  /// Puts `name` (every setting, when nil) back to its default.
  /// - Returns: Whether it was reset (else ``state`` says why: an unknown name is refused,
  ///   as ``set(_:to:)`` refuses it).
  @discardableResult
  public func reset(_ name: String? = nil) async -> Bool {
    guard
      await loading(Localized.current("failure.reset"), { try await preferences.reset(name) })
        != nil
    else { return false }
    await load()
    return true
  }

  /// Reloads whenever a setting changes, until the calling task is cancelled (and once when
  /// it starts: a change made just before is shown too).
  public func watch() async {
    let changes = await preferences.updates()
    await load()
    for await _ in changes { await load() }
  }
}
