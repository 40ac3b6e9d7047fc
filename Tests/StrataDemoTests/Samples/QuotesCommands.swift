// "Adding a feature", step 6: the command, compiled with the CLI's own types (the test target
// sees them as the command file in `strata-demo/Commands/` would). The model and view model
// are the guide's, standing in here as they stand in its snippet.
// snippet.hide
import DemoKit
import Observation
import Strata

@testable import strata_demo

struct Quote: Codable, Sendable, Equatable, Identifiable, PageItem {
  static var collectionKey: String { "quotes" }
  let id: Int
  let quote: String
  let author: String
}

@MainActor @Observable
final class QuotesViewModel: LoadStateOwner {
  private(set) var page: Page<Quote>?
  var state = LoadState.idle
  func load(limit: Int, skip: Int) async {}
}
// snippet.show
// snippet.command
/// `quotes`: a page of quotes, through their view model.
@MainActor
enum QuotesCommands {
  nonisolated static let commands = [
    Command(
      "quotes", options: CommandTable.paging, example: "strata-demo quotes --limit 5",
      run: .inApp(list))
  ]

  static func list(_ app: AppContext, _ invocation: Invocation) async throws -> Output {
    let model = try app.resolve(QuotesViewModel.self)
    let (limit, skip) = try await app.paging(invocation)
    await model.load(limit: limit, skip: skip)
    return try Output.page(
      model.page, failure: model.state.failure?.error, headers: Headings.of("id", "author", "quote")
    ) { [String($0.id), $0.author, $0.quote] }
  }
}
// snippet.end
