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
  /// The default token store of an iOS, tvOS, watchOS or visionOS app built with DemoKit
  /// (`TOKEN_STORE = keychain`); on macOS a command-line tool keeps the 0600 file.
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
    /// - Parameter environment: Where `XDG_CONFIG_HOME` and `HOME` are read, for the refresh
    ///   lock's file.
    public init(
      app: String, origin: Origin,
      environment: [String: String] = ProcessInfo.processInfo.environment
    ) {
      store = ItemTokenStore(
        app: app, origin: origin, items: SystemKeychain(), environment: environment)
    }

    public func load() throws -> Credentials? { try store.load() }

    public func save(_ credentials: Credentials) throws { try store.save(credentials) }

    public func clear() throws { try store.clear() }

    public func storedOwner() -> DataOwner { store.storedOwner() }

    public func lockForRefresh() async throws -> TokenStoreLock {
      try await store.lockForRefresh()
    }
  }

  /// The Keychain's three calls for one generic-password item.
  struct SystemKeychain: SecureItems {
    func read(service: String, account: String) throws -> Data? {
      var query = Self.query(service, account)
      query[kSecReturnData as String] = true
      query[kSecMatchLimit as String] = kSecMatchLimitOne
      var result: CFTypeRef?
      let status = SecItemCopyMatching(query as CFDictionary, &result)
      if status == errSecItemNotFound { return nil }
      guard status == errSecSuccess else {
        throw KeychainTokenStore.Failure(operation: "read", status: status)
      }
      return result as? Data
    }

    func write(_ data: Data, service: String, account: String) throws {
      let query = Self.query(service, account)
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

    func delete(service: String, account: String) throws {
      let status = SecItemDelete(Self.query(service, account) as CFDictionary)
      guard status == errSecSuccess || status == errSecItemNotFound else {
        throw KeychainTokenStore.Failure(operation: "delete", status: status)
      }
    }

    private static func query(_ service: String, _ account: String) -> [String: Any] {
      [
        kSecClass as String: kSecClassGenericPassword,
        kSecAttrService as String: service,
        kSecAttrAccount as String: account,
      ]
    }
  }
#endif
