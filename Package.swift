// swift-tools-version: 6.0
// Strata: a zero-dependency API-client core. Toolchain libraries only — no package dependencies.
import PackageDescription

let package = Package(
  name: "Strata",
  platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11)],
  products: [
    .library(name: "Strata", targets: ["Strata"]),
    .library(name: "StrataTesting", targets: ["StrataTesting"]),
    .library(name: "StrataSandbox", targets: ["StrataSandbox"]),
    .library(name: "DemoKit", targets: ["DemoKit"]),
    .executable(name: "strata-demo", targets: ["strata-demo"]),
    .executable(name: "strata-bench", targets: ["strata-bench"]),
  ],
  targets: [
    .target(name: "Strata"),
    .target(name: "StrataTesting", dependencies: ["Strata"]),
    .target(name: "StrataSandbox"),
    .target(name: "DemoKit", dependencies: ["Strata"]),
    .executableTarget(name: "strata-demo", dependencies: ["Strata", "DemoKit", "StrataSandbox"]),
    .executableTarget(
      name: "strata-bench", dependencies: ["Strata", "StrataTesting", "StrataSandbox"]),
    .testTarget(name: "StrataTests", dependencies: ["Strata", "StrataTesting", "StrataSandbox"]),
    .testTarget(name: "StrataSandboxTests", dependencies: ["StrataSandbox", "StrataTesting"]),
    .testTarget(name: "DemoKitTests", dependencies: ["DemoKit", "StrataTesting", "StrataSandbox"]),
    .testTarget(
      name: "StrataDemoTests",
      dependencies: ["strata-demo", "StrataSandbox", "StrataTesting", "Strata"]),
  ],
  swiftLanguageModes: [.v6]
)
