import Foundation
import Strata
import Testing

@Suite("AppDirectories: one rule for where files go")
struct AppDirectoriesTests {
  /// The XDG layout (Linux's), given as such: the same on every platform that runs the test.
  @Test func xdgLocations() {
    func xdg(_ app: String, _ environment: [String: String]) -> AppDirectories {
      AppDirectories(app: app, environment: environment, layout: .xdg)
    }
    let set = xdg(
      "strata-demo", ["XDG_CONFIG_HOME": "/x/cfg", "XDG_DATA_HOME": "/x/data", "HOME": "/h"])
    #expect(set.config == "/x/cfg/strata-demo" && set.data == "/x/data/strata-demo")
    let home = xdg("strata-demo", ["HOME": "/h"])
    #expect(home.config == "/h/.config/strata-demo" && home.data == "/h/.local/share/strata-demo")
    #expect(home.cache == "/h/.cache/strata-demo")
    let relative = xdg("a", ["XDG_CONFIG_HOME": "relative", "XDG_DATA_HOME": "x", "HOME": "/h"])
    #expect(relative.config == "/h/.config/a" && relative.data == "/h/.local/share/a")
    #expect(xdg("../..", ["HOME": "/h"]).data == "/h/.local/share/.._..")
    #expect(xdg("..", ["HOME": "/h"]).data == "/h/.local/share/_..")
  }

  /// The public initialiser is this platform's layout: XDG under `HOME` on Linux, the app's
  /// `Library` on Apple platforms (where `HOME` does not move it); an absolute `XDG_*`
  /// variable wins on both.
  @Test func thePublicInitialiserIsThisPlatformsLayout() {
    let environment = ["HOME": "/h", "XDG_DATA_HOME": "/x/data"]
    let platform = AppDirectories(app: "a", environment: environment)
    #expect(platform == AppDirectories(app: "a", environment: environment, layout: .current))
    #expect(platform.data == "/x/data/a")
    #if canImport(Darwin)
      #expect(platform.config.hasSuffix("/Library/Application Support/a"))
      #expect(!platform.config.hasPrefix("/h/"))
    #else
      #expect(platform.config == "/h/.config/a" && platform.cache == "/h/.cache/a")
    #endif
  }

  /// On Apple platforms what is kept goes to Application Support and answers to Caches, in
  /// the app's library — never the container root; an explicit XDG variable still wins.
  @Test func appleLocations() {
    let apple = AppDirectories.Layout.apple(library: "/c/Library")
    let plain = AppDirectories(app: "MyApp", environment: ["HOME": "/c"], layout: apple)
    #expect(plain.config == "/c/Library/Application Support/MyApp")
    #expect(plain.data == "/c/Library/Application Support/MyApp")
    #expect(plain.cache == "/c/Library/Caches/MyApp")
    let overridden = AppDirectories(
      app: "MyApp", environment: ["HOME": "/c", "XDG_CACHE_HOME": "/tmp/x"], layout: apple)
    #expect(overridden.cache == "/tmp/x/MyApp" && overridden.data == plain.data)
    #if canImport(Darwin)
      #expect(AppDirectories.Layout.current != .xdg)
    #else
      #expect(AppDirectories.Layout.current == .xdg)
    #endif
  }

  /// A host can never climb out of the folder it is kept in: the percent-decoded `/` and
  /// `..` of a hostile API address become one harmless file name.
  @Test(arguments: [
    "http://a%2F..%2F..%2Fpwn:9101", "http://..:80", "http://a%2Fb%5C..:1", "http://%2E%2E",
  ])
  func hostsStayOneComponent(_ api: String) throws {
    let url = try #require(URL(string: api))
    let origin = try #require(Origin(url))
    let name = AppDirectories.component(for: origin)
    #expect(!name.contains("/") && name != ".." && name != ".")
    let path = URL(fileURLWithPath: "/store/" + name + "/posts").standardized.path
    #expect(path.hasPrefix("/store/") && path.split(separator: "/").count == 3, "\(path)")
  }
}
