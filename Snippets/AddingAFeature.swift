import DemoKit
import DemoKitTesting
import Observation
import Strata

// snippet.model
/// A DummyJSON quote (`GET /quotes`): the API's JSON as it is, no mapping.
struct Quote: Codable, Sendable, Equatable, Identifiable {
  let id: Int
  let quote: String
  let author: String
}

extension Quote: PageItem {
  static var collectionKey: String { "quotes" }
}
// snippet.end

// snippet.repository
/// Quotes, as view models see them.
protocol QuotesRepository: Sendable {
  func list(limit: Int, skip: Int) async throws -> Page<Quote>
}

final class APIQuotesRepository: QuotesRepository {
  private let network: any Networking

  init(network: any Networking) { self.network = network }

  func list(limit: Int, skip: Int) async throws -> Page<Quote> {
    try await network.send(
      Request(path: "quotes", query: ["limit": String(limit), "skip": String(skip)]))
  }
}
// snippet.end

// snippet.viewmodel
@MainActor @Observable
final class QuotesViewModel {
  private(set) var quotes: [Quote] = []
  private(set) var state = LoadState.idle
  @ObservationIgnored private let repo: any QuotesRepository

  nonisolated init(repo: any QuotesRepository) { self.repo = repo }

  func load() async {
    state = .loading
    do {
      quotes = try await repo.list(limit: 10, skip: 0).items
      state = .idle
    } catch {
      state = .failed(LoadState.Failure(error))
    }
  }
}
// snippet.end

// snippet.hide
let container = DependencyContainer()
// snippet.show
// snippet.registration
container.register((any QuotesRepository).self, scope: .singleton) { c in
  APIQuotesRepository(network: try c.resolve())
}
container.register(QuotesViewModel.self) { c in QuotesViewModel(repo: try c.resolve()) }
// snippet.end

// snippet.fake
typealias FakeQuotesRepository = FakeCollection<Quote>

extension FakeCollection: QuotesRepository where Item == Quote {}

extension Quote: FakeItem {
  static let previews = (1...3).map {
    Quote(id: $0, quote: "Quote \($0)", author: "Author \($0)")
  }
}
// snippet.end
