import DemoKit
import Strata

/// Table headings and status cells, in the user's language (``Localized``).
enum Headings {
  /// The headings `heading.<name>` of `names`.
  static func of(_ names: String...) -> [String] {
    names.map { Localized.current("heading." + $0) }
  }

  /// The label `label.<name>` of a detail view's line (`Name`, `Title`).
  static func label(_ name: String) -> String { Localized.current("label." + name) }

  /// A kept item's status in the user's language (`pending`, `ausstehend`; `--json` keeps
  /// the store's words), with "(deleted)" when it is a deletion.
  static func status<Item>(_ entry: SyncedCollection<Item>.Entry) -> String {
    status(entry.status) + (entry.deleted ? " (\(Localized.current("deleted")))" : "")
  }

  /// A status in the user's language: the sentence `status.<word>`.
  static func status(_ status: SyncStatus) -> String {
    Localized.current("status." + status.rawValue)
  }
}
