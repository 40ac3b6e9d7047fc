import Strata

/// A post with its comments (`FEATURE_COMMENTS`: nothing is registered when it is off).
enum CommentsFeature: DemoFeature {
  static func register(in container: DependencyContainer, _ setting: FeatureSetting) {
    guard setting.features.isOn(.comments) else { return }
    container.register((any CommentsRepository).self, scope: .singleton) { c in
      APICommentsRepository(network: try c.resolve())
    }
    container.register(PostDetailViewModel.self) { c in
      PostDetailViewModel(posts: try c.resolve(), comments: try c.resolve())
    }
  }
}
