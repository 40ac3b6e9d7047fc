#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Thin, throwing wrappers over the POSIX socket calls the sandbox (and the tests' canned
/// servers) need, the same on Linux and Darwin. Descriptors are plain `Int32`s owned by whoever
/// holds them; every call retries on `EINTR`.
package enum Socket {
  package struct Failure: Error, CustomStringConvertible {
    let call: String
    let code: Int32
    package var description: String {
      "\(call) failed: \(String(cString: strerror(code))) (errno \(code))"
    }
  }

  #if canImport(Darwin)
    private static let streamType = SOCK_STREAM
    private static let sendFlags: Int32 = 0
  #else
    private static let streamType = Int32(SOCK_STREAM.rawValue)
    private static let sendFlags = Int32(MSG_NOSIGNAL)
  #endif

  /// Opens a listening TCP socket on 127.0.0.1 (`port` 0 picks a free one), non-blocking:
  /// ``accept(_:wake:)`` waits in `poll`, never in `accept`.
  /// - Returns: The descriptor and the bound port.
  package static func listen(port: UInt16, backlog: Int32 = 128) throws -> (
    fd: Int32, port: UInt16
  ) {
    let fd = socket(AF_INET, streamType, 0)
    guard fd >= 0 else { throw Failure(call: "socket", code: errno) }
    var yes: Int32 = 1
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
    #if canImport(Darwin)
      setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &yes, socklen_t(MemoryLayout<Int32>.size))
    #endif
    try withLoopback(port: port, fd: fd, call: "bind") { bind(fd, $0, $1) }
    guard systemListen(fd, backlog) == 0, setBlocking(fd, false) else {
      let code = errno
      close(fd)
      throw Failure(call: "listen", code: code)
    }
    var address = sockaddr_in()
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    return (fd, UInt16(bigEndian: address.sin_port))
  }

  /// Calls `body` (bind or connect) with 127.0.0.1:`port`; on failure closes `fd` and throws.
  private static func withLoopback(
    port: UInt16, fd: Int32, call: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Int32
  ) throws {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = INADDR_LOOPBACK.bigEndian
    let result = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        body($0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard result == 0 else {
      let code = errno
      close(fd)
      throw Failure(call: "\(call) 127.0.0.1:\(port)", code: code)
    }
  }

  /// A connected pair of sockets whose write end, given to ``wake(_:)``, ends an
  /// ``accept(_:wake:)`` waiting on its read end. `shutdown` on a listening socket wakes a
  /// blocked `accept` on Linux only (BSD answers `ENOTCONN` and the thread stays blocked), so
  /// the accept loop polls both. Sockets, not a pipe: a write to a pipe whose reader is gone
  /// raises `SIGPIPE`, which ends the process, and only a socket's write can refuse it
  /// (`MSG_NOSIGNAL`, `SO_NOSIGPIPE`) — the accept thread may have ended, and closed its end,
  /// before ``wake(_:)`` writes.
  package static func wakePipe() throws -> (read: Int32, write: Int32) {
    var ends: [Int32] = [-1, -1]
    guard socketpair(AF_UNIX, streamType, 0, &ends) == 0 else {
      throw Failure(call: "socketpair", code: errno)
    }
    #if canImport(Darwin)
      var yes: Int32 = 1
      setsockopt(ends[1], SOL_SOCKET, SO_NOSIGPIPE, &yes, socklen_t(MemoryLayout<Int32>.size))
    #endif
    return (ends[0], ends[1])
  }

  /// Ends the ``accept(_:wake:)`` polling this pair's read end, and closes the write end.
  /// Never raises `SIGPIPE`, also when the read end is closed already.
  package static func wake(_ write: Int32) {
    var byte: UInt8 = 1
    _ = systemSend(write, &byte, 1, sendFlags)
    _ = systemClose(write)
  }

  /// Waits for a connection (a blocking socket, whatever the platform's inheritance rules);
  /// nil once `wake`'s pipe is written to, or when the listener fails.
  package static func accept(_ fd: Int32, wake: Int32) -> Int32? {
    while true {
      var waiting = [
        pollfd(fd: fd, events: Int16(POLLIN), revents: 0),
        pollfd(fd: wake, events: Int16(POLLIN), revents: 0),
      ]
      let ready = poll(&waiting, nfds_t(waiting.count), -1)
      if ready < 0 {
        if errno == EINTR { continue }
        return nil
      }
      if waiting[1].revents != 0 { return nil }
      guard waiting[0].revents & Int16(POLLIN) != 0 else {
        if waiting[0].revents != 0 { return nil }  // POLLERR, POLLNVAL: the listener is gone
        continue
      }
      let client = systemAccept(fd)
      if client >= 0 {
        // Darwin hands the listener's O_NONBLOCK down to the connection; Linux does not.
        _ = setBlocking(client, true)
        var yes: Int32 = 1
        setsockopt(
          client, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
        #if canImport(Darwin)
          setsockopt(client, SOL_SOCKET, SO_NOSIGPIPE, &yes, socklen_t(MemoryLayout<Int32>.size))
        #endif
        return client
      }
      switch errno {
      case EINTR, ECONNABORTED, EAGAIN, EWOULDBLOCK: continue  // gone before it was taken
      case EMFILE, ENFILE, ENOBUFS, ENOMEM:
        usleep(10_000)  // out of descriptors: back off rather than spin, keep serving
        continue
      default: return nil
      }
    }
  }

  /// Sets or clears `O_NONBLOCK`.
  private static func setBlocking(_ fd: Int32, _ blocking: Bool) -> Bool {
    let flags = fcntl(fd, F_GETFL)
    guard flags >= 0 else { return false }
    return fcntl(fd, F_SETFL, blocking ? flags & ~O_NONBLOCK : flags | O_NONBLOCK) == 0
  }

  /// Connects to 127.0.0.1:`port` (used by tests that speak raw bytes to the server).
  static func connect(port: UInt16) throws -> Int32 {
    let fd = socket(AF_INET, streamType, 0)
    guard fd >= 0 else { throw Failure(call: "socket", code: errno) }
    try withLoopback(port: port, fd: fd, call: "connect") { systemConnect(fd, $0, $1) }
    #if canImport(Darwin)
      var yes: Int32 = 1
      setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &yes, socklen_t(MemoryLayout<Int32>.size))
    #endif
    return fd
  }

  /// Sets the receive timeout, after which `receive` reports `.timedOut`.
  static func setReceiveTimeout(_ fd: Int32, milliseconds: Int) {
    var timeout = timeval(tv_sec: milliseconds / 1000, tv_usec: .init((milliseconds % 1000) * 1000))
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
  }

  enum ReceiveResult {
    case data(Int)
    case closed
    case timedOut
    case failed
  }

  /// Reads up to `buffer.count` bytes.
  static func receive(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> ReceiveResult {
    while true {
      let count = recv(fd, buffer.baseAddress, buffer.count, 0)
      if count > 0 { return .data(count) }
      if count == 0 { return .closed }
      switch errno {
      case EINTR: continue
      case EAGAIN, EWOULDBLOCK: return .timedOut
      default: return .failed
      }
    }
  }

  /// Writes all of `bytes`; false if the peer went away.
  @discardableResult
  package static func send(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
    bytes.withUnsafeBytes { buffer in
      guard let base = buffer.baseAddress else { return true }
      var offset = 0
      while offset < buffer.count {
        let written = systemSend(fd, base + offset, buffer.count - offset, sendFlags)
        if written < 0 && errno == EINTR { continue }
        if written <= 0 { return false }
        offset += written
      }
      return true
    }
  }

  /// Wakes a thread blocked in `recv` on the connection `fd` without closing it yet.
  package static func shutdown(_ fd: Int32) { _ = systemShutdown(fd, Int32(SHUT_RDWR)) }

  /// Half-closes: the peer reads end-of-stream, replies can still arrive (test clients).
  static func shutdownWrite(_ fd: Int32) { _ = systemShutdown(fd, Int32(SHUT_WR)) }

  package static func close(_ fd: Int32) { _ = systemClose(fd) }
}

// Outside `Socket`, whose own members take these names, they are the C library's.
private func systemAccept(_ fd: Int32) -> Int32 {
  accept(fd, nil, nil)
}
private func systemConnect(_ fd: Int32, _ address: UnsafePointer<sockaddr>, _ size: socklen_t)
  -> Int32
{ connect(fd, address, size) }
private func systemSend(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int, _ flags: Int32)
  -> Int
{ send(fd, bytes, count, flags) }
private func systemShutdown(_ fd: Int32, _ how: Int32) -> Int32 { shutdown(fd, how) }
private func systemClose(_ fd: Int32) -> Int32 { close(fd) }
private func systemListen(_ fd: Int32, _ backlog: Int32) -> Int32 { listen(fd, backlog) }
