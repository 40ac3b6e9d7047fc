import Foundation
import StrataSandbox
import Testing

/// `strata-demo user posts ID` through the binary.
@Suite("strata-demo user posts")
struct UserPostsCLITests {
  @Test func listsTheUsersPostsAndSaysWhenThereIsNoSuchUser() async throws {
    try await withSandbox { server in
      let cli = try CLIRunner()
      let api = ["--api", server.baseURL.absoluteString]
      let listed = try await cli.run(api + ["user", "posts", "80", "--limit", "3"])
      #expect(listed.status == 0, "\(listed.stderr)")
      #expect(listed.stdout.hasPrefix("ID  LIKES  TITLE\n"))
      #expect(server.journal.count(method: "GET", path: "/users/80/posts") == 1)
      let missing = try await cli.run(api + ["user", "posts", "9999"])
      #expect(missing.status == 1)
      #expect(missing.stderr.contains("HTTP 404: User with id '9999' not found"))
      let bad = try await cli.run(api + ["user", "posts", "x"])
      #expect(bad.status == 2 && bad.stderr.contains("usage: strata-demo user posts"))
    }
  }
}
