import Foundation

/// Serves one client connection: reads requests (keep-alive), applies faults and `?delay`,
/// routes, writes responses; answers malformed input with 4xx and closes.
struct Connection {
  let fd: Int32
  let server: SandboxServer
  let activity: ConnectionActivity

  func serve() {
    let limits = server.limits
    let idleMilliseconds =
      Int(limits.idleTimeout.components.seconds * 1000)
      + Int(limits.idleTimeout.components.attoseconds / 1_000_000_000_000_000)
    Socket.setReceiveTimeout(fd, milliseconds: max(1, idleMilliseconds))
    var parser = HTTPRequestParser(limits: limits)
    var buffer: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 16 * 1024)
    var served = 0
    var requestStarted: ContinuousClock.Instant?

    while server.isRunning {
      switch parser.parse(&buffer, now: server.configuration.now()) {
      case .request(let request, let keepAlive):
        served += 1
        requestStarted = buffer.isEmpty ? nil : .now
        activity.touch(.handling)
        guard respond(to: request, keepAlive: keepAlive), keepAlive else { return }
        activity.touch(buffer.isEmpty ? .idle : .receiving)
        continue
      case .reject(let status, let message):
        send(.message(status, message), keepAlive: false, includeBody: true)
        return
      case .incomplete:
        break
      }
      // A request trickling in byte by byte still has to finish within the idle timeout.
      if let requestStarted, ContinuousClock.now - requestStarted > limits.idleTimeout {
        send(.message(408, "Request timed out"), keepAlive: false, includeBody: true)
        return
      }
      let result = chunk.withUnsafeMutableBytes { Socket.receive(fd, into: $0) }
      switch result {
      case .data(let count):
        activity.touch(.receiving)
        if buffer.isEmpty { requestStarted = .now }
        buffer.append(contentsOf: chunk[0..<count])
      case .closed, .failed:
        return
      case .timedOut:
        // A half-sent request, or a client that never sent anything, is told why; an idle
        // keep-alive connection is closed quietly (a pooled client could mistake a 408 for
        // the answer to its next request).
        if !buffer.isEmpty || served == 0 {
          send(.message(408, "Request timed out"), keepAlive: false, includeBody: true)
        }
        return
      }
    }
  }

  /// Returns false when the connection must close.
  private func respond(to request: SandboxRequest, keepAlive: Bool) -> Bool {
    // A new reader of the feed starts after what is there when its request arrives — taken
    // before the request is journalled, so a writer that waits for the journal is never missed.
    let feed = server.api.kept.feed
    let now = request.method == "GET" && request.path == "/events" ? feed.latest : 0
    let (actions, response) = server.handle(request)
    var truncate = false
    var extraHeaders: [(name: String, value: String)] = []
    for action in actions {
      switch action {
      case .delay(let duration):
        server.pause(duration)
      case .hold(let body):
        body()
      case .dropConnection:
        return false
      case .dropAfterHandling:
        _ = response()
        return false
      case .respond(let status, let headers, let body):
        // A scripted body is sent verbatim (malformed JSON, HTML…); headers replace defaults.
        var fault =
          body.map { SandboxResponse.json(status, Data($0.utf8)) }
          ?? .message(status, "Injected fault: \(status)")
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
          fault.headers.removeAll { $0.name.lowercased() == name.lowercased() }
          fault.headers.append((name, value))
        }
        return send(fault, keepAlive: keepAlive, includeBody: request.method != "HEAD")
      case .truncateBody:
        truncate = true
      case .truncateHead:
        let head = response().serialized(keepAlive: false, includeBody: false)
        // The status line's CRLF and four bytes of the next line: never the blank line.
        let lineEnd = head.firstIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? head.count
        Socket.send(fd, Array(head.prefix(min(lineEnd + 4, max(0, head.count - 4)))))
        return false
      case .header(let name, let value):
        extraHeaders.append((name, value))
      case .editedElsewhere:
        server.api.editElsewhere(request.path)
      case .echo(let status):
        return send(.echo(request, status: status), keepAlive: keepAlive, includeBody: true)
      case .endlessBody:
        streamEndlessBody()
        return false
      }
    }
    if request.method == "GET", request.path == "/events" {
      streamEvents(request, feed: feed, now: now)
      return false
    }
    // A `?delay=` the API rejects (not a number, over 5 s) is answered 400 at once.
    if let delay = try? QueryOptions.delay(request), delay > 0 {
      server.pause(min(.milliseconds(delay), server.configuration.maxDelay))
    }
    var answer = response()
    for (name, value) in extraHeaders {
      answer.headers.removeAll { $0.name.lowercased() == name.lowercased() }
      answer.headers.append((name, value))
    }
    if truncate {
      var bytes = answer.serialized(keepAlive: false, includeBody: true)
      bytes.removeLast(max(1, answer.body.count / 2))
      Socket.send(fd, bytes)
      return false
    }
    return send(answer, keepAlive: keepAlive, includeBody: request.method != "HEAD")
  }

  /// A 200 whose JSON array never ends: 64 KiB every millisecond (about 64 MB/s, a fast
  /// link) until the client closes the connection, the server stops, or 60 s pass.
  private func streamEndlessBody() {
    let head =
      "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nX-Content-Type-Options: nosniff\r\n"
      + "Connection: close\r\n\r\n["
    guard Socket.send(fd, Array(head.utf8)) else { return }
    let chunk = [UInt8](String(repeating: "1,", count: 32 * 1024).utf8)
    let deadline = ContinuousClock.now + .seconds(60)
    while server.isRunning, ContinuousClock.now < deadline, Socket.send(fd, chunk) {
      Thread.sleep(forTimeInterval: 0.001)
    }
  }

  @discardableResult
  private func send(_ response: SandboxResponse, keepAlive: Bool, includeBody: Bool) -> Bool {
    Socket.send(fd, response.serialized(keepAlive: keepAlive, includeBody: includeBody))
  }
}
