/// What DemoKit's repositories take of an answer's `ETag` as the version of an item.
enum EntityTag {
  /// A strong entity tag; nil for a weak one (`W/"…"`, which Express puts on every JSON body):
  /// `If-Match` compares strongly (RFC 9110 §13.1.1), so a weak tag could never match, and a
  /// change is checked against the item's value instead.
  static func strong(_ tag: String?) -> String? {
    tag.flatMap { $0.hasPrefix("W/") ? nil : $0 }
  }
}
