import Strata

/// Posts: pages from the API and, with the offline feature, posts kept on the device.
enum PostsFeature: DemoFeature {
  static func register(in container: DependencyContainer, _ setting: FeatureSetting) {
    container.register((any PostsRepository).self, scope: .singleton) { c in
      APIPostsRepository(network: try c.resolve())
    }
    container.register(PostsViewModel.self) { c in
      PostsViewModel(
        repo: try c.resolve(),
        offline: OfflineRoute(try c.resolve(OfflinePosts?.self), connectivity: try c.resolve()),
        analytics: try c.resolve())
    }
    guard setting.features.isOn(.offline) else { return }
    container.register(OfflinePosts.self, scope: .singleton) { c in
      let placement = try c.resolve(OfflinePlacement.self)
      return OfflinePosts(
        stores: placement.stores("posts"), owner: placement.owner, repository: try c.resolve(),
        connectivity: try c.resolve(Connectivity.self), maxAttempts: placement.maxAttempts,
        analytics: try c.resolve())
    }
    container.register(LocalPostsViewModel.self) { c in
      LocalPostsViewModel(posts: try c.resolve())
    }
  }
}
