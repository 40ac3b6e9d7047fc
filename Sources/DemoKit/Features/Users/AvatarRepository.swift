import Foundation
import Strata

/// A user's picture (DummyJSON's `image`: `/icon/<username>/128`, a PNG it says is good for a
/// year), as bytes through the HTTP cache: a second read within that year sends nothing.
public protocol AvatarRepository: Sendable {
  /// The picture's bytes and where they came from (the network, or the HTTP cache);
  /// `progress` hears of the bytes as they arrive (nothing, from the cache).
  /// - Throws: `NetworkError` (a user without a picture: `.invalidURL`).
  func avatar(of user: User, progress: (@Sendable (TransferProgress) -> Void)?) async throws
    -> NetworkResponse<Data>
}

/// ``AvatarRepository`` over the API in use: the picture's path is asked of the API the app
/// talks to, whatever host the record names (DummyJSON's records name its public host; the
/// sandbox serves the same paths).
public struct APIAvatarRepository: AvatarRepository {
  private let network: any Networking

  public init(network: any Networking) { self.network = network }

  public func avatar(of user: User, progress: (@Sendable (TransferProgress) -> Void)?)
    async throws -> NetworkResponse<Data>
  {
    guard let image = user.image, let url = URL(string: image), !url.path.isEmpty else {
      throw NetworkError(.invalidURL(user.image ?? "(no image)"))
    }
    return try await network.send(Request<Data>(path: url.path), progress: progress)
  }
}
