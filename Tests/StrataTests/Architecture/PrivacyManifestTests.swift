import Foundation
import Testing

/// Apple rejects an upload (ITMS-91053) whose code calls a "required reason" API its privacy
/// manifest does not declare. The library ships `Sources/Strata/PrivacyInfo.xcprivacy`; this
/// test reads the sources for each family of those APIs and fails when one is used and not
/// declared, or declared and no longer used.
@Suite("The privacy manifest declares every required-reason API the library calls")
struct PrivacyManifestTests {
  /// Apple's categories and the calls that belong to them (the documented list).
  static let families: [String: [String]] = [
    "NSPrivacyAccessedAPICategoryFileTimestamp": [
      #"\bstat\("#, #"\bfstat\("#, #"\blstat\("#, #"\bfstatat\("#, #"getattrlist"#,
      #"\.modificationDate\b"#, #"\.creationDate\b"#, #"contentModificationDateKey"#,
      #"creationDateKey"#, #"st_mtim"#, #"st_mtimespec"#,
    ],
    "NSPrivacyAccessedAPICategorySystemBootTime": [#"systemUptime"#, #"mach_absolute_time"#],
    "NSPrivacyAccessedAPICategoryDiskSpace": [
      #"\bstatfs\("#, #"\bstatvfs\("#, #"\bfstatfs\("#, #"\bfstatvfs\("#,
      #"volumeAvailableCapacity"#, #"systemFreeSize"#, #"systemSize"#,
    ],
    "NSPrivacyAccessedAPICategoryUserDefaults": [#"\bUserDefaults\b"#],
    "NSPrivacyAccessedAPICategoryActiveKeyboards": [#"activeInputModes"#],
  ]

  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// The categories `code` reaches (comments left out).
  static func used(in code: String) -> Set<String> {
    let lines = code.split(separator: "\n").map { line -> Substring in
      line.range(of: "//").map { line[..<$0.lowerBound] } ?? line
    }
    let text = lines.joined(separator: "\n")
    return Set(
      families.filter { _, patterns in
        patterns.contains { text.range(of: $0, options: .regularExpression) != nil }
      }.keys)
  }

  /// The library's sources, every `.swift` file under `Sources/Strata` and the lock it uses.
  static func sources() throws -> String {
    var text = ""
    for folder in ["Sources/Strata", "Sources/StrataConcurrency"] {
      let base = root.appendingPathComponent(folder)
      let walker = FileManager.default.enumerator(atPath: base.path)
      while let path = walker?.nextObject() as? String {
        guard path.hasSuffix(".swift") else { continue }
        text += try String(contentsOf: base.appendingPathComponent(path), encoding: .utf8) + "\n"
      }
    }
    return text
  }

  static func declared() throws -> [String: [String]] {
    let data = try Data(
      contentsOf: root.appendingPathComponent("Sources/Strata/PrivacyInfo.xcprivacy"))
    let plist = try #require(
      try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any])
    #expect(plist["NSPrivacyTracking"] as? Bool == false)
    let types = try #require(plist["NSPrivacyAccessedAPITypes"] as? [[String: Any]])
    var declared: [String: [String]] = [:]
    for type in types {
      let name = try #require(type["NSPrivacyAccessedAPIType"] as? String)
      declared[name] = type["NSPrivacyAccessedAPITypeReasons"] as? [String] ?? []
    }
    return declared
  }

  @Test func everyFamilyUsedIsDeclaredWithAReason() throws {
    let used = Self.used(in: try Self.sources())
    let declared = try Self.declared()
    #expect(used.contains("NSPrivacyAccessedAPICategoryFileTimestamp"), "the scan sees stat")
    #expect(
      used == Set(declared.keys), "used: \(used.sorted()), declared: \(declared.keys.sorted())")
    #expect(declared.values.allSatisfy { !$0.isEmpty }, "each with its reason")
  }

  /// The scan itself: a planted call is found, one in a comment is not.
  @Test func theScanFindsAPlantedCall() {
    #expect(
      Self.used(in: "let up = ProcessInfo.processInfo.systemUptime")
        == ["NSPrivacyAccessedAPICategorySystemBootTime"])
    #expect(Self.used(in: "// UserDefaults.standard is not used").isEmpty)
    #expect(
      Self.used(in: "guard statvfs(path, &info) == 0") == ["NSPrivacyAccessedAPICategoryDiskSpace"])
  }

  /// The manifest ships with the `Strata` target.
  @Test func theManifestIsAResourceOfTheLibrary() throws {
    let manifest = try String(
      contentsOf: Self.root.appendingPathComponent("Package.swift"), encoding: .utf8)
    #expect(manifest.contains(#"resources: [.copy("PrivacyInfo.xcprivacy")]"#))
  }
}
