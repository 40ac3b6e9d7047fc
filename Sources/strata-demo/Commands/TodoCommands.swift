import DemoKit
import Strata

/// `todos`, `todo toggle ID`: the todos feature, through its view model.
@MainActor
enum TodoCommands {
  nonisolated static let commands = [
    Command(
      "todos", summary: "List todos.", options: CommandTable.paging,
      example: "strata-demo todos --limit 5", run: .inApp(todos)),
    Command(
      "todo toggle", summary: "Flip a todo between done and not done.", positionals: ["ID"],
      example: "strata-demo todo toggle 3", run: .inApp(toggle)),
  ]

  static func todos(_ app: AppContext, _ invocation: Invocation) async throws -> Output {
    let model = try app.resolve(TodosViewModel.self)
    await model.load(
      limit: try invocation.integer("limit", default: 10, in: 1...1000),
      skip: try invocation.integer("skip", default: 0))
    if let failure = model.failure { throw failure }
    guard let page = model.page else { throw CommandFailure("no todos") }
    return Output(
      text: .table(
        headers: ["ID", "DONE", "USER", "TODO"],
        rows: page.items.map {
          [String($0.id), $0.completed ? "yes" : "no", String($0.userId), $0.todo]
        }, footer: Output.footer(page)),
      json: page)
  }

  static func toggle(_ app: AppContext, _ invocation: Invocation) async throws -> Output {
    let id = try invocation.identifier()
    let model = try app.resolve(TodosViewModel.self)
    await model.toggle(id: id)
    if let failure = model.failure { throw failure }
    guard let todo = model.todos.first(where: { $0.id == id }) else {
      throw CommandFailure("todo \(id) was not found")
    }
    return Output(
      text: .line("todo \(id) is now \(todo.completed ? "done" : "not done"): \(todo.todo)"),
      json: todo)
  }
}
