import Foundation
import Testing

@testable import Strata

/// The protection class of a writer's directory: "after first unlock" where it has none, an
/// app's stronger class never lowered, and each directory looked at once per process (not on
/// every read and write).
@Suite("Directory protection")
struct DirectoryProtectionTests {
  @Test func aDirectoryWithoutAClassGetsAfterFirstUnlock() {
    let given = [nil, FileProtectionType.none].map(DirectoryProtection.protection(over:))
    #expect(
      given.map(\.?.rawValue)
        == Array(
          repeating: FileProtectionType.completeUntilFirstUserAuthentication.rawValue, count: 2))
  }

  @Test func aStrongerClassIsNeverLowered() {
    for strong in [
      FileProtectionType.complete, .completeUnlessOpen, .completeUntilFirstUserAuthentication,
    ] {
      #expect(DirectoryProtection.protection(over: strong) == nil, "\(strong.rawValue)")
    }
  }

  @Test func eachDirectoryIsLookedAtOncePerProcess() {
    let folder = "/tmp/strata-protection-\(UUID().uuidString)"
    #expect(DirectoryProtection.isFirstLook(at: folder))
    #expect(!DirectoryProtection.isFirstLook(at: folder))
    #expect(DirectoryProtection.isFirstLook(at: folder + "/inner"))
  }
}
