import Foundation
import StrataTesting
import Testing

@testable import StrataSandbox

@Suite("Sandbox robustness")
struct SandboxRobustnessTests {
  static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

  static let malformed: [(String, String)] = [
    ("no version", "GET /users\r\n\r\n"),
    ("lowercase method", "get /users HTTP/1.1\r\n\r\n"),
    ("relative target", "GET users HTTP/1.1\r\n\r\n"),
    ("header without colon", "GET / HTTP/1.1\r\nHost 127.0.0.1\r\n\r\n"),
    ("bad content length", "POST /posts/add HTTP/1.1\r\nContent-Length: ten\r\n\r\n"),
    (
      "conflicting content lengths",
      "POST /posts/add HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab"
    ),
    ("negative content length", "POST /posts/add HTTP/1.1\r\nContent-Length: -1\r\n\r\n"),
    ("signed content length", "POST /posts/add HTTP/1.1\r\nContent-Length: +2\r\n\r\nab"),
    (
      "20-digit content length",
      "POST /posts/add HTTP/1.1\r\nContent-Length: 99999999999999999999\r\n\r\n"
    ),
    ("unicode digits", "POST /posts/add HTTP/1.1\r\nContent-Length: \u{0662}\r\n\r\nab"),
    ("NUL in a header name", "GET /users/1 HTTP/1.1\r\nX-A\u{0}b: 1\r\n\r\n"),
    ("control character in a header name", "GET /users/1 HTTP/1.1\r\nX\u{1}: 1\r\n\r\n"),
    ("separator in a header name", "GET /users/1 HTTP/1.1\r\nX(y): 1\r\n\r\n"),
  ]

  static let extremeNumbers = [
    "0", "-1", "9223372036854775807", "-9223372036854775808", "9223372036854775808", "1e300",
    "99999999999999999999", "", "%D9%A1%D9%A2", "%2B2", "%205", "nan",
  ]

  @Test func extremeNumbersInFaultSpecsAreParsedOrRefusedNeverATrap() {
    for value in Self.extremeNumbers + ["1e300", "-0", "inf"] {
      for spec in [
        "GET /x delay=\(value)s", "GET /x delay=\(value)ms", "GET /x 503x\(value)",
        "GET /x \(value)", "GET /x echo=\(value)", "GET /x drop x\(value)",
      ] {
        do {
          let fault = try FaultInjector.Fault(spec: spec)
          #expect(fault.remaining > 0, "\(spec)")
        } catch {
          #expect("\(error)".count < 300, "\(spec): \(error)")
        }
      }
    }
  }

  @Test func extremeNumbersInQueriesAreAnsweredNeverATrap() async throws {
    try await Sandbox.with(configuration: .init(maxDelay: .milliseconds(5))) { sandbox throws in
      for value in Self.extremeNumbers {
        for path in [
          "/users?limit=\(value)", "/users?skip=\(value)", "/users?limit=\(value)&skip=\(value)",
          "/posts?limit=\(value)&skip=1", "/users/\(value)", "/http/\(value)",
          "/users/1?delay=\(value)",
        ] {
          let reply = try await sandbox.send("GET", path)
          // `/http/<not a supported code>` is a 500 on DummyJSON too, with its message.
          let expectedServerError =
            path.hasPrefix("/http/") && reply.status == 500 && reply.message != nil
          #expect(
            reply.status == 200 || (400..<500).contains(reply.status) || expectedServerError,
            "\(path): \(reply.status)")
        }
        let login = try await sandbox.send(
          "POST", "/auth/login",
          json: ["username": "emilys", "password": "emilyspass", "expiresInMins": value])
        // Out of 1…43,200 minutes: DummyJSON's 500 "Maximum access token expire time…".
        #expect(
          login.status == 200
            || (login.status == 500 && login.message?.hasPrefix("Maximum access token") == true),
          "expiresInMins=\(value)")
      }
      for (minutes, status) in [(1e300, 500), (43_201, 500), (-5, 500), (0, 200), (43_200, 200)]
        as [(Double, Int)]
      {
        let login = try await sandbox.send(
          "POST", "/auth/login",
          json: ["username": "emilys", "password": "emilyspass", "expiresInMins": minutes])
        #expect(login.status == status, "expiresInMins \(minutes)")
      }
      let page = try await sandbox.send("GET", "/users?limit=9223372036854775807&skip=1")
      #expect(page.status == 200 && (page.json["users"] as? [Any])?.count == 119)
      for query in ["limit=-9223372036854775808", "limit=-99999999999999999999", "skip=1e308"] {
        #expect(try await sandbox.send("GET", "/users?\(query)").status == 200, "\(query)")
      }
      #expect(try await sandbox.send("GET", "/users?limit=1e999x").status == 400)
      #expect(try await sandbox.send("GET", "/users/1").status == 200, "still serving")
    }
  }

  @Test(arguments: malformed)
  func malformedRequestsGet400(_ name: String, _ request: String) async throws {
    try await Sandbox.with { sandbox throws in
      let answer = try await sandbox.raw(Self.bytes(request))
      #expect(answer.hasPrefix("HTTP/1.1 400 "), "\(name): \(answer)")
      #expect(try await sandbox.send("GET", "/users/1").status == 200)
    }
  }

  @Test func limitsAreEnforced() async throws {
    let sandbox = try Sandbox(
      configuration: .init(
        limits: SandboxLimits(
          maxHeaderBytes: 4096, maxBodyBytes: 1000, idleTimeout: .milliseconds(300))))
    let hugeHeader = "GET / HTTP/1.1\r\nX-Big: " + String(repeating: "a", count: 8000) + "\r\n\r\n"
    #expect(
      try await sandbox.raw(Self.bytes(hugeHeader)).hasPrefix("HTTP/1.1 431 "))
    let neverEnding = "GET / HTTP/1.1\r\nX-Big: " + String(repeating: "a", count: 8000)
    #expect(
      try await sandbox.raw(Self.bytes(neverEnding)).hasPrefix("HTTP/1.1 431 "))
    let bigBody = "POST /posts/add HTTP/1.1\r\nContent-Length: 5000\r\n\r\n"
    #expect(try await sandbox.raw(Self.bytes(bigBody)).hasPrefix("HTTP/1.1 413 "))
    let chunked = "POST /posts/add HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"
    #expect(try await sandbox.raw(Self.bytes(chunked)).hasPrefix("HTTP/1.1 501 "))
    #expect(
      try await sandbox.raw(Self.bytes("GET / HTTP/2.0\r\n\r\n")).hasPrefix(
        "HTTP/1.1 505 "))
    #expect(try await sandbox.send("GET", "/users/1").status == 200)
    await sandbox.stop()
  }

  @Test func silentAndSlowClientsTimeOut() async throws {
    let sandbox = try Sandbox(
      configuration: .init(limits: SandboxLimits(idleTimeout: .milliseconds(200))))
    // The server answers and closes by itself; the client would only give up after 60 s.
    let silent = try await sandbox.rawExchange([], timeout: 60_000)
    #expect(silent.text.hasPrefix("HTTP/1.1 408 ") && silent.closedByServer)
    let slow = try await sandbox.rawExchange(
      Self.bytes("GET /users HTTP/1.1\r\nHost: x\r\n"), timeout: 60_000)
    #expect(slow.text.hasPrefix("HTTP/1.1 408 ") && slow.closedByServer)
    #expect(try await sandbox.send("GET", "/users/1").status == 200)
    await sandbox.stop()
  }

  @Test func bodyLongerThanDeclaredServesTheRequestThenRejectsTheRest() async throws {
    try await Sandbox.with { sandbox throws in
      let request =
        "POST /posts/add HTTP/1.1\r\nContent-Length: 26\r\n\r\n{\"title\":\"t\",\"userId\":1}  EXTRA GARBAGE\r\n\r\n"
      let answer = try await sandbox.raw(Self.bytes(request))
      #expect(answer.hasPrefix("HTTP/1.1 201 "))
      #expect(answer.contains("HTTP/1.1 400 "))
      #expect(try await sandbox.send("GET", "/users/1").status == 200)
    }
  }

  @Test func keepAliveServesSeveralRequestsOnOneConnection() async throws {
    try await Sandbox.with { sandbox throws in
      let two =
        "GET /users/1 HTTP/1.1\r\nHost: x\r\n\r\nGET /users/2 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
      let answer = try await sandbox.raw(Self.bytes(two))
      #expect(answer.components(separatedBy: "HTTP/1.1 200 OK").count == 3)
      #expect(answer.contains("\"username\":\"emilys\""))
    }
  }

  @Test func randomBytesNeverBreakTheServerOrLeakSockets() async throws {
    let sandbox = try Sandbox(
      configuration: .init(limits: SandboxLimits(idleTimeout: .milliseconds(100))))
    var generator = SeededRandom(seed: 0x5EED)
    var answered = 0
    for index in 0..<200 {
      var bytes = (0..<Int.random(in: 1...600, using: &generator)).map { _ in
        UInt8.random(in: 0...255, using: &generator)
      }
      if index % 4 == 0 { bytes += Self.bytes("\r\n\r\n") }  // some requests end like a real head
      // Half-close after sending: an incomplete head then ends at once instead of idling out.
      let answer = try await sandbox.raw(bytes, timeout: 2000, closeWrite: true)
      if answer.isEmpty { continue }
      answered += 1
      #expect(
        answer.hasPrefix("HTTP/1.1 4") || answer.hasPrefix("HTTP/1.1 5"),
        "request \(index): \(answer.prefix(40))")
    }
    #expect(answered > 0)
    #expect(try await sandbox.send("GET", "/users/1").status == 200)

    // Every server-side socket of those connections is closed again (allow the threads a moment).
    let port = sandbox.server.port
    var open = openSockets(localPort: port)
    let patience = ContinuousClock.now + .seconds(300)  // hang guard: a busy machine waits
    while (open ?? 0) > 1, ContinuousClock.now < patience {
      try await Task.sleep(for: .milliseconds(20))
      open = openSockets(localPort: port)
    }
    if let open { #expect(open <= 2, "listener plus at most the pooled test connection") }
    await sandbox.stop()
    if let after = openSockets(localPort: port) { #expect(after == 0) }
  }

  @Test func stopClosesEverySocketAndRefusesNewConnections() async throws {
    let sandbox = try Sandbox()
    let port = sandbox.server.port
    #expect(try await sandbox.send("GET", "/users/1").status == 200)
    await sandbox.stop()
    #expect(!sandbox.server.isRunning)
    if let open = openSockets(localPort: port) { #expect(open == 0) }
    #expect(throws: (any Error).self) { try Socket.connect(port: UInt16(port)) }
  }
}

@Suite("Sandbox under load: bounded tokens, slow clients")
struct SandboxLoadTests {
  @Test func twoThousandRotationsKeepTheSpentTableBounded() async throws {
    let clock = ManualDate()
    let issuer = TokenIssuer(now: { clock.now }, rotatesRefreshTokens: true, capacity: 100)
    // Each rotation signs and verifies JWTs (debug-build HMAC): a few hundred microseconds
    // each, so the loop runs on a thread of its own, not on the tests' cooperative pool.
    let (refused, refresh) = try await offThePool { () -> (Int?, String) in
      let payload: [String: Any] = ["id": 1, "username": "emilys"]
      var refresh = issuer.issue(payload: payload, accessLifetime: 60, refreshLifetime: 3_600)
        .refresh
      for index in 0..<2_000 {
        guard case .success = issuer.redeemRefresh(refresh) else { return (index, refresh) }
        refresh =
          issuer.issue(payload: payload, accessLifetime: 60, refreshLifetime: 3_600)
          .refresh
      }
      return (nil, refresh)
    }
    #expect(refused == nil, "rotation \(refused ?? 0) refused a fresh refresh token")
    #expect(issuer.spentCount <= 100, "at most 100 spent tokens remembered")
    #expect((try? issuer.redeemRefresh(refresh).get()) != nil, "the newest refresh token works")
    #expect((try? issuer.redeemRefresh(refresh).get()) == nil, "once")
  }

  /// 300 slow clients against a 200-connection limit (the default is 512; 600 against it were
  /// checked by hand with the server in its own process: this keeps the test process under
  /// ~1,000 descriptors, past which Foundation's `Process.run()` crashes on Linux).
  @Test func slowClientsBeyondTheLimitDoNotLockOthersOut() async throws {
    try await Sandbox.with(configuration: .init(limits: SandboxLimits(maxConnections: 200))) {
      sandbox throws in
      let port = UInt16(sandbox.server.port)
      // Clients that start a request and never finish it.
      let slow: [Int32] = try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global().async {
          continuation.resume(
            with: Result {
              try (0..<300).map { _ in
                let fd = try Socket.connect(port: port)
                Socket.send(fd, Array("GET /users/1 HTTP/1.1\r\nX-Slow: ".utf8))
                return fd
              }
            })
        }
      }
      defer { for fd in slow { Socket.close(fd) } }
      let answer = try await sandbox.raw(
        Array("GET /users/1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8), timeout: 1_000)
      #expect(answer.hasPrefix("HTTP/1.1 200 "), "a new client is served: \(answer.prefix(80))")
    }
  }

  /// Whom the accept loop closes at the limit: idle before receiving before being answered;
  /// the least recently active idle or receiving one, but among those being answered the
  /// newest — a request held for long (the oldest) is the last one cut, even when every other
  /// connection is still marked as answering on a loaded machine.
  @Test func theLongestAnsweredRequestIsTheLastOneClosed() {
    func activity(_ phase: ConnectionActivity.Phase) -> ConnectionActivity {
      let made = ConnectionActivity()
      made.touch(phase)
      // The next one is stamped later, however fine the clock.
      let stamp = made.lastActive
      while DispatchTime.now().uptimeNanoseconds <= stamp {}
      return made
    }
    let held = activity(.handling)
    let justAnswered = activity(.handling)
    let receiving = activity(.receiving)
    let oldIdle = activity(.idle)
    let newIdle = activity(.idle)
    func first(_ candidates: [ConnectionActivity]) -> ConnectionActivity? {
      candidates.min { $0.evictionRank < $1.evictionRank }
    }
    #expect(first([held, justAnswered, receiving, newIdle, oldIdle]) === oldIdle)
    #expect(first([held, justAnswered, receiving]) === receiving)
    #expect(first([held, justAnswered]) === justAnswered)
    let older = activity(.receiving)
    let newer = activity(.receiving)
    #expect(first([newer, older]) === older)
  }

  /// A flood of new connections past the limit closes idle ones: a client whose request is
  /// being answered keeps its connection and gets its answer.
  @Test func aClientWaitingOnItsAnswerOutlastsAFloodOfConnections() async throws {
    try await Sandbox.with(configuration: .init(limits: SandboxLimits(maxConnections: 10))) {
      sandbox throws in
      let release = DispatchSemaphore(value: 0)
      sandbox.server.faults.add(
        .init(
          method: "GET", path: "/users/1", count: 1,
          action: .hold { _ = release.wait(timeout: .now() + 300) }))
      async let held = sandbox.rawExchange(
        SandboxRobustnessTests.bytes(
          "GET /users/1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"),
        timeout: 120_000)
      // Hang guard only (60 s was missed at load 12): the held request is in the journal once
      // it is being answered.
      let patience = ContinuousClock.now + .seconds(180)
      while sandbox.server.journal.count(path: "/users/1") == 0, ContinuousClock.now < patience {
        try await Task.sleep(for: .milliseconds(10))
      }
      #expect(sandbox.server.journal.count(path: "/users/1") == 1)

      // Thirty keep-alive clients, each served once and then left idle, one after another.
      let port = UInt16(sandbox.server.port)
      let flood: [Int32] = try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global().async {
          continuation.resume(
            with: Result {
              try (0..<30).map { _ in
                let fd = try Socket.connect(port: port)
                Socket.setReceiveTimeout(fd, milliseconds: 30_000)
                Socket.send(
                  fd, SandboxRobustnessTests.bytes("GET /users/2 HTTP/1.1\r\nHost: x\r\n\r\n"))
                var chunk = [UInt8](repeating: 0, count: 4096)
                _ = chunk.withUnsafeMutableBytes { Socket.receive(fd, into: $0) }
                return fd
              }
            })
        }
      }
      defer { for fd in flood { Socket.close(fd) } }
      #expect(sandbox.server.journal.count(path: "/users/2") == 30, "every new client was served")
      release.signal()
      let answer = try await held
      #expect(
        answer.text.hasPrefix("HTTP/1.1 200 "),
        "got: \(answer.text.prefix(80)) (\(answer.ending)); requests seen: \(sandbox.server.journal.count)"
      )
    }
  }
}
