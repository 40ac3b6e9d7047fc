import Foundation
import Testing

@testable import StrataSandbox

@Suite("Sandbox routes")
struct SandboxRouteTests {
  @Test func loginMeAndRefresh() async throws {
    try await Sandbox.with { sandbox throws in
      let login = try await sandbox.send(
        "POST", "/auth/login", json: ["username": "emilys", "password": "emilyspass"])
      #expect(login.status == 200)
      #expect(login.json["username"] as? String == "emilys")
      #expect(login.json["id"] as? Int == 1)
      let access = try #require(login.json["accessToken"] as? String)
      let refresh = try #require(login.json["refreshToken"] as? String)

      let me = try await sandbox.send(
        "GET", "/auth/me", headers: ["Authorization": "Bearer \(access)"])
      #expect(me.status == 200)
      #expect(me.json["firstName"] as? String == "Emily")
      #expect(me.json["password"] as? String == "emilyspass", "the real service serves it")

      let refreshed = try await sandbox.send(
        "POST", "/auth/refresh", json: ["refreshToken": refresh])
      #expect(refreshed.status == 200)
      // Within the same second the new token may equal the old one, as on DummyJSON.
      let newAccess = try #require(refreshed.json["accessToken"] as? String)
      let meAgain = try await sandbox.send(
        "GET", "/auth/me", headers: ["Authorization": "Bearer \(newAccess)"])
      #expect(meAgain.status == 200)
    }
  }

  @Test func authErrorShapes() async throws {
    try await Sandbox.with { sandbox throws in
      let wrong = try await sandbox.send(
        "POST", "/auth/login", json: ["username": "emilys", "password": "nope"])
      #expect(wrong.status == 400 && wrong.message == "Invalid credentials")
      let missing = try await sandbox.send("POST", "/auth/login", json: ["username": "emilys"])
      #expect(missing.status == 400 && missing.message == "Username and password required")
      let noToken = try await sandbox.send("GET", "/auth/me")
      #expect(noToken.status == 401 && noToken.message == "Access Token is required")
      let badToken = try await sandbox.send(
        "GET", "/auth/me", headers: ["Authorization": "Bearer forged"])
      #expect(badToken.status == 401 && badToken.message == "Invalid/Expired Token!")
      let noRefresh = try await sandbox.send("POST", "/auth/refresh", json: [:])
      #expect(noRefresh.status == 401 && noRefresh.message == "Refresh token required")
      let badRefresh = try await sandbox.send(
        "POST", "/auth/refresh", json: ["refreshToken": "forged"])
      #expect(badRefresh.status == 403 && badRefresh.message == "Invalid refresh token")
    }
  }

  @Test func tokenExpiresByTheServersClock() async throws {
    let clock = ManualDate()
    try await Sandbox.with(configuration: .init(now: { clock.now })) { sandbox throws in
      let tokens = try await sandbox.login(expiresInSeconds: 1)
      let bearer = ["Authorization": "Bearer \(tokens.access)"]
      #expect(try await sandbox.send("GET", "/auth/me", headers: bearer).status == 200)
      clock.advance(by: 2)
      let expired = try await sandbox.send("GET", "/auth/me", headers: bearer)
      #expect(expired.status == 401)
      #expect(expired.message == "Token Expired!")
      let refreshed = try await sandbox.send(
        "POST", "/auth/refresh", json: ["refreshToken": tokens.refresh])
      #expect(refreshed.status == 200)
    }
  }

  @Test func protectedResourceRoutesNeedAToken() async throws {
    try await Sandbox.with { sandbox throws in
      #expect(try await sandbox.send("GET", "/auth/users/1").status == 401)
      let tokens = try await sandbox.login()
      let reply = try await sandbox.send(
        "GET", "/auth/users/1", headers: ["Authorization": "Bearer \(tokens.access)"])
      #expect(reply.status == 200 && reply.json["username"] as? String == "emilys")
    }
  }

  @Test func usersPagesSearchAndSelect() async throws {
    try await Sandbox.with { sandbox throws in
      let first = try await sandbox.send("GET", "/users")
      #expect(first.status == 200)
      #expect((first.json["users"] as? [Any])?.count == 30)
      #expect(
        first.json["total"] as? Int == 120 && first.json["skip"] as? Int == 0
          && first.json["limit"] as? Int == 30)

      let page = try await sandbox.send("GET", "/users?limit=5&skip=5")
      let users = try #require(page.json["users"] as? [[String: Any]])
      #expect(users.map { $0["id"] as? Int } == [6, 7, 8, 9, 10])
      #expect(page.json["skip"] as? Int == 5 && page.json["limit"] as? Int == 5)

      let tail = try await sandbox.send("GET", "/users?limit=20&skip=110")
      #expect((tail.json["users"] as? [Any])?.count == 10 && tail.json["limit"] as? Int == 10)

      let all = try await sandbox.send("GET", "/users?limit=0")
      #expect((all.json["users"] as? [Any])?.count == 120)

      let selected = try await sandbox.send("GET", "/users?limit=1&select=firstName,age")
      let only = try #require((selected.json["users"] as? [[String: Any]])?.first)
      #expect(Set(only.keys) == ["id", "firstName", "age"])

      let search = try await sandbox.send("GET", "/users/search?q=JOHN")
      let found = try #require(search.json["users"] as? [[String: Any]])
      #expect(found.contains { $0["username"] as? String == "emilys" })
      #expect(search.json["total"] as? Int == found.count)

      let user = try await sandbox.send("GET", "/users/2")
      #expect(user.status == 200 && user.json["firstName"] as? String == "Michael")
      #expect((user.json["address"] as? [String: Any])?["city"] != nil)
      #expect((user.json["company"] as? [String: Any])?["title"] != nil)

      let missing = try await sandbox.send("GET", "/users/999")
      #expect(missing.status == 404 && missing.message == "User with id '999' not found")
      let invalid = try await sandbox.send("GET", "/users/abc")
      #expect(invalid.status == 400)
    }
  }

  @Test func postsCrud() async throws {
    try await Sandbox.with { sandbox throws in
      let list = try await sandbox.send("GET", "/posts?limit=3")
      #expect((list.json["posts"] as? [Any])?.count == 3 && list.json["total"] as? Int == 150)
      let post = try await sandbox.send("GET", "/posts/4")
      #expect(post.status == 200 && post.json["id"] as? Int == 4 && post.json["title"] is String)

      let created = try await sandbox.send(
        "POST", "/posts/add", json: ["title": "Hello", "body": "B", "userId": 5])
      #expect(
        created.status == 201 && created.json["id"] as? Int == 151
          && created.json["title"] as? String == "Hello")
      let invalid = try await sandbox.send("POST", "/posts/add", json: ["body": "no user"])
      #expect(invalid.status == 400 && invalid.message == "User id is required")
      let stranger = try await sandbox.send(
        "POST", "/posts/add", json: ["title": "T", "userId": 999])
      #expect(stranger.status == 404 && stranger.message == "User with id '999' not found")

      let put = try await sandbox.send("PUT", "/posts/4", json: ["title": "Changed"])
      #expect(
        put.status == 200 && put.json["title"] as? String == "Changed"
          && put.json["id"] as? Int == 4)
      // As DummyJSON builds it: its six fields, `||` keeping what a falsy value would clear.
      let patch = try await sandbox.send(
        "PATCH", "/posts/4", json: ["views": 1, "title": "", "tags": ["swift"]])
      #expect(patch.status == 200 && patch.json["views"] == nil)
      #expect(Set(patch.json.keys) == ["id", "title", "body", "userId", "tags", "reactions"])
      #expect(patch.json["title"] as? String == post.json["title"] as? String)
      #expect(patch.json["tags"] as? [String] == ["swift"])
      let deleted = try await sandbox.send("DELETE", "/posts/4")
      #expect(
        deleted.status == 200 && deleted.json["isDeleted"] as? Bool == true
          && deleted.json["deletedOn"] is String)
      let gone = try await sandbox.send("DELETE", "/posts/999")
      #expect(gone.status == 404 && gone.message == "Post with id '999' not found")
    }
  }

  @Test func todosListAndUpdate() async throws {
    try await Sandbox.with { sandbox throws in
      let list = try await sandbox.send("GET", "/todos?limit=4&skip=2")
      let todos = try #require(list.json["todos"] as? [[String: Any]])
      #expect(todos.map { $0["id"] as? Int } == [3, 4, 5, 6])
      let original = try #require(todos.first)
      let flipped = !(try #require(original["completed"] as? Bool))
      let updated = try await sandbox.send("PUT", "/todos/3", json: ["completed": flipped])
      #expect(updated.status == 200 && updated.json["completed"] as? Bool == flipped)
      #expect(updated.json["todo"] as? String == original["todo"] as? String)
      let missing = try await sandbox.send("PUT", "/todos/500", json: ["completed": true])
      #expect(missing.status == 404 && missing.message == "Todo with id '500' not found")
    }
  }

  @Test func httpStatusRouteDelayAndUnknownRoutes() async throws {
    try await Sandbox.with { sandbox throws in
      let teapot = try await sandbox.send("GET", "/http/418/short%20and%20stout")
      #expect(
        teapot.status == 418 && teapot.message == "short and stout"
          && teapot.json["status"] as? Int == 418)
      let standard = try await sandbox.send("GET", "/http/503")
      #expect(standard.status == 503 && standard.message == "Service Unavailable")
      let unsupported = try await sandbox.send("GET", "/http/999")
      #expect(
        unsupported.status == 500 && unsupported.message == "Status code '999' is not supported")

      let start = ContinuousClock.now
      let delayed = try await sandbox.send("GET", "/users/1?delay=120")
      #expect(delayed.status == 200)
      #expect(ContinuousClock.now - start >= .milliseconds(120))

      let page = try await sandbox.send("GET", "/nope")
      #expect(page.status == 404 && page.header("Content-Type")?.hasPrefix("text/html") == true)
      let method = try await sandbox.send("DELETE", "/users")
      #expect(
        method.status == 404
          && String(decoding: method.data, as: UTF8.self).contains("Cannot DELETE /users"))
    }
  }
}
