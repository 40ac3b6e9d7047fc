import Foundation
import StrataConcurrency

extension SandboxAPI {
  /// `/icon/:name?/:size?` as DummyJSON has it (every user's `image`): a PNG (`?type=svg`: an
  /// SVG) drawn from the name (default `DummyJSON`) at 1…1000 pixels (anything else: 100),
  /// with the real route's headers — `Cache-Control: public, max-age=31557600`, inline. Beyond
  /// DummyJSON (whose Express `send` ignores `Range` here), it answers byte ranges under a
  /// strong `ETag`, so a client's resumed download can be checked against it.
  mutating func addIconRoutes() {
    let handler: Router.Handler = { call in
      let name = call.parameters["name"] ?? "DummyJSON"
      let asked = call.parameters["size"].flatMap(Int.init) ?? 100
      let size = (1...1000).contains(asked) ? asked : 100
      let svg = call.request.queryValue("type") == "svg"
      let (body, tag) = Self.drawn.icon("\(name)/\(size)/\(svg)") {
        let body = svg ? Self.svgIcon(for: name, size: size) : Identicon.png(for: name, size: size)
        return (body, ContentCoding.strongTag(body))
      }
      return SandboxResponse(
        status: 200,
        headers: [
          ("Content-Type", svg ? "image/svg" : "image/png"), ("Content-Disposition", "inline"),
          ("Cache-Control", "public, max-age=31557600"), ("Accept-Ranges", "bytes"),
          ("ETag", tag),
        ], body: body)
    }
    route("GET", "/icon", handler)
    route("GET", "/icon/{name}", handler)
    route("GET", "/icon/{name}/{size}", handler)
  }

  /// Icons drawn so far: a download cut and resumed asks for one icon several times, and a
  /// large one costs a debug build a second to draw and hash.
  private static let drawn = IconMemo()

  /// The SVG form: one square in the icon's colour.
  private static func svgIcon(for name: String, size: Int) -> Data {
    let png = Identicon.png(for: name, size: 1)
    let colour = png.suffix(30).prefix(3).map { String(format: "%02x", $0) }.joined()
    return Data(
      """
      <svg xmlns="http://www.w3.org/2000/svg" width="\(size)" height="\(size)" \
      viewBox="0 0 \(size) \(size)"><rect width="\(size)" height="\(size)" fill="#\(colour)"/></svg>
      """.utf8)
  }
}

/// The last icons drawn, with their tags (at most 16: a client asking for every size of every
/// name cannot grow the server).
final class IconMemo: Sendable {
  private let icons = Lock<[String: (body: Data, tag: String)]>([:])

  func icon(_ key: String, draw: () -> (Data, String)) -> (Data, String) {
    if let known = icons.withLock({ $0[key] }) { return known }
    let made = draw()
    icons.withLock { icons in
      if icons.count >= 16 { icons.removeAll() }
      icons[key] = made
    }
    return made
  }
}
