import Foundation

/// What a request sends:
/// ```swift
/// let create = Request<Post>(path: "posts/add", method: .post, body: .json(draft))
/// let token = Request<Token>(
///   path: "oauth/token", method: .post, body: .form([("grant_type", "client_credentials")]))
/// var photo = MultipartForm()
/// photo.add("caption", "Dinner")
/// photo.add("photo", file: URL(fileURLWithPath: "dinner.jpg"), contentType: "image/jpeg")
/// let upload = Request<EmptyResponse>(path: "photos", method: .post, body: .multipart(photo))
/// ```
/// A file, and a multipart form holding one, is streamed from disk on each attempt: memory
/// stays flat whatever its size, and a retry sends it again whole.
public enum RequestBody: Sendable {
  /// Encoded by the service's `JSONEncoder`; `Content-Type: application/json`.
  case json(any Encodable & Sendable)
  /// `application/x-www-form-urlencoded`, fields in order, names and values percent-encoded.
  case form([(name: String, value: String)])
  /// Bytes as they are, with their content type.
  case bytes(Data, contentType: String)
  /// A file's contents, streamed from disk, with their content type.
  case file(URL, contentType: String)
  /// `multipart/form-data`: fields and files, streamed.
  case multipart(MultipartForm)
}
