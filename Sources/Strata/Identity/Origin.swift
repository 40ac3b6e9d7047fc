import Foundation

/// Where a URL points, as the web's same-origin rule sees it: scheme, host and port.
///
/// Credentials are bound to the origin that issued them: a bearer token is attached only to
/// requests for that origin, and credential headers are dropped on a redirect to any other.
/// `https://api.example.com` and `http://api.example.com` are different origins (a downgrade
/// is cross-origin), as are two ports of one host.
public struct Origin: Hashable, Sendable, Codable, CustomStringConvertible {
  /// `http` or `https` (lowercase).
  public let scheme: String
  /// The host name or address (lowercase, IPv6 without brackets).
  public let host: String
  /// The port, with the scheme's default filled in.
  public let port: Int

  /// The origin of `url`, or nil when it has no scheme or host (or a scheme without a
  /// default port and no explicit port).
  public init?(_ url: URL) {
    guard let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased(), !host.isEmpty
    else { return nil }
    guard let port = url.port ?? Self.defaultPort(scheme), (0...65_535).contains(port) else {
      return nil
    }
    self.scheme = scheme
    self.host =
      host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
    self.port = port
  }

  /// Parses `scheme://host[:port]`, as ``description`` prints it.
  public init?(_ text: String) {
    guard let url = URL(string: text) else { return nil }
    self.init(url)
  }

  /// `https://dummyjson.com`, `http://127.0.0.1:8080` (the port only when not the default).
  public var description: String {
    let shownHost = host.contains(":") ? "[\(host)]" : host
    return port == Self.defaultPort(scheme)
      ? "\(scheme)://\(shownHost)" : "\(scheme)://\(shownHost):\(port)"
  }

  /// Whether `url` has this origin.
  package func contains(_ url: URL) -> Bool { Origin(url) == self }

  /// Whether the host is this machine (`localhost`, `127.0.0.0/8`, `::1`): reachable
  /// without a network route.
  package var isLoopback: Bool {
    host == "localhost" || host.hasSuffix(".localhost") || host == "::1"
      || host.hasPrefix("127.") && host.split(separator: ".").count == 4
  }

  /// Decodes the text form.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    let text = try container.decode(String.self)
    guard let origin = Origin(text) else {
      throw DecodingError.dataCorruptedError(
        in: container, debugDescription: "not an origin: '\(text.prefix(80))'")
    }
    self = origin
  }

  /// Encodes the text form, e.g. `"https://dummyjson.com"`.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(description)
  }

  private static func defaultPort(_ scheme: String) -> Int? {
    switch scheme {
    case "https", "wss": 443
    case "http", "ws": 80
    default: nil
    }
  }
}
