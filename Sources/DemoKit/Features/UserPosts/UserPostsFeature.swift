import Strata

/// One user's posts.
enum UserPostsFeature: DemoFeature {
  static func register(in container: DependencyContainer, _ setting: FeatureSetting) {
    container.register((any UserPostsRepository).self, scope: .singleton) { c in
      APIUserPostsRepository(network: try c.resolve())
    }
    container.register(UserPostsViewModel.self) { c in UserPostsViewModel(repo: try c.resolve()) }
  }
}
