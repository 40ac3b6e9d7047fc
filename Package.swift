// swift-tools-version: 6.0
// Strata: a zero-dependency API-client core. Toolchain libraries only — no package dependencies.
import PackageDescription

let package = Package(
  name: "Strata",
  platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10)],
  products: [
    .library(name: "Strata", targets: ["Strata"]),
    .library(name: "StrataTesting", targets: ["StrataTesting"]),
    .library(name: "StrataSandbox", targets: ["StrataSandbox"]),
    .library(name: "DemoKit", targets: ["DemoKit"]),
    .library(name: "DemoKitTesting", targets: ["DemoKitTesting"]),
    .executable(name: "strata-demo", targets: ["strata-demo"]),
    .executable(name: "strata-bench", targets: ["strata-bench"]),
  ],
  targets: [
    // Word-sized atomics (C, over the compiler's builtins) and the package's lock: what
    // `Synchronization` would give, on every OS version Strata supports.
    .target(name: "CStrataAtomics"),
    .target(name: "StrataConcurrency", dependencies: ["CStrataAtomics"]),
    .target(name: "Strata", dependencies: ["StrataConcurrency"]),
    .target(name: "StrataTesting", dependencies: ["Strata", "StrataConcurrency"]),
    .target(name: "StrataSandbox", dependencies: ["StrataConcurrency"]),
    .target(name: "DemoKit", dependencies: ["Strata"]),
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
  ],
  swiftLanguageModes: [.v6]
)
