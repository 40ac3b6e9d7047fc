import Foundation
import Testing

@testable import StrataSandbox

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The embedded sandbox is the same server from one run to the next on a machine: what one
/// run signed in, the next one accepts at the same origin.
@Suite("The sandbox's machine identity")
struct MachineIdentityTests {
  private static func login(_ server: SandboxServer) async throws -> String {
    var request = URLRequest(url: server.baseURL.appendingPathComponent("auth/login"))
    request.httpMethod = "POST"
    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    request.httpBody = Data(#"{"username":"emilys","password":"emilyspass"}"#.utf8)
    let (data, _) = try await testSession.data(for: request)
    let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
    return try #require(object?["accessToken"] as? String)
  }

  private static func me(_ server: SandboxServer, _ token: String) async throws -> Int {
    var request = URLRequest(url: server.baseURL.appendingPathComponent("auth/me"))
    request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
    let (_, response) = try await testSession.data(for: request)
    return (response as? HTTPURLResponse)?.statusCode ?? 0
  }

  @Test func aTokenOneRunSignedIsTheNextRunsAtTheSameOrigin() async throws {
    let home = NSTemporaryDirectory() + "strata-identity-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: home) }
    let file = home + "/.local/share/demo/sandbox-identity.json"
    let (first, kept) = try SandboxServer.startWithMachineIdentity(at: file)
    #expect(kept)
    let token = try await Self.login(first)
    let mode = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions]
    #expect(mode as? Int == 0o600)

    // Another run while the first still serves: a port of its own, for that run alone.
    let (beside, besideKept) = try SandboxServer.startWithMachineIdentity(at: file)
    #expect(!besideKept && beside.port != first.port)
    #expect(try await Self.me(beside, token) == 200, "the same key checks the token")
    await beside.stop()
    await first.stop()

    let (next, nextKept) = try SandboxServer.startWithMachineIdentity(at: file)
    #expect(nextKept && next.baseURL == first.baseURL)
    #expect(try await Self.me(next, token) == 200)
    await next.stop()

    // A damaged identity is replaced: the old tokens no longer verify.
    try Data("{not json".utf8).write(to: URL(fileURLWithPath: file))
    let (fresh, freshKept) = try SandboxServer.startWithMachineIdentity(at: file)
    let status = try await Self.me(fresh, token)
    #expect(freshKept && status == 500, "a bad signature: 500, as DummyJSON answers it")
    await fresh.stop()
  }

  /// A link planted at the identity is neither read (a key of someone else's choosing) nor
  /// written through; the folders made for it are 0700.
  @Test func aLinkAtTheIdentityIsNeitherReadNorWrittenThrough() async throws {
    let home = NSTemporaryDirectory() + "strata-identity-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: home) }
    let file = home + "/share/demo/sandbox-identity.json"
    let (first, _) = try SandboxServer.startWithMachineIdentity(at: file)
    await first.stop()
    for folder in [home + "/share", home + "/share/demo"] {
      let mode = try FileManager.default.attributesOfItem(atPath: folder)[.posixPermissions]
      #expect(mode as? Int == 0o700, "\(folder)")
    }
    let planted = home + "/planted.json"
    try FileManager.default.moveItem(atPath: file, toPath: planted)
    let before = try String(contentsOfFile: planted, encoding: .utf8)
    try FileManager.default.createSymbolicLink(atPath: file, withDestinationPath: planted)
    let (second, _) = try SandboxServer.startWithMachineIdentity(at: file)
    await second.stop()
    #expect(try String(contentsOfFile: planted, encoding: .utf8) == before, "not written through")
    let attributes = try FileManager.default.attributesOfItem(atPath: file)
    #expect(attributes[.type] as? FileAttributeType == .typeRegular, "the link was replaced")
    #expect(
      try String(contentsOfFile: file, encoding: .utf8) != before, "a new key, not the link's")
  }
}
