import Testing

/// Polls `condition` for up to 300 s on the caller's actor: a hang guard, never a verdict on
/// speed (a regression fails instead of hanging; a busy machine or main actor only waits longer).
func eventually(
  _ what: String, isolation: isolated (any Actor)? = #isolation, _ condition: () -> Bool
) async {
  let deadline = ContinuousClock.now + .seconds(300)
  while !condition() {
    guard ContinuousClock.now < deadline else {
      Issue.record("hang guard: still waiting after 300 s for \(what)")
      return
    }
    try? await Task.sleep(for: .milliseconds(2))
  }
}
