import Foundation

/// The HTTP Archive format 1.2 (W3C draft, as browsers' developer tools, Charles and Proxyman
/// read it): what ``HARRecorder`` writes. Only the members Strata fills; times in
/// milliseconds, `-1` where the transport cannot tell.
struct HARLog: Encodable {
  struct Root: Encodable { let log: HARLog }

  struct Creator: Encodable {
    let name: String
    let version: String
  }

  struct Pair: Encodable {
    let name: String
    let value: String
  }

  struct PostData: Encodable {
    let mimeType: String
    let text: String
    /// Strata's: the body streamed from a file or a multipart form, never read into the log.
    var _streamed: Bool?
  }

  struct Request: Encodable {
    let method: String
    let url: String
    var httpVersion = "HTTP/1.1"
    var cookies: [Pair] = []
    let headers: [Pair]
    let queryString: [Pair]
    let postData: PostData?
    var headersSize = -1
    let bodySize: Int
  }

  struct Content: Encodable {
    let size: Int
    let mimeType: String
    let text: String?
    /// `base64` for a binary body.
    let encoding: String?
    /// Why the text is shorter than the body, or absent.
    let comment: String?
  }

  struct Response: Encodable {
    let status: Int
    let statusText: String
    var httpVersion = "HTTP/1.1"
    var cookies: [Pair] = []
    let headers: [Pair]
    let content: Content
    var redirectURL = ""
    var headersSize = -1
    let bodySize: Int
  }

  struct Cache: Encodable {}

  /// `wait` runs until the response head arrived (the transport's `send` returned), sending
  /// included; `receive` is the body after it.
  struct Timings: Encodable {
    var blocked = -1.0
    var dns = -1.0
    var connect = -1.0
    var ssl = -1.0
    var send = 0.0
    let wait: Double
    let receive: Double
  }

  /// Strata's own members: which call and attempt the entry is, where the answer came from,
  /// and the error of an attempt that got no answer.
  struct Strata: Encodable {
    let request: String
    let attempt: Int
    let source: String
    let error: String?
  }

  struct Entry: Encodable {
    let startedDateTime: String
    let time: Double
    let request: Request
    let response: Response
    var cache = Cache()
    let timings: Timings
    let _strata: Strata
  }

  var version = "1.2"
  let creator: Creator
  var pages: [String] = []
  let entries: [Entry]
  /// Said when older attempts were dropped to keep the recorder's bound.
  var comment: String?
}
