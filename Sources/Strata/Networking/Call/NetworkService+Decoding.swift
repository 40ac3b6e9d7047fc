import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Turning an answer into the endpoint's value, off the caller's actor, with an error that
/// names the status, the coding path and an excerpt of the body when it does not decode.
extension NetworkService {
  /// A stored answer's value: decoded once per answer, service and type (the value is
  /// `Sendable`, so sharing it among readers is safe).
  func decode<Response: Decodable & Sendable>(
    _ type: Response.Type, _ stored: CachedResponse
  ) throws -> Response {
    if let value = stored.decoded.value(type, decoder: decodingIdentity) { return value }
    let value = try decode(
      type, stored.body, status: stored.status, contentType: stored.headers["content-type"])
    stored.decoded.keep(value, decoder: decodingIdentity)
    return value
  }

  /// The answer as the endpoint's type: `Data` is the body as it came, `String` its text in
  /// the answer's charset (UTF-8 when it names none), ``EmptyResponse`` nothing; any other
  /// type is decoded from JSON.
  func decode<Response: Decodable>(
    _ type: Response.Type, _ data: Data, status: Int, contentType: String?
  ) throws -> Response {
    if type == EmptyResponse.self, let empty = EmptyResponse() as? Response { return empty }
    if let bytes = data as? Response { return bytes }
    if type == String.self {
      let charset = BodyText.charset(of: contentType)
      guard let text = BodyText.decode(data, charset: charset) as? Response else {
        throw NetworkError(
          .decoding(
            .init(
              status: status, codingPath: "", reason: "not text in \(charset ?? "UTF-8")",
              bodyExcerpt: "")))
      }
      return text
    }
    do {
      return try decoder.decode(type, from: data)
    } catch {
      throw NetworkError(
        .decoding(
          .init(
            status: status, codingPath: Self.codingPath(of: error),
            reason: Self.reason(of: error), bodyExcerpt: redactor.redact(body: data, limit: 200))),
        underlying: error)
    }
  }

  static func codingPath(of error: any Error) -> String {
    let path: [any CodingKey]
    switch error as? DecodingError {
    case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
      path = context.codingPath
    case .keyNotFound(let key, let context):
      path = context.codingPath + [key]
    default:
      return ""
    }
    return path.reduce(into: "") { text, key in
      if let index = key.intValue {
        text += "[\(index)]"
      } else {
        text += (text.isEmpty ? "" : ".") + key.stringValue
      }
    }
  }

  static func reason(of error: any Error) -> String {
    switch error as? DecodingError {
    case .typeMismatch(let type, _): "expected \(type)"
    case .valueNotFound(let type, _): "missing \(type) value"
    case .keyNotFound: "missing key"
    case .dataCorrupted(let context):
      context.codingPath.isEmpty ? "not valid JSON" : context.debugDescription
    default: String(describing: error)
    }
  }
}
