import Foundation
import Strata

// snippet.hide
let network = NetworkService(
  options: NetworkOptions(baseURL: URL(string: "https://dummyjson.com")!))
let folder = URL(fileURLWithPath: NSTemporaryDirectory())
struct Token: Decodable, Sendable {}
func show(_ line: String) {}

func examples() async throws {
  // snippet.show
  // snippet.answers
  let png = try await network.send(Request<Data>(path: "icon/emilys/128")).value
  let page = try await network.send(Request<String>(path: "docs")).value  // in its charset
  // snippet.end
  // snippet.hide
  _ = (png, page)

  // snippet.show
  // snippet.bodies
  let token = Request<Token>(
    path: "oauth/token", method: .post,
    body: .form([("grant_type", "client_credentials"), ("client_secret", "s3cret")]))
  var form = MultipartForm()
  form.add("caption", "Dinner")
  form.add("photo", file: folder.appendingPathComponent("dinner.jpg"), contentType: "image/jpeg")
  let upload = Request<EmptyResponse>(path: "photos", method: .post, body: .multipart(form))
  _ = try await network.send(upload) { step in
    if step.direction == .sending { show("\(step.completed) of \(step.total ?? 0) bytes sent") }
  }
  // snippet.end
  // snippet.hide
  _ = token

  // snippet.show
  // snippet.download
  let request = Request<Data>(path: "files/manual.pdf")
  let file = try await network.download(
    Download(request, to: folder.appendingPathComponent("manual.pdf"))
  ) { step in
    show("\(step.completed) of \(step.total ?? 0) bytes")  // on disk, a resumed part included
  }.value
  // snippet.end
  // snippet.hide
  _ = file

  // snippet.show
  // snippet.streams
  let feed = Request<Data>(path: "events")
  for try await event in network.stream(feed, as: .events(lastEventID: nil)) {
    show("\(event.type): \(event.data)")  // reconnects with Last-Event-ID when dropped
  }
  struct Reading: Decodable, Sendable { let celsius: Double }
  let sensors = Request<Data>(path: "sensors/feed")
  for try await reading in network.stream(sensors, as: .jsonLines(Reading.self)) {
    show("\(reading.celsius) °C")  // one value per line of newline-delimited JSON
  }
  // snippet.end
  // snippet.hide
}
