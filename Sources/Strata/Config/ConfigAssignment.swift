/// A piece of a value as written: literal text, or a `$(NAME)` / `${NAME}` reference whose
/// name may itself contain references (`$(URL_$(ENV))`).
/// Only a reference is boxed: a literal (most values are one) costs no allocation of its own.
enum ValueSegment: Sendable, Hashable {
  case literal(String)
  indirect case reference(name: [ValueSegment], location: SourceLocation)
}

/// One `KEY = value` definition as the parser found it, before layering and substitution.
struct ConfigAssignment: Sendable, Hashable {
  let key: String
  let segments: [ValueSegment]
  /// Where the key starts.
  let location: SourceLocation
}
