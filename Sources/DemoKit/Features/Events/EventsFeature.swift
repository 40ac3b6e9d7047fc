import Strata

/// The API's live feed (`events`).
enum EventsFeature: DemoFeature {
  static func register(in container: DependencyContainer, _ setting: FeatureSetting) {
    container.register((any EventsRepository).self, scope: .singleton) { c in
      APIEventsRepository(network: try c.resolve())
    }
  }
}
