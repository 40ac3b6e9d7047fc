import Strata

/// Users: a cached list, one user, an avatar.
enum UsersFeature: DemoFeature {
  static func register(in container: DependencyContainer, _ setting: FeatureSetting) {
    container.register((any UsersRepository).self, scope: .singleton) { c in
      let config = try c.resolve(Config.self)
      return APIUsersRepository(
        network: try c.resolve(),
        ttl: try config.duration(
          .usersCacheTTL, default: .seconds(60), in: .zero...Duration.seconds(24 * 3600)),
        signedIn: try config.bool(.usersRequireSignIn, default: false))
    }
    container.register((any AvatarRepository).self, scope: .singleton) { c in
      APIAvatarRepository(network: try c.resolve())
    }
    container.register(UsersViewModel.self) { c in UsersViewModel(repo: try c.resolve()) }
    container.register(UsersViewModel.self, argument: Int.self) { c, pageSize in
      UsersViewModel(repo: try c.resolve(), pageSize: pageSize)
    }
    container.register(UserViewModel.self) { c in UserViewModel(repo: try c.resolve()) }
  }
}
