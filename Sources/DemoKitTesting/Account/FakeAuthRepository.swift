import DemoKit
import Foundation
import Strata

/// A sign-in that accepts `emilys` / `emilyspass`; every call recorded by ``script``.
public final class FakeAuthRepository: AuthRepository {
  /// Records calls, scripts failures, holds answers.
  public let script: FakeScript
  private let signedIn: Locked<Bool>

  /// A repository, signed in or not.
  public init(signedIn: Bool = false, script: FakeScript = FakeScript()) {
    self.signedIn = Locked(signedIn)
    self.script = script
  }

  /// The preview user, for emilys / emilyspass.
  public func login(username: String, password: String) async throws -> AuthUser {
    try await script.call("login", username)
    guard username == "emilys", password == "emilyspass" else {
      throw NetworkError.server(status: 400, serverMessage: "Invalid credentials")
    }
    signedIn.withLock { $0 = true }
    return .preview
  }

  public func refresh(refreshToken: String) async throws -> Credentials {
    try await script.call("refresh")
    return Credentials(accessToken: "access", refreshToken: "refresh")
  }

  /// The preview user, when signed in.
  public func me() async throws -> User {
    try await script.call("me")
    guard signedIn.withLock({ $0 }) else { throw NetworkError(.unauthorized(.notSignedIn)) }
    return .preview
  }

  public func logout() async {
    try? await script.call("logout")
    signedIn.withLock { $0 = false }
  }

  public var isSignedIn: Bool { get async { signedIn.withLock { $0 } } }
}

// Sample data in the real service's shape, nobody's real data.

extension AuthUser {
  /// The demo account as a login returns it.
  public static let preview = AuthUser(
    id: 1, username: "emilys", email: "emily.johnson@x.dummyjson.com", firstName: "Emily",
    lastName: "Johnson")
}
