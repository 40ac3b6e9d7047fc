import Dispatch
import Foundation
import StrataConcurrency
import Testing

@testable import StrataSandbox

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// One long-lived session for the whole test process (per-request sessions crash on Linux).
let testSession: URLSession = {
  let configuration = URLSessionConfiguration.ephemeral
  configuration.timeoutIntervalForRequest = 10
  configuration.urlCache = nil
  // Each test sends its own credentials: cookies one test's login set must not sign in another's.
  configuration.httpCookieStorage = nil
  configuration.httpShouldSetCookies = false
  return URLSession(configuration: configuration)
}()

/// A clock a test moves by hand.
final class ManualDate: Sendable {
  private let value = Lock(Date(timeIntervalSince1970: 1_800_000_000))
  var now: Date { value.withLock { $0 } }
  func advance(by seconds: TimeInterval) { value.withLock { $0 += seconds } }
}

/// A started sandbox plus helpers to talk to it.
struct Sandbox {
  let server: SandboxServer

  init(configuration: SandboxServer.Configuration = .init()) throws {
    server = SandboxServer(configuration: configuration)
    try server.start()
  }

  struct Reply {
    let status: Int
    let headers: [AnyHashable: Any]
    let data: Data
    var json: [String: Any] {
      ((try? JSONSerialization.jsonObject(with: data)) as? [String: Any]) ?? [:]
    }
    var message: String? { json["message"] as? String }
    func header(_ name: String) -> String? {
      headers.first { ($0.key as? String)?.lowercased() == name.lowercased() }?.value as? String
    }
  }

  func send(
    _ method: String, _ path: String, json: [String: Any]? = nil, headers: [String: String] = [:]
  ) async throws -> Reply {
    let url = try #require(URL(string: server.baseURL.absoluteString + path))
    var request = URLRequest(url: url)
    request.httpMethod = method
    if let json {
      request.httpBody = try JSONSerialization.data(withJSONObject: json)
      request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    }
    for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
    let (data, response) = try await testSession.data(for: request)
    let http = try #require(response as? HTTPURLResponse)
    return Reply(status: http.statusCode, headers: http.allHeaderFields, data: data)
  }

  func login(expiresInSeconds: Int? = nil) async throws -> (access: String, refresh: String) {
    var body: [String: Any] = ["username": "emilys", "password": "emilyspass"]
    if let expiresInSeconds { body["expiresInSeconds"] = expiresInSeconds }
    let reply = try await send("POST", "/auth/login", json: body)
    #expect(reply.status == 200)
    return (
      try #require(reply.json["accessToken"] as? String),
      try #require(reply.json["refreshToken"] as? String)
    )
  }

  /// Sends raw bytes on a new connection and returns everything the server answers before it
  /// closes (or `timeout` passes). The blocking socket work runs on a GCD thread: blocking the
  /// concurrency pool (2 threads here) would stall every other test's tasks.
  func raw(_ bytes: [UInt8], timeout: Int = 3000, closeWrite: Bool = false) async throws -> String {
    try await rawExchange(bytes, timeout: timeout, closeWrite: closeWrite).text
  }

  /// What a raw exchange produced, and whether the server closed the connection (rather than
  /// the client giving up after `timeout`).
  struct RawReply: Sendable {
    let text: String
    let closedByServer: Bool
    /// How the read ended (`closed`, `timed out`, `errno 104`) and after how long: what a
    /// failed expectation needs to tell a refused connection from a slow one.
    var ending = ""
  }

  func rawExchange(_ bytes: [UInt8], timeout: Int = 60_000, closeWrite: Bool = false) async throws
    -> RawReply
  {
    let port = UInt16(server.port)
    return try await withCheckedThrowingContinuation { continuation in
      DispatchQueue.global().async {
        continuation.resume(
          with: Result {
            try Self.exchangeRaw(bytes, port: port, timeout: timeout, closeWrite: closeWrite)
          })
      }
    }
  }

  private static func exchangeRaw(_ bytes: [UInt8], port: UInt16, timeout: Int, closeWrite: Bool)
    throws -> RawReply
  {
    let fd = try Socket.connect(port: port)
    defer { Socket.close(fd) }
    Socket.setReceiveTimeout(fd, milliseconds: timeout)
    if !bytes.isEmpty { Socket.send(fd, bytes) }
    if closeWrite { Socket.shutdownWrite(fd) }
    var received: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    var closedByServer = false
    var ending = ""
    let started = ContinuousClock.now
    reading: while true {
      switch chunk.withUnsafeMutableBytes({ Socket.receive(fd, into: $0) }) {
      case .data(let count): received.append(contentsOf: chunk[0..<count])
      case .closed:
        (closedByServer, ending) = (true, "closed")
        break reading
      case .failed:
        (closedByServer, ending) = (true, "errno \(errno)")
        break reading
      case .timedOut:
        ending = "timed out"
        break reading
      }
    }
    return RawReply(
      text: String(decoding: received, as: UTF8.self), closedByServer: closedByServer,
      ending: "\(ending) after \(ContinuousClock.now - started)")
  }

  func stop() async { await server.stop() }

  /// Runs `body` with a started sandbox and stops it however `body` ends.
  static func with<Result>(
    configuration: SandboxServer.Configuration = .init(),
    isolation: isolated (any Actor)? = #isolation,
    _ body: (Sandbox) async throws -> Result
  ) async throws -> Result {
    let sandbox = try Sandbox(configuration: configuration)
    do {
      let result = try await body(sandbox)
      await sandbox.stop()
      return result
    } catch {
      await sandbox.stop()
      throw error
    }
  }
}

/// Sockets this process holds whose local port is `port` (Linux: /proc/net/tcp + /proc/self/fd).
func openSockets(localPort port: Int) -> Int? {
  #if os(Linux)
    guard let table = try? String(contentsOfFile: "/proc/net/tcp", encoding: .utf8),
      let fds = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")
    else { return nil }
    var ownInodes = Set<String>()
    for fd in fds {
      if let link = try? FileManager.default.destinationOfSymbolicLink(
        atPath: "/proc/self/fd/\(fd)"),
        link.hasPrefix("socket:[")
      {
        ownInodes.insert(String(link.dropFirst(8).dropLast()))
      }
    }
    let hexPort = String(format: "%04X", port)
    return table.split(separator: "\n").dropFirst().count { line in
      let fields = line.split(separator: " ", omittingEmptySubsequences: true)
      guard fields.count > 9 else { return false }
      return fields[1].hasSuffix(":" + hexPort) && ownInodes.contains(String(fields[9]))
    }
  #else
    return nil
  #endif
}
