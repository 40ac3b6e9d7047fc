import Foundation
import StrataConcurrency
import StrataTesting
import Testing

@testable import Strata

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// No credential reaches a cache file: members named as credentials are removed from what is
/// kept (the caller still gets the answer whole), headers named as credentials are not kept,
/// and an answer holding a secret the process knows stays in memory only.
@Suite("The HTTP cache keeps no credential at rest")
struct CredentialsAtRestTests {
  /// DummyJSON's `/users/1` shape: a password at the top, and deeper ones.
  static let user = #"""
    {"id":1,"username":"emilys","password":"emilyspass","bank":{"cardNumber":"1","apiKey":"k-123456"},
    "friends":[{"id":2,"Refresh-Token":"rt-abcdef","name":"Michael"}],"note":"password: is a word"}
    """#

  /// Everything under the cache's directory, as text.
  static func everything(in directory: String) -> String {
    let files = FileManager.default.enumerator(atPath: directory)?.allObjects as? [String] ?? []
    return files.compactMap { try? String(contentsOfFile: directory + "/" + $0, encoding: .utf8) }
      .joined(separator: "\n")
  }

  static func service(
    _ folder: TemporaryDirectory, headers: [String: String] = [:], body: String = user
  ) throws -> (NetworkService, HTTPCache) {
    let cache = HTTPCache(
      app: "at-rest", origin: try #require(Origin(URL(string: "https://api.example")!)),
      environment: ["XDG_CACHE_HOME": folder.path])
    var options = NetworkOptions(baseURL: URL(string: "https://api.example")!)
    options.cache = cache
    let transport = MockTransport { request, _ in
      try MockTransport.response(
        request, status: 200, body: body,
        headers: ["Content-Type": "application/json", "Cache-Control": "max-age=600"]
          .merging(headers) { $1 })
    }
    return (NetworkService(options: options, transport: transport), cache)
  }

  struct User: Decodable, Equatable {
    let id: Int
    let username: String
    let password: String?
  }

  @Test func credentialMembersAreRemovedFromWhatIsKept() async throws {
    let folder = try TemporaryDirectory()
    let (network, cache) = try Self.service(folder)
    let first = try await network.send(Request<User>(path: "users/1"))
    #expect(first.value.password == "emilyspass", "the caller gets the answer whole")
    let kept = Self.everything(in: try #require(cache.directory))
    #expect(kept.contains("emilys") && kept.contains("Michael"), "the answer is kept")
    for secret in ["emilyspass", "k-123456", "rt-abcdef"] {
      #expect(!kept.contains(secret), "\(secret) reached a cache file")
    }
    #expect(kept.contains("password: is a word"), "a value mentioning the word stays")
    let again = try await network.send(Request<User>(path: "users/1"))
    #expect(again.source != .network && again.value.password == nil)
  }

  /// A header named as a credential is not kept; a header echoing a token the process holds
  /// keeps the whole answer out of every file.
  @Test func credentialHeadersAreNotKept() async throws {
    let folder = try TemporaryDirectory()
    let (network, cache) = try Self.service(
      folder,
      headers: ["X-Auth-Token": "hdr-secret-77", "Access-Control-Allow-Credentials": "true"],
      body: #"{"id":1,"username":"emilys"}"#)
    _ = try await network.send(Request<Data>(path: "users/1"))
    let kept = Self.everything(in: try #require(cache.directory))
    #expect(kept.contains("emilys") && !kept.contains("hdr-secret-77"))
    #expect(kept.contains("access-control-allow-credentials"))

    let echoed = try TemporaryDirectory()
    KnownSecrets.register("echoed-token-\(UUID().uuidString)")
    let token = "echoed-token-" + UUID().uuidString
    KnownSecrets.register(token)
    let (echoing, echoCache) = try Self.service(
      echoed, headers: ["X-Request-Echo": "Bearer " + token], body: #"{"id":2}"#)
    _ = try await echoing.send(Request<Data>(path: "users/2"))
    let files = Self.everything(in: try #require(echoCache.directory))
    #expect(!files.contains(token), "a known token in a header never reaches a file")
    #expect(try await echoing.send(Request<Data>(path: "users/2")).source != .network, "memory")
  }

  @Test(arguments: [
    ("password", true), ("PassWord", true), ("client_secret", true), ("accessToken", true),
    ("refresh-token", true), ("API_KEY", true), ("x.api.key", true), ("username", false),
    ("keyboard", false), ("passage", false),
  ])
  func credentialNamesAreFoundInAnyCaseAndSeparator(name: String, credential: Bool) {
    #expect(CredentialMembers.occur(in: Data(#"{"\#(name)" : 1}"#.utf8)) == credential)
    #expect(!CredentialMembers.occur(in: Data(#"["\#(name)", 1]"#.utf8)), "a value, not a name")
  }

  /// A validator of exactly the limit (8 KiB) is kept and sent back; one byte more is not.
  @Test(arguments: [(8 << 10, true), ((8 << 10) + 1, false)])
  func aValidatorAtTheLimitIsKept(size: Int, kept: Bool) async throws {
    let tag = "\"" + String(repeating: "v", count: size - 2) + "\""
    let transport = MockTransport { request, index in
      try MockTransport.response(
        request, status: 200, body: #"{"id":1}"#,
        headers: ["Cache-Control": "no-cache", "ETag": tag, "Content-Type": "application/json"])
    }
    var options = NetworkOptions(baseURL: URL(string: "https://api.example")!)
    options.cache = HTTPCache()
    let network = NetworkService(options: options, transport: transport)
    _ = try await network.send(Request<Data>(path: "a"))
    _ = try await network.send(Request<Data>(path: "a"))
    let sent = transport.requests[1].value(forHTTPHeaderField: "If-None-Match")
    #expect((sent == tag) == kept)
  }
}
