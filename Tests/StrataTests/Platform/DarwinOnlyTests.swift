// What only Apple platforms compile and run: the macOS and iOS-simulator CI jobs run these
// (`.github/workflows/ci.yml`); on Linux this file is empty.
#if canImport(Darwin)
  import Foundation
  import Security
  import StrataTesting
  import Testing

  @testable import Strata

  @Suite("Darwin only: the Keychain query, backups, the system log")
  struct DarwinOnlyTests {
    /// Every Keychain call names the item whole — service, account, the access group when one
    /// is given — and on macOS the data-protection keychain, where `…ThisDeviceOnly` holds.
    @Test func theKeychainQueryNamesTheItemAndItsKeychain() {
      let shared = SystemKeychain.query(
        SecureItem(service: "app session x", account: "session", accessGroup: "TEAM.group"))
      #expect(shared[kSecAttrService as String] as? String == "app session x")
      #expect(shared[kSecAttrAccount as String] as? String == "session")
      #expect(shared[kSecAttrAccessGroup as String] as? String == "TEAM.group")
      let own = SystemKeychain.query(
        SecureItem(service: "app session x", account: "session", accessGroup: nil))
      #expect(own[kSecAttrAccessGroup as String] == nil)
      #if os(macOS)
        #expect(own[kSecUseDataProtectionKeychain as String] as? Bool == true)
      #endif
    }

    /// A session is this device's: its folder is left out of backups.
    @Test func theSessionsFolderIsNotBackedUp() throws {
      let folder = NSTemporaryDirectory() + "strata-backup-\(UUID().uuidString)"
      defer { try? FileManager.default.removeItem(atPath: folder) }
      let store = FileTokenStore(path: folder + "/sessions/x.json")
      try store.save(Credentials(accessToken: "a", refreshToken: "r"))
      let values = try URL(fileURLWithPath: folder + "/sessions")
        .resourceValues(forKeys: [.isExcludedFromBackupKey])
      #expect(values.isExcludedFromBackup == true)
    }

    /// The system log takes a record of every level without trapping.
    @Test func theSystemLogTakesEveryLevel() {
      let sink = OSLogSink(subsystem: "dev.strata.tests")
      for level in LogLevel.allCases {
        sink.log(LogRecord(level: level, category: "tests", message: "level \(level)"))
      }
    }

    // A device only: the simulator has no data protection (the attribute is not kept there);
    // the rule itself is tested everywhere (DirectoryProtectionTests).
    #if os(iOS) && !targetEnvironment(simulator)
      /// iOS: a writer's folder, new or made by an earlier version, is readable after the first
      /// unlock only.
      @Test func aWritersFolderGetsTheProtectionClass() throws {
        let folder = NSTemporaryDirectory() + "strata-protect-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        #expect(PrivateFile.checkDirectory(folder, create: true) == nil)
        let protection =
          try FileManager.default.attributesOfItem(atPath: folder)[.protectionKey]
          as? FileProtectionType
        #expect(protection == .completeUntilFirstUserAuthentication)
      }
    #endif
  }
#endif
