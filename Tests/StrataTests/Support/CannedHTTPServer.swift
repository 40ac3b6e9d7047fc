import Foundation
import StrataConcurrency
import StrataSandbox

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A loopback HTTP server that answers with bytes written as given — what the sandbox never
/// sends: a chunked body, a body closed without a length or cut short, a lying
/// `Content-Length`, a `Range` ignored. It keeps the head of every request it answered.
/// Accepting and answering run on a thread of its own, over the sandbox's portable socket calls.
final class CannedHTTPServer: Sendable {
  let port: UInt16
  /// The write end of the pipe that ends the accept loop.
  private let wake: Int32
  private let heads = Lock<[String]>([])
  private let bodies = Lock<[[UInt8]]>([])

  var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }
  var requests: Int { heads.withLock { $0.count } }
  /// The head of each request answered, in order.
  var requestHeads: [String] { heads.withLock { $0 } }
  /// The body of each request answered, as far as its `Content-Length` said.
  var requestBodies: [[UInt8]] { bodies.withLock { $0 } }

  /// Answers every request with `response`.
  convenience init(response: [UInt8]) throws {
    try self.init { _, _ in response }
  }

  /// Answers each request with what `respond` makes of its head and its number (0, 1, …); the
  /// connection is closed after each answer.
  init(respond: @escaping @Sendable (_ head: String, _ number: Int) -> [UInt8]) throws {
    let listener = try Socket.listen(port: 0, backlog: 16)
    let wake: (read: Int32, write: Int32)
    do { wake = try Socket.wakePipe() } catch {
      Socket.close(listener.fd)
      throw error
    }
    (port, self.wake) = (listener.port, wake.write)
    let (heads, bodies) = (self.heads, self.bodies)
    Thread.detachNewThread {
      while let client = Socket.accept(listener.fd, wake: wake.read) {
        // Read the request head, then answer and close.
        var head: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while head.firstRange(of: Array("\r\n\r\n".utf8)) == nil,
          case let count = read(client, &buffer, 4096),
          count > 0
        {
          head += buffer[..<count]
        }
        // A body announced by Content-Length is read whole (and kept) before answering.
        let split = head.firstRange(of: Array("\r\n\r\n".utf8))
        let text = String(decoding: head[..<(split?.lowerBound ?? head.endIndex)], as: UTF8.self)
        var body = split.map { Array(head[$0.upperBound...]) } ?? []
        let length =
          text.split(separator: "\r\n").first {
            $0.lowercased().hasPrefix("content-length:")
          }.flatMap { Int($0.dropFirst(15).trimmingCharacters(in: .whitespaces)) } ?? 0
        while body.count < length, case let count = read(client, &buffer, 4096), count > 0 {
          body += buffer[..<count]
        }
        bodies.withLock { $0.append(body) }
        let number = heads.withLock { heads -> Int in
          heads.append(text)
          return heads.count - 1
        }
        Socket.send(client, respond(text, number))
        Socket.close(client)
      }
      // Closed here, once the loop has ended, not in deinit: closed while this loop could
      // still call accept, the number could be reused by another test's listening socket in
      // this process, and this thread would take that server's connections.
      Socket.close(listener.fd)
      Socket.close(wake.read)
    }
  }

  deinit { Socket.wake(wake) }

  /// A 200 with `body`, framed by Content-Length, chunked, or ended by closing the connection.
  enum Framing: String, CaseIterable, Sendable { case contentLength, chunked, close }

  static func response(_ body: [UInt8], framing: Framing) -> [UInt8] {
    var head =
      "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nX-Content-Type-Options: nosniff\r\n"
      + "Connection: close\r\n"
    switch framing {
    case .contentLength: head += "Content-Length: \(body.count)\r\n\r\n"
    case .close: head += "\r\n"
    case .chunked:
      head += "Transfer-Encoding: chunked\r\n\r\n"
      var chunked = Array(head.utf8)
      var rest = body[...]
      while !rest.isEmpty {  // 1000-byte chunks: the limit falls inside one
        let chunk = rest.prefix(1000)
        chunked += Array("\(String(chunk.count, radix: 16))\r\n".utf8) + chunk + Array("\r\n".utf8)
        rest = rest.dropFirst(chunk.count)
      }
      return chunked + Array("0\r\n\r\n".utf8)
    }
    return Array(head.utf8) + body
  }
}
