import Foundation
import StrataConcurrency

/// The data-protection class of the directories the library writes in (iOS, watchOS, tvOS,
/// visionOS): readable once the device was unlocked after boot, so a background sync can run;
/// encrypted before. Files made inside take the directory's class. Set once per directory per
/// process — not on every read and write — and never over a class as strong or stronger that
/// the app gave it (`.complete`: the app asked for more). Elsewhere: nothing is set.
enum DirectoryProtection {
  /// The directories already looked at by this process.
  private static let seen = Lock(Set<String>())

  /// The class to give a directory whose class is `current`: nil (leave it) when it has one
  /// at least as strong as "after first unlock".
  static func protection(over current: FileProtectionType?) -> FileProtectionType? {
    // By raw value: the type is not `Equatable` in every Foundation.
    let strong: [FileProtectionType] = [
      .complete, .completeUnlessOpen, .completeUntilFirstUserAuthentication,
    ]
    guard let current, strong.contains(where: { $0.rawValue == current.rawValue }) else {
      return .completeUntilFirstUserAuthentication
    }
    return nil
  }

  /// Whether `directory` is looked at for the first time in this process (and from now on is
  /// not).
  static func isFirstLook(at directory: String) -> Bool {
    seen.withLock { $0.insert(directory).inserted }
  }

  /// Gives `directory` the class when this process has not yet looked at it and it has no
  /// stronger one.
  static func apply(to directory: String) {
    guard isFirstLook(at: directory) else { return }
    #if canImport(Darwin)
      let current =
        (try? FileManager.default.attributesOfItem(atPath: directory))?[.protectionKey]
        as? FileProtectionType
      guard let wanted = protection(over: current) else { return }
      try? FileManager.default.setAttributes([.protectionKey: wanted], ofItemAtPath: directory)
    #endif
  }
}
