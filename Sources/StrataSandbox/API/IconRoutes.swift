import Foundation

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
      let body = svg ? Self.svgIcon(for: name, size: size) : Identicon.png(for: name, size: size)
      return SandboxResponse(
        status: 200,
        headers: [
          ("Content-Type", svg ? "image/svg" : "image/png"), ("Content-Disposition", "inline"),
          ("Cache-Control", "public, max-age=31557600"), ("Accept-Ranges", "bytes"),
          ("ETag", ContentCoding.strongTag(body)),
        ], body: body)
    }
    route("GET", "/icon", handler)
    route("GET", "/icon/{name}", handler)
    route("GET", "/icon/{name}/{size}", handler)
  }

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
