import Foundation
import Strata
import StrataConcurrency
import StrataTesting
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Bodies beyond JSON: a form, bytes, a file and a multipart form — what goes on the wire, a
/// retry sending the whole body again, and no secret of a form in a log.
@Suite("Request bodies: form, bytes, file, multipart")
struct RequestBodyTests {
  /// What a mock transport was given as the body: bytes, or the stream read to its end.
  static func sentBody(_ request: URLRequest) -> Data {
    if let body = request.httpBody { return body }
    guard let stream = request.httpBodyStream else { return Data() }
    stream.open()
    defer { stream.close() }
    var data = Data()
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while case let count = stream.read(&buffer, maxLength: buffer.count), count > 0 {
      data.append(contentsOf: buffer[..<count])
    }
    return data
  }

  @Test func aFormIsPercentEncodedInOrder() async throws {
    let transport = MockTransport.successful(json: "{}")
    let body = RequestBody.form([
      ("grant_type", "password"), ("username", "emily j"), ("password", "p&w=1+2"),
    ])
    _ = try await makeService(transport).send(
      Request<EmptyResponse>(path: "token", method: .post, body: body))
    let sent = try #require(transport.requests.first)
    #expect(
      String(decoding: Self.sentBody(sent), as: UTF8.self)
        == "grant_type=password&username=emily%20j&password=p%26w%3D1%2B2")
    #expect(sent.value(forHTTPHeaderField: "Content-Type") == "application/x-www-form-urlencoded")
  }

  @Test func bytesGoAsTheyAreWithTheirType() async throws {
    let transport = MockTransport.successful(json: "{}")
    let bytes = Data([0, 1, 2, 255])
    _ = try await makeService(transport).send(
      Request<EmptyResponse>(
        path: "blob", method: .put, body: .bytes(bytes, contentType: "application/octet-stream")))
    let sent = try #require(transport.requests.first)
    #expect(Self.sentBody(sent) == bytes)
    #expect(sent.value(forHTTPHeaderField: "Content-Type") == "application/octet-stream")
  }

  /// A multipart form with a file: each attempt streams it whole from the start (a 503, then
  /// a 200 to the same key), and the temporary file it was assembled in is gone afterwards.
  @Test func aMultipartFormIsStreamedWholeOnEveryAttempt() async throws {
    let folder = try TemporaryDirectory()
    let photo = try folder.write("photo.jpg", bytes: (0..<300_000).map { UInt8($0 % 251) })
    var form = MultipartForm()
    form.add("caption", "Dinner \"out\"")
    form.add("photo", file: URL(fileURLWithPath: photo), contentType: "image/jpeg")
    let bodies = Lock<[Data]>([])
    let transport = MockTransport { request, index in
      bodies.withLock { $0.append(Self.sentBody(request)) }
      return try MockTransport.response(request, status: index == 1 ? 503 : 200)
    }
    _ = try await makeService(transport).send(
      Request<EmptyResponse>(
        path: "photos", method: .post, body: .multipart(form), idempotencyKey: "K1"))
    let sent = bodies.withLock { $0 }
    #expect(sent.count == 2 && sent[0] == sent[1] && !sent[0].isEmpty)
    let text = String(decoding: sent[0].prefix(400), as: UTF8.self)
    #expect(
      text.hasPrefix("--\(form.boundary)\r\nContent-Disposition: form-data; name=\"caption\""))
    #expect(text.contains("\r\n\r\nDinner \"out\"\r\n"))
    #expect(text.contains("name=\"photo\"; filename=\"photo.jpg\"\r\nContent-Type: image/jpeg"))
    #expect(sent[0].range(of: try Data(contentsOf: URL(fileURLWithPath: photo))) != nil)
    #expect(sent[0].suffix(form.boundary.count + 6) == Data("--\(form.boundary)--\r\n".utf8))
    let header = transport.requests[0].value(forHTTPHeaderField: "Content-Length")
    #expect(header == String(sent[0].count))
    let left = try FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory())
    #expect(!left.contains { $0.hasPrefix("strata-multipart-") && $0.contains(form.boundary) })
  }

  /// Through the real URLSession: a file uploaded as a multipart part reaches the server whole,
  /// framed by the `Content-Length` the service set.
  @Test func aFileReachesTheServerWhole() async throws {
    let folder = try TemporaryDirectory()
    let content = (0..<2_000_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
    let file = try folder.write("video.bin", bytes: content)
    let server = try CannedHTTPServer(
      response: Array("HTTP/1.1 201 Created\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8)
    )
    var form = MultipartForm()
    form.add("video", file: URL(fileURLWithPath: file), contentType: "video/mp4")
    let network = makeService(URLSessionTransport(), baseURL: server.baseURL.absoluteString)
    var request = Request<EmptyResponse>(path: "upload", method: .post, body: .multipart(form))
    let (progress, reporter) = AsyncStream.makeStream(of: TransferProgress.self)
    request.sendProgress = reporter
    let answer = try await network.send(request)
    #expect(answer.status == 201)
    let received = Data(try #require(server.requestBodies.first))
    var last: TransferProgress?
    for await step in progress { last = step }
    #expect(last == TransferProgress(done: Int64(received.count), expected: Int64(received.count)))
    #expect(!server.requestHeads[0].lowercased().contains("transfer-encoding"), "framed by length")
    #expect(received.range(of: Data(content)) != nil)
    #expect(received.count > content.count && received.count < content.count + 400)
  }

  /// At trace level, every body is logged without its secrets: a form's secret fields are
  /// replaced, a multipart form (whatever its parts say) is never read into the log.
  @Test func noBodySecretReachesATraceLog() async throws {
    let secret = "hunter-\(UUID().uuidString.prefix(8))"
    var form = MultipartForm()
    form.add("password", secret)
    let capture = CapturingLogSink()
    let network = makeService(MockTransport.successful(json: "{}"))
    try await Log.withScope(sink: capture, levels: .all) {
      _ = try await network.send(
        Request<EmptyResponse>(
          path: "token", method: .post, body: .form([("user", "e"), ("password", secret)])))
      _ = try await network.send(
        Request<EmptyResponse>(path: "up", method: .post, body: .multipart(form)))
    }
    #expect(capture.text.contains("request body: user=e&password=<redacted>"))
    #expect(capture.text.contains("streamed>"))
    #expect(!capture.text.contains(secret))
  }

  /// A form's secret fields never reach a log; the others stay readable.
  @Test func aFormsSecretsAreRedacted() {
    let shown = Redactor.standard.redact(
      form: Data("username=emilys&password=hunter%262&client_secret=abc&scope=read".utf8))
    #expect(shown == "username=emilys&password=<redacted>&client_secret=<redacted>&scope=read")
  }
}
