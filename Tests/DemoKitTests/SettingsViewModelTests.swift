import DemoKit
import Foundation
import Strata
import Testing

/// The settings screen: a refused value shown with what is allowed (nothing written), and the
/// list following a change made by another process.
@MainActor
@Suite("SettingsViewModel")
struct SettingsViewModelTests {
  func preferences(_ directory: String) -> Preferences {
    Preferences(
      app: "test", origin: Origin("https://api.test")!, keys: DemoSettings.all,
      session: nil, directory: directory)
  }

  @Test func aRefusalIsShownAndAChangeElsewhereIsFollowed() async throws {
    let directory = NSTemporaryDirectory() + "strata-settings-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let model = SettingsViewModel(preferences: preferences(directory))
    await model.load()
    #expect(model.entries.map(\.value) == ["10", "false"])
    #expect(await model.set("page-size", to: "500") == false)
    #expect(model.state.message?.contains("a whole number from 1 to 100") == true)
    #expect(await model.set("page-size", to: "25"))
    #expect(model.entries.first?.value == "25" && model.entries.first?.origin == .owner)

    let watching = Task { await model.watch() }
    defer { watching.cancel() }
    // Another process (its own instance, the same file) turns offline-first on.
    try await preferences(directory).set(DemoSettings.offlineFirst, to: true)
    await eventually("the list follows the change") { model.entries.last?.value == "true" }
    #expect(model.entries.last?.origin == .owner)
  }
}
