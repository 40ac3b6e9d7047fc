import Foundation
import StrataConcurrency

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A loopback HTTP server that answers every request with the same bytes, written as given —
/// what the sandbox never sends: a chunked body, a body closed without a length. It counts the
/// requests it answered. Accepting and answering run on a thread of its own.
final class CannedHTTPServer: Sendable {
  let port: UInt16
  private let listener: Int32
  private let answered = Lock(0)

  var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }
  var requests: Int { answered.withLock { $0 } }

  init(response: [UInt8]) throws {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, length) == 0 && listen(fd, 16) == 0 && getsockname(fd, $0, &length) == 0
      }
    }
    guard fd >= 0, bound else {
      if fd >= 0 { close(fd) }
      throw POSIXError(.EADDRNOTAVAIL)
    }
    listener = fd
    port = UInt16(bigEndian: address.sin_port)
    let answered = self.answered
    Thread.detachNewThread {
      while case let client = accept(fd, nil, nil), client >= 0 {
        // Read the request head (these tests send no body), then answer and close.
        var head: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !head.ends(with: Array("\r\n\r\n".utf8)),
          case let count = read(client, &buffer, 4096),
          count > 0
        {
          head += buffer[..<count]
        }
        var offset = 0
        while offset < response.count {
          let written = response[offset...].withUnsafeBytes {
            send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
          }
          guard written > 0 else { break }
          offset += written
        }
        answered.withLock { $0 += 1 }
        close(client)
      }
      // Closed here, once accept has failed, not in deinit: closed while this loop could
      // still call accept, the number could be reused by another test's listening socket in
      // this process, and this thread would take that server's connections.
      close(fd)
    }
  }

  deinit { shutdown(listener, Int32(SHUT_RDWR)) }

  /// A 200 with `body`, framed by Content-Length, chunked, or ended by closing the connection.
  enum Framing: String, CaseIterable, Sendable { case contentLength, chunked, close }

  static func response(_ body: [UInt8], framing: Framing) -> [UInt8] {
    var head = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n"
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

extension Array where Element == UInt8 {
  fileprivate func ends(with suffix: [UInt8]) -> Bool {
    count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix
  }
}
