import Strata

/// Signing in and out, and the signed-in user's profile.
enum AccountFeature: DemoFeature {
  static func register(in container: DependencyContainer, _ setting: FeatureSetting) {
    container.register((any AuthRepository).self, scope: .singleton) { c in
      APIAuthRepository(
        network: try c.resolve(), session: try c.resolve(AuthSession.self),
        tokenRefresh: try c.resolve(), analytics: try c.resolve())
    }
    container.register(LoginViewModel.self) { c in LoginViewModel(repo: try c.resolve()) }
    container.register(ProfileViewModel.self) { c in ProfileViewModel(repo: try c.resolve()) }
  }
}
