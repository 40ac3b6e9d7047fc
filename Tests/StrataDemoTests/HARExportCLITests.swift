import Foundation
import StrataTesting
import Testing

/// `--har FILE`: the whole tour as an HTTP Archive a browser's developer tools open — every
/// attempt an entry, retries included — with no password, token or `Authorization` value.
@Suite("strata-demo --har")
struct HARExportCLITests {
  @Test func theTourAsAHARFileHoldsNoSecret() async throws {
    let cli = try CLIRunner()
    let path = cli.home + "/tour.har"
    let tour = try await cli.run(["--har", path, "tour"])
    #expect(tour.status == 0, "\(tour.stderr)")
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    #expect(HARCheck.problems(in: data).isEmpty, "\(HARCheck.problems(in: data))")
    let text = String(decoding: data, as: UTF8.self)
    // The tour signs in as emilys (password emilyspass) and its tokens are JWTs (`eyJ…`).
    for secret in ["emilyspass", "eyJ", "Bearer e"] {
      #expect(!text.contains(secret), "\(secret) reached the HAR file")
    }
    let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let entries = try #require((root["log"] as? [String: Any])?["entries"] as? [[String: Any]])
    let attempts = entries.compactMap { ($0["_strata"] as? [String: Any])?["attempt"] as? Int }
    #expect(entries.count > 30 && attempts.contains { $0 > 1 }, "retries are entries of their own")
    #expect(text.contains(#""status" : 304"#) && text.contains(#""source" : "revalidated""#))
    let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
    #expect(mode == 0o600)
  }

  @Test func anUnwritableHARPathIsExit73BeforeAnythingIsSent() async throws {
    let cli = try CLIRunner()
    let users = try await cli.run([
      "--har", cli.home + "/missing/dir/x.har", "--api", "http://127.0.0.1:9", "users",
    ])
    #expect(users.status == 73, "before anything is sent")
    #expect(users.stderr.contains("the HAR file"), "\(users.stderr)")
  }
}
