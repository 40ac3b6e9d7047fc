// swift-tools-version: 6.0
// Strata: a zero-dependency API-client core. Toolchain libraries only — no package dependencies.
import PackageDescription

#if canImport(Foundation)
  import Foundation
#endif

// The library alone: what another package sees when it links Strata. `make test` builds the demo
// app (DemoKit, DemoKitTesting, strata-demo) as a package of its own against this set, with
// STRATA_LIBRARY_ONLY=1 in the environment — target names must be unique across a package graph,
// and only a second package proves the demo uses nothing but public API.
let libraryOnly: Bool = {
  #if canImport(Foundation)
    return ProcessInfo.processInfo.environment["STRATA_LIBRARY_ONLY"] == "1"
  #else
    return false
  #endif
}()

let libraryProducts: [Product] = [
  .library(name: "Strata", targets: ["Strata"]),
  .library(name: "StrataTesting", targets: ["StrataTesting"]),
  .library(name: "StrataSandbox", targets: ["StrataSandbox"]),
]

let libraryTargets: [Target] = [
  // Word-sized atomics (C, over the compiler's builtins) and the package's lock: what
  // `Synchronization` would give, on every OS version Strata supports; and SHA-256, which the
  // sandbox signs tokens with and the HTTP cache hides credential headers with.
  .target(name: "CStrataAtomics"),
  .target(name: "StrataConcurrency", dependencies: ["CStrataAtomics"]),
  // The privacy manifest an App Store upload needs for the required-reason APIs the library
  // calls (PrivacyManifestTests keeps it true to the sources).
  .target(
    name: "Strata", dependencies: ["StrataConcurrency"],
    resources: [.copy("PrivacyInfo.xcprivacy")]),
  .target(name: "StrataTesting", dependencies: ["Strata", "StrataConcurrency"]),
  .target(name: "StrataSandbox", dependencies: ["StrataConcurrency"]),
]

let demoProducts: [Product] = [
  .library(name: "DemoKit", targets: ["DemoKit"]),
  .library(name: "DemoKitTesting", targets: ["DemoKitTesting"]),
  .executable(name: "strata-demo", targets: ["strata-demo"]),
  .executable(name: "strata-bench", targets: ["strata-bench"]),
]

let demoTargets: [Target] = [
  // Localization/Strings: the sentences a person reads, one JSON file per language.
  .target(
    name: "DemoKit", dependencies: ["Strata"], resources: [.copy("Localization/Strings")]),
  // Fixtures and scriptable fake repositories for previews and tests of DemoKit features.
  .target(
    name: "DemoKitTesting",
    dependencies: ["DemoKit", "Strata", "StrataTesting", "StrataConcurrency"]),
  .executableTarget(
    name: "strata-demo",
    dependencies: ["Strata", "DemoKit", "StrataSandbox", "StrataConcurrency"]),
  .executableTarget(
    name: "strata-bench",
    dependencies: [
      "Strata", "StrataTesting", "StrataSandbox", "StrataConcurrency", "DemoKitTesting",
    ]),
  // Other libraries' public names (swift-log, Swinject, os), so a test proves an app can
  // import them next to Strata; tests only, never a product.
  .target(name: "NameStandIns", path: "Tests/NameStandIns"),
  .testTarget(
    name: "StrataTests",
    dependencies: [
      "Strata", "StrataTesting", "StrataSandbox", "StrataConcurrency", "NameStandIns",
      "DemoKitTesting",
    ]),
  .testTarget(
    name: "StrataSandboxTests",
    dependencies: ["StrataSandbox", "StrataTesting", "StrataConcurrency"]),
  .testTarget(
    name: "DemoKitTests",
    dependencies: [
      "DemoKit", "DemoKitTesting", "StrataTesting", "StrataSandbox", "StrataConcurrency",
    ]),
  // A process that uses Strata without setting up logging (tests only, never a product).
  .executableTarget(
    name: "strata-log-probe", dependencies: ["Strata"], path: "Tests/LogSilenceProbe"),
  // Prints the public API from a symbol graph: `make api` checks it against Tests/PublicAPI.
  .executableTarget(name: "strata-api-dump", path: "Tests/APIDump"),
  // Writes to a local store until killed at a chosen step: the store's crash tests.
  .executableTarget(
    name: "strata-store-probe", dependencies: ["Strata", "StrataConcurrency"],
    path: "Tests/StoreProbe"),
  .testTarget(
    name: "StrataDemoTests",
    dependencies: [
      "strata-demo", "strata-log-probe", "strata-store-probe", "StrataSandbox", "StrataTesting",
      "Strata",
      "StrataConcurrency", "DemoKit", "DemoKitTesting",
    ]),
]

let package = Package(
  name: "Strata",
  platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10)],
  products: libraryProducts + (libraryOnly ? [] : demoProducts),
  targets: libraryTargets + (libraryOnly ? [] : demoTargets),
  swiftLanguageModes: [.v6]
)
