/// Runs `body` with a started sandbox and stops it however `body` ends — it returns, throws,
/// or records an issue and returns early — so no test leaves a server running.
/// ```swift
/// try await withSandbox { server in
///   let page = try await service(server).send(UserRequests.list(limit: 5, skip: 0)).value
///   #expect(page.total == 120)
/// }
/// ```
public func withSandbox<Result>(
  _ configuration: SandboxServer.Configuration = .init(),
  isolation: isolated (any Actor)? = #isolation,
  _ body: (SandboxServer) async throws -> Result
) async throws -> Result {
  let server = SandboxServer(configuration: configuration)
  try server.start()
  do {
    let result = try await body(server)
    await server.stop()
    return result
  } catch {
    await server.stop()
    throw error
  }
}
