#if canImport(Security)
  import Foundation
  import Security

  /// Credentials in the Keychain (Apple platforms): one generic-password item per app and API
  /// origin — service `<app> session <scheme>_<host>_<port>`, account `session` — readable
  /// after the device's first unlock, never synced or moved to another device. The contract
  /// is ``FileTokenStore``'s: damaged data reads as signed out, ``clear()`` always removes the
  /// item, and processes sharing it (an app and its extensions) refresh one at a time through a
  /// `flock` beside the app's sessions, so a refresh token is spent once.
  ///
  /// What holds where:
  /// - iOS, tvOS, watchOS, visionOS: the item is in the app's keychain (its access group's,
  ///   given one: the app and its extensions then share one session), readable after the
  ///   first unlock, on this device only. Sharing one refresh needs the lock in a directory
  ///   every sharer reaches: pass the App Group container as `lockDirectory` — and an app
  ///   that may be suspended while refreshing holds that lock only for the refresh's request
  ///   (iOS ends an app that is suspended holding a lock in a shared container).
  /// - macOS: the item is in the data-protection keychain (`kSecUseDataProtectionKeychain`),
  ///   where `…ThisDeviceOnly` holds as on iOS; that keychain needs a signed app with a
  ///   keychain-access-groups entitlement. A command-line tool keeps the 0600 file store
  ///   (``FileTokenStore``) instead: DemoKit's default there.
  ///
  /// The default token store of an iOS, tvOS, watchOS or visionOS app built with DemoKit
  /// (`TOKEN_STORE = keychain`).
  public final class KeychainTokenStore: TokenStore {
    /// A Keychain call that failed, with its `OSStatus`.
    public struct Failure: Error, Equatable, CustomStringConvertible, LocalizedError {
      /// `read`, `write` or `delete`.
      public let operation: String
      /// The Keychain's status (`errSec…`).
      public let status: Int32

      public var description: String {
        let message = SecCopyErrorMessageString(status, nil).map { $0 as String }
        return "the Keychain could not \(operation) the session: \(message ?? "OSStatus \(status)")"
      }

      public var errorDescription: String? { description }
    }

    private let store: ItemTokenStore

    /// The store for `app`'s session with the API at `origin`.
    /// - Parameter accessGroup: A keychain access group the app and its extensions share (nil:
    ///   the app's own item).
    /// - Parameter lockDirectory: Where the refresh lock's file goes, reachable by every process
    ///   sharing the item (an App Group container); nil: beside the app's own files.
    /// - Parameter environment: Where `XDG_CONFIG_HOME` and `HOME` are read, for the refresh
    ///   lock's default place.
    public init(
      app: String, origin: Origin, accessGroup: String? = nil, lockDirectory: String? = nil,
      environment: [String: String] = ProcessInfo.processInfo.environment
    ) {
      store = ItemTokenStore(
        app: app, origin: origin, items: SystemKeychain(), accessGroup: accessGroup,
        lockDirectory: lockDirectory, environment: environment)
    }

    public func load() throws -> Credentials? { try store.load() }

    public func save(_ credentials: Credentials) throws { try store.save(credentials) }

    public func clear() throws { try store.clear() }

    public func storedOwner() -> DataOwner { store.storedOwner() }

    /// A digest of the item (``TokenStore/stamp()``): the app's extensions sharing it are
    /// followed as processes sharing a session file are.
    public func stamp() -> String? { store.stamp() }

    public func lockForRefresh() async throws -> TokenStoreLock {
      try await store.lockForRefresh()
    }
  }

  /// The Keychain's three calls for one generic-password item.
  struct SystemKeychain: SecureItems {
    func read(_ item: SecureItem) throws -> Data? {
      var query = Self.query(item)
      query[kSecReturnData as String] = true
      query[kSecMatchLimit as String] = kSecMatchLimitOne
      var result: CFTypeRef?
      let status = SecItemCopyMatching(query as CFDictionary, &result)
      if status == errSecItemNotFound { return nil }
      // Before the first unlock after boot the item cannot be read: not damage, and no
      // sign-out (the session reads it again when next asked).
      if status == errSecInteractionNotAllowed { throw TokenStoreLocked() }
      guard status == errSecSuccess else {
        throw KeychainTokenStore.Failure(operation: "read", status: status)
      }
      return result as? Data
    }

    func write(_ data: Data, to item: SecureItem) throws {
      let query = Self.query(item)
      let values: [String: Any] = [
        kSecValueData as String: data,
        kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly,
      ]
      var status = SecItemUpdate(query as CFDictionary, values as CFDictionary)
      if status == errSecItemNotFound {
        status = SecItemAdd(query.merging(values) { _, new in new } as CFDictionary, nil)
      }
      guard status == errSecSuccess else {
        throw KeychainTokenStore.Failure(operation: "write", status: status)
      }
    }

    func delete(_ item: SecureItem) throws {
      let status = SecItemDelete(Self.query(item) as CFDictionary)
      guard status == errSecSuccess || status == errSecItemNotFound else {
        throw KeychainTokenStore.Failure(operation: "delete", status: status)
      }
    }

    /// Every call names the item whole, and the data-protection keychain, where the
    /// accessibility class holds as on iOS (the file-based keychain ignores it) — on every
    /// platform: `os(macOS)` is false under Mac Catalyst, whose apps have both keychains.
    static func query(_ item: SecureItem) -> [String: Any] {
      var query: [String: Any] = [
        kSecClass as String: kSecClassGenericPassword,
        kSecAttrService as String: item.service,
        kSecAttrAccount as String: item.account,
      ]
      if let group = item.accessGroup { query[kSecAttrAccessGroup as String] = group }
      query[kSecUseDataProtectionKeychain as String] = true
      return query
    }
  }
#endif
