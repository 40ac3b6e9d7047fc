import Strata

/// Todos: pages from the API and, with the offline feature, todos kept on the device.
enum TodosFeature: DemoFeature {
  static func register(in container: DependencyContainer, _ setting: FeatureSetting) {
    container.register((any TodosRepository).self, scope: .singleton) { c in
      APITodosRepository(network: try c.resolve())
    }
    container.register(TodosViewModel.self) { c in
      TodosViewModel(
        repo: try c.resolve(),
        offline: OfflineRoute(try c.resolve(OfflineTodos?.self), connectivity: try c.resolve()),
        analytics: try c.resolve())
    }
    guard setting.features.isOn(.offline) else { return }
    container.register(OfflineTodos.self, scope: .singleton) { c in
      let placement = try c.resolve(OfflinePlacement.self)
      return OfflineTodos(
        stores: placement.stores("todos"), owner: placement.owner, repository: try c.resolve(),
        connectivity: try c.resolve(Connectivity.self), maxAttempts: placement.maxAttempts,
        analytics: try c.resolve())
    }
  }
}
