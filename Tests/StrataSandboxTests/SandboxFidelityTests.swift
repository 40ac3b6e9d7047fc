import Foundation
import StrataConcurrency
import Testing

@testable import StrataSandbox

/// The sandbox answers as the real DummyJSON service does (its Express code read side by
/// side): statuses, messages, key sets, cookies, validation, routes.
@Suite("Sandbox fidelity: tokens and auth")
struct SandboxTokenFidelityTests {
  static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }
  static func bytes(hex: String) -> [UInt8] {
    stride(from: 0, to: hex.count, by: 2).map {
      let start = hex.index(hex.startIndex, offsetBy: $0)
      return UInt8(hex[start..<hex.index(start, offsetBy: 2)], radix: 16) ?? 0
    }
  }

  /// A JWT segment decoded as a JSON object.
  static func segment(_ index: Int, of token: String) -> [String: Any]? {
    let parts = token.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.indices.contains(index), let data = JSONWebToken.decodeBase64URL(parts[index])
    else { return nil }
    return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
  }

  @Test func sha256MatchesTheFIPSVectors() {
    #expect(
      Self.hex(SHA256.hash(Array("abc".utf8)))
        == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    #expect(
      Self.hex(SHA256.hash([UInt8]()))
        == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    #expect(
      Self.hex(SHA256.hash(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)))
        == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    #expect(
      Self.hex(SHA256.hash([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)))
        == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
  }

  /// RFC 4231 test cases 1, 2, 3, 4, 6 and 7 (5 truncates the output).
  @Test(arguments: [
    (
      String(repeating: "0b", count: 20), Array("Hi There".utf8),
      "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"
    ),
    (
      hex(Array("Jefe".utf8)), Array("what do ya want for nothing?".utf8),
      "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
    ),
    (
      String(repeating: "aa", count: 20), [UInt8](repeating: 0xdd, count: 50),
      "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"
    ),
    (
      "0102030405060708090a0b0c0d0e0f10111213141516171819", [UInt8](repeating: 0xcd, count: 50),
      "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"
    ),
    (
      String(repeating: "aa", count: 131),
      Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
      "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"
    ),
    (
      String(repeating: "aa", count: 131),
      Array(
        "This is a test using a larger than block-size key and a larger than block-size data. The key needs to be hashed before being used by the HMAC algorithm."
          .utf8),
      "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"
    ),
  ])
  func hmacSHA256MatchesRFC4231(_ key: String, _ message: [UInt8], _ mac: String) {
    #expect(Self.hex(SHA256.hmac(key: Self.bytes(hex: key), message: message)) == mac)
  }

  @Test func loginIssuesHS256JWTsWithTheRequestedLifetimeAndCookies() async throws {
    let sandbox = try Sandbox()
    defer { sandbox.server.stopAndWait() }
    let reply = try await sandbox.send(
      "POST", "/auth/login",
      json: ["username": "EMILYS", "password": "emilyspass", "expiresInMins": 5])
    #expect(reply.status == 200, "the username matches case-insensitively")
    #expect(
      Set(reply.json.keys) == [
        "id", "username", "email", "firstName", "lastName", "gender", "image", "accessToken",
        "refreshToken",
      ])
    let access = try #require(reply.json["accessToken"] as? String)
    let parts = access.split(separator: ".")
    #expect(parts.count == 3)
    #expect(Self.segment(0, of: access) as? [String: String] == ["alg": "HS256", "typ": "JWT"])
    let claims = try #require(Self.segment(1, of: access))
    let issuedAt = try #require(claims["iat"] as? Int)
    #expect(claims["exp"] as? Int == issuedAt + 300)
    #expect(claims["username"] as? String == "emilys" && claims["id"] as? Int == 1)
    let refresh = try #require(reply.json["refreshToken"] as? String)
    let refreshClaims = try #require(Self.segment(1, of: refresh))
    #expect(refreshClaims["exp"] as? Int == issuedAt + 43_200 * 60, "refresh tokens: 30 days")

    let cookies = try #require(reply.header("Set-Cookie"))
    #expect(cookies.contains("accessToken=\(access)"))
    #expect(cookies.contains("refreshToken=\(refresh)"))
    #expect(cookies.contains("Max-Age=300") && cookies.contains("HttpOnly"))
    #expect(cookies.contains("Secure") && cookies.contains("Path=/"))
  }

  @Test func loginValidatesLikeTheRealService() async throws {
    let sandbox = try Sandbox()
    defer { sandbox.server.stopAndWait() }
    let cases: [([String: Any], Int, String)] = [
      (["username": 42, "password": "emilyspass"], 400, "Username is not valid"),
      (["username": "", "password": "emilyspass"], 400, "Username and password required"),
      (["username": "emilys"], 400, "Username and password required"),
      (["username": "emilys", "password": "nope"], 400, "Invalid credentials"),
      (
        ["username": "emilys", "password": "emilyspass", "expiresInMins": 43_201], 500,
        "Maximum access token expire time can be 43200 minutes"
      ),
      (
        ["username": "emilys", "password": "emilyspass", "expiresInMins": "soon"], 500,
        "Maximum access token expire time can be 43200 minutes"
      ),
    ]
    try await sandbox.expectAnswers(cases, from: "/auth/login")
  }

  @Test func meReadsTheTokenFromTheHeaderWithOrWithoutBearerOrFromTheCookie() async throws {
    let sandbox = try Sandbox()
    defer { sandbox.server.stopAndWait() }
    let tokens = try await sandbox.login()
    for headers in [
      ["Authorization": "Bearer \(tokens.access)"], ["Authorization": tokens.access],
      ["Cookie": "theme=dark; accessToken=\(tokens.access)"],
    ] {
      let me = try await sandbox.send("GET", "/auth/me", headers: headers)
      #expect(me.status == 200 && me.json["username"] as? String == "emilys", "\(headers.keys)")
    }
    let keys = try await sandbox.send(
      "GET", "/auth/me", headers: ["Authorization": "Bearer \(tokens.access)"]
    ).json.keys
    #expect(keys.count == 28, "the whole record, as /users/1 serves it")
  }

  @Test func tokenFailuresAnswerAsDummyJSONDoesAndClearTheCookies() async throws {
    let clock = ManualDate()
    let sandbox = try Sandbox(configuration: .init(now: { clock.now }))
    defer { sandbox.server.stopAndWait() }
    let tokens = try await sandbox.login()
    let parts = tokens.access.split(separator: ".").map(String.init)
    let signature = parts[2]
    let badSignature =
      "\(parts[0]).\(parts[1]).\(signature.dropLast())\(signature.hasSuffix("A") ? "B" : "A")"
    let unknownUser = sandbox.server.api.tokens.sign([
      "id": 999, "username": "nobody", "iat": 1_800_000_000, "exp": 1_900_000_000,
    ])
    let cases: [(String, Int, String)] = [
      ("abc", 401, "Invalid/Expired Token!"),
      ("a.b", 401, "Invalid/Expired Token!"),
      (badSignature, 500, "invalid signature"),
      ("\(parts[0]).%%%.\(signature)", 500, "invalid token"),
      ("\(parts[0]).\(parts[1]).", 500, "jwt signature is required"),
      (unknownUser, 400, "Invalid access token"),
    ]
    for (token, status, message) in cases {
      let reply = try await sandbox.send(
        "GET", "/auth/me", headers: ["Authorization": "Bearer \(token)"])
      #expect(reply.status == status && reply.message == message, "\(message)")
      #expect(reply.header("Set-Cookie")?.contains("accessToken=;") == true, "\(message)")
    }
    let none = try await sandbox.send("GET", "/auth/me")
    #expect(none.status == 401 && none.message == "Access Token is required")
    clock.advance(by: 3_601)
    let expired = try await sandbox.send(
      "GET", "/auth/me", headers: ["Authorization": "Bearer \(tokens.access)"])
    #expect(expired.status == 401 && expired.message == "Token Expired!")
  }

  @Test func refreshAnswersAsDummyJSONDoes() async throws {
    let sandbox = try Sandbox()
    defer { sandbox.server.stopAndWait() }
    let tokens = try await sandbox.login()
    let fromCookie = try await sandbox.send(
      "POST", "/auth/refresh", json: ["expiresInMins": 2],
      headers: ["Cookie": "refreshToken=\(tokens.refresh)"])
    #expect(fromCookie.status == 200)
    #expect(Set(fromCookie.json.keys) == ["accessToken", "refreshToken"])
    #expect(fromCookie.header("Set-Cookie")?.contains("Max-Age=120") == true)

    let unknownUser = sandbox.server.api.tokens.sign([
      "id": 999, "username": "nobody", "iat": 1, "exp": 4_000_000_000,
    ])
    let cases: [([String: Any], Int, String)] = [
      ([:], 401, "Refresh token required"),
      (["refreshToken": "forged"], 403, "Invalid refresh token"),
      (["refreshToken": tokens.access + "x"], 403, "Invalid refresh token"),
      (["refreshToken": unknownUser], 403, "Refresh token expired"),
      (
        ["refreshToken": tokens.refresh, "expiresInMins": 0], 500,
        "Maximum access token expire time can be 43200 minutes"
      ),
    ]
    try await sandbox.expectAnswers(cases, from: "/auth/refresh")
  }

  @Test func logoutNeedsATokenAndClearsTheCookies() async throws {
    let sandbox = try Sandbox()
    defer { sandbox.server.stopAndWait() }
    let anonymous = try await sandbox.send("POST", "/auth/logout")
    #expect(anonymous.status == 401 && anonymous.message == "Access Token is required")
    let tokens = try await sandbox.login()
    let reply = try await sandbox.send(
      "POST", "/auth/logout", headers: ["Authorization": "Bearer \(tokens.access)"])
    #expect(reply.status == 200 && reply.message == "Logged out successfully")
    let cookies = try #require(reply.header("Set-Cookie"))
    #expect(cookies.contains("accessToken=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT"))
    #expect(cookies.contains("refreshToken=;") && cookies.contains("HttpOnly"))
  }
}

@Suite("Sandbox fidelity: resources and queries")
struct SandboxResourceFidelityTests {
  @Test func queriesAreValidatedWithTheRealMessages() async throws {
    let sandbox = try Sandbox()
    defer { sandbox.server.stopAndWait() }
    let cases: [(String, String)] = [
      ("/users?limit=abc", "Invalid 'limit' - must be a number"),
      ("/users?limit=2abc", "Invalid 'limit' - must be a number"),
      ("/users?limit=-0x1", "Invalid 'limit' - must be a number"),
      ("/users?skip=1_0", "Invalid 'skip' - must be a number"),
      ("/users?delay=1e4", "Delay cannot be greater than 5 seconds"),
      ("/posts?skip=x", "Invalid 'skip' - must be a number"),
      ("/users?sortBy=age&order=up", "Order can be: 'asc' or 'desc'"),
      ("/users?delay=6000", "Delay cannot be greater than 5 seconds"),
      ("/users?delay=-1", "Delay cannot be less than 0"),
      ("/users?delay=soon", "Delay must be a number in milliseconds"),
    ]
    for (path, message) in cases {
      let reply = try await sandbox.send("GET", path)
      #expect(reply.status == 400 && reply.message == message, "\(path)")
    }
    #expect(try await sandbox.send("GET", "/users?order=up").status == 200, "order needs sortBy")
  }

  /// What DummyJSON's own code answered for each query (run on loopback against its 208
  /// users), restated for the sandbox's 120: the check is JavaScript's `Number`, the value
  /// `parseInt`, and the page `Array.slice`.
  @Test func pagingNumbersAreReadAsJavaScriptReadsThem() async throws {
    let sandbox = try Sandbox()
    defer { sandbox.server.stopAndWait() }
    let cases: [(query: String, count: Int, first: Int?, skip: Int?)] = [
      ("limit=-1", 119, 1, 0), ("limit=-118", 2, 1, 0), ("limit=-300", 0, nil, 0),
      ("limit=1.5", 1, 1, 0), ("limit=", 0, nil, 0), ("limit=%202%20", 2, 1, 0),
      ("limit=1e1", 1, 1, 0), ("limit=0x10", 120, 1, 0), ("limit=Infinity", 0, nil, 0),
      ("limit=99999999999999999999", 120, 1, 0), ("limit=+3", 3, 1, 0), ("limit=-0", 120, 1, 0),
      ("limit=.5", 0, nil, 0), ("limit=5.", 5, 1, 0), ("limit=0b11", 120, 1, 0),
      ("limit=%09", 0, nil, 0), ("skip=-1&limit=2", 2, 1, -1), ("skip=1.9&limit=2", 2, 2, 1),
      ("skip=&limit=2", 2, 1, nil), ("skip=1e2&limit=2", 2, 2, 1),
      ("skip=Infinity&limit=2", 2, 1, nil), ("skip=0x10&limit=2", 2, 1, 0),
      ("skip=117&limit=0", 3, 118, 117),
    ]
    for (query, count, first, skip) in cases {
      let reply = try await sandbox.send("GET", "/users?select=id&\(query)")
      let users = try #require(reply.json["users"] as? [[String: Any]], "\(query)")
      #expect(reply.status == 200 && users.count == count, "\(query)")
      #expect(users.first?["id"] as? Int == first, "\(query)")
      #expect(
        reply.json["skip"] as? Int == skip && reply.json["limit"] as? Int == count, "\(query)")
      #expect(reply.json["skip"] != nil, "\(query): NaN is written as null")
    }
    #expect(try await sandbox.send("GET", "/users?delay=-0&limit=1").status == 200)
  }

  /// What DummyJSON's own code answered to the same bodies (nothing is stored).
  @Test func updatesAreBuiltAsTheServiceBuildsThem() async throws {
    let sandbox = try Sandbox()
    defer { sandbox.server.stopAndWait() }
    let todo = try await sandbox.send("GET", "/todos/1").json
    let todoPut = try await sandbox.send(
      "PUT", "/todos/1", json: ["completed": NSNull(), "todo": "", "extra": 1])
    #expect(Set(todoPut.json.keys) == ["id", "todo", "completed", "userId"])
    #expect(todoPut.json["completed"] is NSNull, "present, so taken, even null")
    #expect(todoPut.json["todo"] as? String == todo["todo"] as? String, "'' || stored")

    let user = try await sandbox.send("GET", "/users/1").json
    let userPut = try await sandbox.send(
      "PUT", "/users/1",
      json: [
        "firstName": "A", "age": 0, "lastName": NSNull(), "extra": 1,
        "hair": ["color": ""], "address": ["city": "C", "coordinates": ["lat": 0]],
      ])
    #expect(Set(userPut.json.keys) == Set(user.keys), "the stored fields, no others")
    #expect(userPut.json["firstName"] as? String == "A" && userPut.json["age"] as? Int == 0)
    #expect(userPut.json["lastName"] is NSNull, "a top-level field is taken when present")
    let hair = try #require(userPut.json["hair"] as? [String: Any])
    let storedHair = try #require(user["hair"] as? [String: Any])
    #expect(hair["color"] as? String == storedHair["color"] as? String, "nested: '' || stored")
    let address = try #require(userPut.json["address"] as? [String: Any])
    let storedAddress = try #require(user["address"] as? [String: Any])
    #expect(address["city"] as? String == "C")
    #expect(
      (address["coordinates"] as? [String: Any])?["lat"] as? Double
        == (storedAddress["coordinates"] as? [String: Any])?["lat"] as? Double)

    let added = try await sandbox.send(
      "POST", "/users/add", json: ["firstName": "A", "hair": ["color": "x"], "extra": 1])
    #expect(added.status == 201 && Set(added.json.keys) == Set(user.keys), "the template")
    #expect(added.json["lastName"] as? String == "" && added.json["age"] is NSNull)
    #expect(added.json["role"] as? String == "user" && added.json["id"] as? Int == 121)
    #expect((added.json["hair"] as? [String: Any])?["type"] as? String == "")
    #expect((added.json["hair"] as? [String: Any])?["color"] as? String == "x")

    let comment = try await sandbox.send("GET", "/comments/1").json
    let commentPut = try await sandbox.send(
      "PUT", "/comments/1", json: ["body": "", "postId": "2", "userId": 3, "extra": 1])
    #expect(Set(commentPut.json.keys) == Set(comment.keys))
    #expect(commentPut.json["body"] as? String == comment["body"] as? String)
    #expect(commentPut.json["postId"] as? String == "2", "as sent, a string")
    #expect((commentPut.json["user"] as? [String: Any])?["id"] as? Int == 3)
    let badPost = try await sandbox.send("PUT", "/comments/1", json: ["postId": "abc"])
    #expect(badPost.status == 400 && badPost.message == "Invalid post id 'abc'")
    let noPost = try await sandbox.send("PUT", "/comments/1", json: ["postId": 99_999])
    #expect(noPost.status == 404 && noPost.message == "Post with id '99999' not found")
    for path in ["/users/0x1", "/users/1.0", "/users/01", "/posts/+1", "/todos/1e0"] {
      #expect(try await sandbox.send("GET", path).status == 404, "\(path) is no record's id")
    }
  }

  @Test func randomTodosAreOneOrSeveralDifferentOnes() async throws {
    let sandbox = try Sandbox()
    defer { sandbox.server.stopAndWait() }
    let one = try await sandbox.send("GET", "/todos/random")
    #expect(one.status == 200 && one.json["todo"] is String && one.json["id"] is Int)
    for (length, count) in [("3", 3), ("2.5", 3), ("10", 10), ("11", 0), ("0", 0), ("x", 0)] {
      let reply = try await sandbox.send("GET", "/todos/random/\(length)")
      let todos = try #require(
        (try? JSONSerialization.jsonObject(with: reply.data)) as? [[String: Any]], "\(length)")
      #expect(reply.status == 200 && todos.count == count, "\(length)")
      #expect(Set(todos.compactMap { $0["id"] as? Int }).count == count, "\(length): all differ")
    }
  }

  @Test func sortSelectAndLimitZero() async throws {
    let sandbox = try Sandbox()
    defer { sandbox.server.stopAndWait() }
    let descending = try await sandbox.send("GET", "/users?sortBy=age&order=DESC&limit=0")
    let ages = try #require(descending.json["users"] as? [[String: Any]]).compactMap {
      $0["age"] as? Int
    }
    #expect(ages.count == 120 && ages == ages.sorted(by: >))
    let names = try await sandbox.send("GET", "/users?sortBy=firstName&limit=5&select=firstName")
    let firstNames = try #require(names.json["users"] as? [[String: Any]]).compactMap {
      $0["firstName"] as? String
    }
    #expect(firstNames == firstNames.sorted() && firstNames.count == 5, "asc by default")
    let one = try await sandbox.send("GET", "/users/1?select=firstName,age")
    #expect(Set(one.json.keys) == ["id", "firstName", "age"], "select on a single resource")
    let post = try await sandbox.send("GET", "/posts/2?select=title")
    #expect(Set(post.json.keys) == ["id", "title"])
  }

  @Test func seededRecordsHaveTheRealShapes() async throws {
    let sandbox = try Sandbox()
    defer { sandbox.server.stopAndWait() }
    let user = try await sandbox.send("GET", "/users/1")
    #expect(
      Set(user.json.keys) == [
        "id", "firstName", "lastName", "maidenName", "age", "gender", "email", "phone",
        "username", "password", "birthDate", "image", "bloodGroup", "height", "weight", "eyeColor",
        "hair", "ip", "address", "macAddress", "university", "bank", "company", "ein", "ssn",
        "userAgent", "crypto", "role",
      ])
    #expect(
      Set((user.json["bank"] as? [String: Any])?.keys ?? [:].keys) == [
        "cardExpire", "cardNumber", "cardType", "currency", "iban",
      ])
    #expect(
      Set((user.json["crypto"] as? [String: Any])?.keys ?? [:].keys) == [
        "coin", "wallet", "network",
      ])
    let address = try #require(user.json["address"] as? [String: Any])
    #expect(address["stateCode"] is String && address["country"] is String)
    #expect((address["coordinates"] as? [String: Any])?["lat"] is Double)
    #expect(((user.json["company"] as? [String: Any])?["address"] as? [String: Any]) != nil)
    #expect(user.json["height"] is Double && user.json["birthDate"] is String)
    let comment = try await sandbox.send("GET", "/comments/1")
    #expect(Set(comment.json.keys) == ["id", "body", "postId", "likes", "user"])
    #expect(
      Set((comment.json["user"] as? [String: Any])?.keys ?? [:].keys) == [
        "id", "username", "fullName",
      ])
  }

  @Test func theExtraRoutes() async throws {
    let sandbox = try Sandbox()
    defer { sandbox.server.stopAndWait() }
    let brown = try await sandbox.send("GET", "/users/filter?key=hair.color&value=Brown&limit=0")
    let filtered = try #require(brown.json["users"] as? [[String: Any]])
    #expect(!filtered.isEmpty && filtered.count < 120)
    #expect(filtered.allSatisfy { ($0["hair"] as? [String: Any])?["color"] as? String == "Brown" })
    #expect(brown.json["total"] as? Int == filtered.count)

    for (path, key) in [("/users/5/posts", "posts"), ("/users/5/todos", "todos")] {
      let reply = try await sandbox.send("GET", path + "?limit=0")
      let items = try #require(reply.json[key] as? [[String: Any]], "\(path)")
      #expect(items.allSatisfy { $0["userId"] as? Int == 5 }, "\(path)")
    }
    #expect(try await sandbox.send("GET", "/users/999/posts").status == 404)

    let comments = try await sandbox.send("GET", "/comments?limit=10&skip=5")
    #expect(comments.json["total"] as? Int == 300 && comments.json["skip"] as? Int == 5)
    #expect((comments.json["comments"] as? [Any])?.count == 10)
    for path in ["/posts/7/comments", "/comments/post/7"] {
      let reply = try await sandbox.send("GET", path)
      let items = try #require(reply.json["comments"] as? [[String: Any]])
      #expect(items.allSatisfy { $0["postId"] as? Int == 7 }, "\(path)")
    }
    let noPost = try await sandbox.send("GET", "/posts/999/comments")
    #expect(noPost.status == 404 && noPost.message == "Post with id '999' not found")
    let missingComment = try await sandbox.send("GET", "/comments/9999")
    #expect(
      missingComment.status == 404 && missingComment.message == "Comment with id '9999' not found")
    let added = try await sandbox.send(
      "POST", "/comments/add", json: ["body": "Nice", "postId": 3, "userId": 2])
    #expect(added.status == 201 && added.json["id"] as? Int == 301)
    #expect((added.json["user"] as? [String: Any])?["id"] as? Int == 2)
    let empty = try await sandbox.send("POST", "/comments/add", json: ["postId": 3, "userId": 2])
    #expect(empty.status == 400 && empty.message == "Invalid comment body")
  }

  @Test func trailingSlashRedirectsAndUnknownPathsGetTheHTMLPage() async throws {
    let sandbox = try Sandbox()
    defer { sandbox.server.stopAndWait() }
    let raw = try await sandbox.raw(
      Array("GET /users/?limit=2 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8))
    #expect(raw.hasPrefix("HTTP/1.1 301"))
    #expect(raw.contains("Location: /users?limit=2"))
    let followed = try await sandbox.send("GET", "/users/?limit=2")
    #expect(followed.status == 200 && (followed.json["users"] as? [Any])?.count == 2)
    let page = try await sandbox.send("GET", "/nothing/here")
    #expect(page.status == 404 && page.header("Content-Type")?.hasPrefix("text/html") == true)
    #expect(String(decoding: page.data, as: UTF8.self).contains("<!DOCTYPE html>"))
  }

  @Test func httpStatusRouteAnswersProblemJSON() async throws {
    let sandbox = try Sandbox()
    defer { sandbox.server.stopAndWait() }
    let problem = try await sandbox.send("GET", "/http/404/Gone%20fishing")
    #expect(problem.status == 404)
    #expect(problem.header("Content-Type")?.hasPrefix("application/problem+json") == true)
    #expect(Set(problem.json.keys) == ["type", "title", "status", "detail", "message"])
    #expect(
      problem.json["title"] as? String == "Gone fishing"
        && problem.json["type"] as? String == "about:blank")
    let ok = try await sandbox.send("GET", "/http/200")
    #expect(ok.header("Content-Type")?.hasPrefix("application/json") == true)
    #expect(Set(ok.json.keys) == ["status", "message"])
    let invalid = try await sandbox.send("GET", "/http/abc")
    #expect(invalid.status == 500 && invalid.message == "Status code 'abc' is invalid")
  }

  @Test func etagsAnswer304AndLargeBodiesAreGzipped() async throws {
    let sandbox = try Sandbox()
    defer { sandbox.server.stopAndWait() }
    let first = try await sandbox.send("GET", "/users/3")
    let tag = try #require(first.header("ETag"))
    #expect(tag.hasPrefix("W/\""))
    let again = try await sandbox.send("GET", "/users/3", headers: ["If-None-Match": tag])
    #expect(again.status == 304 && again.data.isEmpty)
    let other = try await sandbox.send("GET", "/users/4", headers: ["If-None-Match": tag])
    #expect(other.status == 200)

    // Raw: the bytes on the wire are gzip (magic 1f 8b) and shorter than the JSON.
    let request =
      "GET /users?limit=0 HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\nConnection: close\r\n\r\n"
    let reply = try await sandbox.rawExchange(Array(request.utf8))
    #expect(reply.text.contains("Content-Encoding: gzip"))
    // Through URLSession (libcurl inflates): the same JSON as unencoded.
    let plain = try await sandbox.send(
      "GET", "/users?limit=0", headers: ["Accept-Encoding": "identity"])
    let inflated = try await sandbox.send("GET", "/users?limit=0")
    let asked = sandbox.server.journal.entries.last?.header("Accept-Encoding") ?? ""
    #expect(asked.contains("gzip"), "URLSession asked for gzip: \(asked)")
    #expect(plain.header("Content-Encoding") == nil)
    #expect(inflated.data == plain.data && plain.data.count > 100_000)
  }

  /// As DummyJSON's `cors` and compression middleware answer (checked against its code).
  @Test func crossOriginHeadersAndPreflights() async throws {
    let sandbox = try Sandbox()
    defer { sandbox.server.stopAndWait() }
    let plain = try await sandbox.send("GET", "/users/1")
    #expect(plain.header("Vary") == "Origin, Accept-Encoding")
    #expect(plain.header("Access-Control-Allow-Credentials") == "true")
    #expect(plain.header("Access-Control-Allow-Origin") == nil)
    let fromPage = try await sandbox.send("GET", "/users/1", headers: ["Origin": "http://a.test"])
    #expect(fromPage.header("Access-Control-Allow-Origin") == "http://a.test")
    let preflight = try await sandbox.send(
      "OPTIONS", "/anything/at/all",
      headers: [
        "Origin": "http://a.test", "Access-Control-Request-Method": "PUT",
        "Access-Control-Request-Headers": "authorization,content-type",
      ])
    #expect(preflight.status == 204 && preflight.data.isEmpty)
    #expect(preflight.header("Access-Control-Allow-Methods") == "GET,HEAD,PUT,PATCH,POST,DELETE")
    #expect(preflight.header("Access-Control-Allow-Headers") == "authorization,content-type")
    #expect(preflight.header("Vary") == "Origin, Access-Control-Request-Headers")

    // A 304 varies by Origin only and states no length (it would be the stored body's).
    let tag = try #require(plain.header("ETag"))
    let request =
      "GET /users/1 HTTP/1.1\r\nHost: x\r\nIf-None-Match: \(tag)\r\nConnection: close\r\n\r\n"
    let reply = try await sandbox.rawExchange(Array(request.utf8)).text
    #expect(reply.hasPrefix("HTTP/1.1 304 ") && reply.contains("\r\nVary: Origin\r\n"))
    #expect(!reply.lowercased().contains("content-length"), "\(reply)")
  }

  @Test func gzipStreamsAreValid() {
    // CRC-32 check value and a deflate stream whose stored length and checksum match.
    #expect(Gzip.crc32(Array("123456789".utf8)) == 0xcbf4_3926)
    let input = Data(String(repeating: "{\"id\":1,\"name\":\"abc\"},", count: 500).utf8)
    let gzip = [UInt8](Gzip.compress(input))
    #expect(gzip.prefix(3) == [0x1f, 0x8b, 8])
    #expect(gzip.count < input.count / 10, "repetitive JSON compresses")
    let trailer = Array(gzip.suffix(8))
    let crc = trailer[0..<4].enumerated().reduce(UInt32(0)) {
      $0 | UInt32($1.element) << UInt32($1.offset * 8)
    }
    #expect(crc == Gzip.crc32([UInt8](input)))
  }
}

extension Sandbox {
  /// POSTs each body to `path` and expects its status and DummyJSON message.
  func expectAnswers(
    _ cases: [([String: Any], Int, String)], from path: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    for (body, status, message) in cases {
      let reply = try await send("POST", path, json: body)
      #expect(
        reply.status == status && reply.message == message, "\(message)",
        sourceLocation: sourceLocation)
    }
  }
}
