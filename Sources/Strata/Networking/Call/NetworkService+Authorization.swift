import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The session's part of a call: the bearer token attached only for the origin that issued it
/// and only in its owner's session, and one refresh when the server rejects it.
extension NetworkService {
  /// Builds the request and attaches the bearer token when the endpoint needs one and its
  /// origin issued the session (a token never goes to another origin). Work done for an owner
  /// (`DataOwner.acting`) is sent only while that owner is the one signed in, and the
  /// device's never carries a token.
  func authorise<Response>(_ endpoint: Request<Response>, label: String) async throws -> Call {
    var policy = endpoint.retryPolicy ?? options.retryPolicy
    if endpoint.retryPolicy == nil, endpoint.idempotencyKey != nil {
      // A key makes a repeat harmless: the service's policy, every write method included.
      policy.retryableMethods.formUnion([.post, .put, .patch, .delete])
    }
    let (request, streamed) = try builder.build(endpoint)
    if let url = request.url { redactor.registerSecrets(in: url) }
    if let body = request.httpBody {
      redactor.registerSecrets(
        inBody: body, contentType: request.value(forHTTPHeaderField: "Content-Type"))
    }
    var call = Call(
      label: label, method: endpoint.method,
      deadline: clock.now() + (endpoint.deadline ?? options.deadline), policy: policy,
      maxResponseSize: endpoint.maxResponseSize ?? options.maxResponseSize, request: request)
    call.streamed = streamed
    call.coalesces = endpoint.coalesces
    // Work for an owner goes out only in that owner's session; the device's carries no token.
    let acting = DataOwner.acting
    let mark = acting != nil || endpoint.requiresAuth ? try await authenticator?.session() : nil
    if let acting, mark?.owner ?? .device != acting || (acting == .device && endpoint.requiresAuth)
    {
      logger.info("\(label): made for \(acting), whose session this is not; not sent")
      throw NetworkError.unauthorized(.sessionEnded)
    }
    guard endpoint.requiresAuth else { return call }
    if let authenticator, let url = call.request.url, !authenticator.origin.contains(url) {
      logger.notice(
        "\(label): \(Origin(url)?.description ?? "that URL") is not \(authenticator.origin), which issued the session; sending it without credentials"
      )
      return call
    }
    guard let mark, let token = mark.token else {
      logger.info("\(label): not signed in; request not sent")
      throw NetworkError.unauthorized(.notSignedIn)
    }
    // The token and the owner come in one piece: one session's, never one user's token with
    // another's name.
    call.carry(token)
    call.session = mark
    return call
  }

  /// Refreshes a rejected token once and replays; a refreshed token rejected too ends the session.
  func refresh(_ rejected: String, status: Int, _ call: inout Call) async throws -> Next {
    guard let authenticator else { return .fail(.unauthorized(.signInRequired)) }
    guard !call.refreshed else {
      logger.info(
        "\(call.label) → \(status): the refreshed token was rejected too; ending the session")
      await authenticator.rejected(refreshedToken: rejected)
      return .fail(.unauthorized(.rejectedAfterRefresh))
    }
    call.refreshed = true
    logger.info("\(call.label) → \(status): the access token was rejected; refreshing it")
    do {
      call.carry(try await authenticator.refresh(rejectedToken: rejected))
    } catch let error as NetworkError where RetryPolicy.isTransient(error) || error.isUnauthorized {
      // The authenticator's own verdict stands: a session that ended while this call waited
      // (signed out, or its renewed token rejected by another call) is not a refused refresh.
      return .fail(error)
    } catch is CancellationError {
      throw CancellationError()
    } catch {
      return .fail(.unauthorized(.refreshRejected))
    }
    call.retriedBecause = "token refreshed after \(status)"
    return .replay
  }
}
