import Foundation
import Strata

/// One event of the sandbox's feed (`GET /events`, Strata's addition — DummyJSON has none):
/// a write the sandbox kept, as the event's data says it —
/// `{"id":252,"resource":"posts","record":{…}}`, no `record` for a deletion.
public struct FeedEvent: Sendable, Equatable, Encodable {
  /// The event's id (what a reconnection resumes from).
  public let id: String?
  /// `posts.kept`, `todos.deleted`, …
  public let type: String
  /// `posts`, `todos`, …; nil when the data is not the feed's shape.
  public let resource: String?
  /// The id of the record written.
  public let recordId: Int?
  /// The record's title (a post) or text (a todo), when it has one.
  public let title: String?
  /// The event's data as it came (`{"id":252,"resource":"posts","record":{…}}`).
  public let data: String

  /// The event as the feed sends it; a field the data lacks (or data that is not JSON) is nil.
  public init(_ event: ServerSentEvent) {
    struct Shape: Decodable {
      struct Record: Decodable {
        let title: String?
        let todo: String?
      }
      let id: Int?
      let resource: String?
      let record: Record?
    }
    let shape = try? JSONDecoder().decode(Shape.self, from: Data(event.data.utf8))
    (id, type, data) = (event.id, event.type, event.data)
    (resource, recordId) = (shape?.resource, shape?.id)
    title = shape?.record.flatMap { $0.title ?? $0.todo }
  }
}
