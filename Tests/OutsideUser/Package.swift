// swift-tools-version: 6.0
// The demo app as an outside user of Strata: DemoKit, DemoKitTesting, strata-demo and the
// documentation snippets (symbolic links to their files and folders in the repository) built as a
// package of its own that links the library's products by path, and tests written as an app's
// own tests would be (Tests/OutsideUserTests). `package` declarations are
// visible only inside the package that declares them, so this build fails on any use of what
// Strata does not make public. Run by `make outside` (part of `make test`), which sets
// STRATA_LIBRARY_ONLY=1 so that Strata's manifest declares the library alone.
import PackageDescription

let strata = "Strata"

// The README's and the articles' samples (`Snippets/<name>.swift`), each a program of its own.
let samples = [
  "FirstRequest", "Middleware", "Transport", "SignIn", "AddingAFeature", "UsingStrataInAnApp",
]
let sampleDependencies: [Target.Dependency] = [
  "DemoKit", "DemoKitTesting", .product(name: "Strata", package: strata),
  .product(name: "StrataTesting", package: strata),
]

let package = Package(
  name: "OutsideUser",
  platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10)],
  dependencies: [.package(name: strata, path: "../..")],
  targets: [
    .target(
      name: "DemoKit", dependencies: [.product(name: "Strata", package: strata)],
      resources: [.copy("Localization/Strings")]),
    .target(
      name: "DemoKitTesting",
      dependencies: [
        "DemoKit",
        .product(name: "Strata", package: strata),
        .product(name: "StrataTesting", package: strata),
      ]),
    .executableTarget(
      name: "strata-demo",
      dependencies: [
        "DemoKit",
        .product(name: "Strata", package: strata),
        .product(name: "StrataSandbox", package: strata),
      ]),
    // The "Offline and sync" article's adoption of SyncedCollection for DummyJSON's todos
    // (Snippets/SyncedTodos.swift), as an app outside the package writes it.
    .target(
      name: "SyncedTodos", dependencies: [.product(name: "Strata", package: strata)]),
    .testTarget(
      name: "OutsideUserTests",
      dependencies: [
        "SyncedTodos",
        .product(name: "Strata", package: strata),
        .product(name: "StrataTesting", package: strata),
        .product(name: "StrataSandbox", package: strata),
      ]),
  ]
    + samples.map { name in
      .executableTarget(
        name: "Sample\(name)", dependencies: sampleDependencies, path: "Samples/\(name)")
    },
  swiftLanguageModes: [.v6]
)
