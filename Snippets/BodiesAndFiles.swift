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
  var upload = Request<EmptyResponse>(path: "photos", method: .post, body: .multipart(form))
  let (sent, reporter) = AsyncStream.makeStream(of: TransferProgress.self)
  upload.sendProgress = reporter
  // snippet.end
  // snippet.hide
  _ = (token, upload, sent)

  // snippet.show
  // snippet.download
  var request = Request<Data>(path: "files/manual.pdf")
  let (progress, receiving) = AsyncStream.makeStream(
    of: TransferProgress.self, bufferingPolicy: .bufferingNewest(1))
  request.receiveProgress = receiving
  Task {
    for await step in progress { show("\(step.done) of \(step.expected ?? 0) bytes") }
  }
  let file = try await network.download(
    Download(request, to: folder.appendingPathComponent("manual.pdf"))
  ).value
  // snippet.end
  // snippet.hide
  _ = file
}
