import DemoKit
import DemoKitTesting
import Observation
import Strata
import StrataTesting

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
    try await network.send(Page.request(limit, skip)).value
  }
}
// snippet.end

// snippet.viewmodel
@MainActor @Observable
final class QuotesViewModel: LoadStateOwner {
  private(set) var quotes: [Quote] = []
  var state = LoadState.idle
  @ObservationIgnored private let repo: any QuotesRepository

  nonisolated init(repo: any QuotesRepository) { self.repo = repo }

  func load() async {
    let page = await loading { try await repo.list(limit: 10, skip: 0) }
    if let page { quotes = page.items }
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

// snippet.hide
// The guide followed end to end (DocumentationTests runs this program): the live repository
// through the container, over a network that answers as DummyJSON does, then the fake.
let network = RecordingNetworking.answering([
  "GET quotes":
    #"{"quotes":[{"id":1,"quote":"Stay hungry.","author":"Steve Jobs"}],"total":1,"skip":0,"limit":10}"#
])
container.register((any Networking).self) { _ in network }
try container.validate()
let live = try container.resolve(QuotesViewModel.self)
await live.load()
let query = network.requests.first.map {
  "\($0.line)?\($0.query.map { "\($0.name)=\($0.value ?? "")" }.joined(separator: "&"))"
}
print("live: \(live.quotes.map(\.author)) via \(query ?? "no request"), state \(live.state)")
let faked = QuotesViewModel(repo: FakeQuotesRepository())
await faked.load()
print("fake: \(faked.quotes.count) quotes, state \(faked.state)")
