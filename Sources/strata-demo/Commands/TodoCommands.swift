import DemoKit
import Strata

/// `todos`, `todo toggle ID`: the todos feature, through its view model.
@MainActor
enum TodoCommands {
  nonisolated static let commands = [
    Command(
      "todos", summary: "List todos (--local: those kept on this device, with their status).",
      options: CommandTable.paging + [
        OptionSpec(name: "local", valueName: nil, help: "list the device's todos, no request")
      ],
      example: "strata-demo todos --limit 5", run: .inApp(todos)),
    Command(
      "todo toggle", summary: "Flip a todo between done and not done.", positionals: ["ID"],
      options: [
        OptionSpec(
          name: "offline", valueName: nil,
          help: "flip it on this device as pending; 'sync' sends it (also when there is no route)")
      ],
      example: "strata-demo todo toggle 3", run: .inApp(toggle)),
  ]

  static func todos(_ app: AppContext, _ invocation: Invocation) async throws -> Output {
    if invocation.option("local") != nil {
      guard try app.resolve(FeatureFlags.self).isOn(.offline) else { throw FeatureOff(.offline) }
      let items = try await app.resolve(OfflineTodos.self).local()
      return Output(
        text: .table(
          headers: ["ID", "DONE", "STATUS", "TODO"],
          rows: items.map {
            [
              String($0.item.id), $0.item.completed ? "yes" : "no", $0.status.rawValue,
              $0.item.todo,
            ]
          }, footer: "\(items.count) on this device"),
        json: items.map(LocalRow.init))
    }
    let model = try app.resolve(TodosViewModel.self)
    let (limit, skip) = try invocation.paging()
    await model.load(limit: limit, skip: skip)
    // The page stays on the device: what 'todo toggle ID --offline' can change.
    if let page = model.page, let offline: OfflineTodos = try app.resolve() {
      try await offline.keep(page.items)
    }
    return try Output.page(
      model.page, failure: model.state.failure?.error, headers: ["ID", "DONE", "USER", "TODO"]
    ) { [String($0.id), $0.completed ? "yes" : "no", String($0.userId), $0.todo] }
  }

  static func toggle(_ app: AppContext, _ invocation: Invocation) async throws -> Output {
    let id = try invocation.identifier()
    let features = try app.resolve(FeatureFlags.self)
    if invocation.option("offline") != nil, !features.isOn(.offline) { throw FeatureOff(.offline) }
    let online = try app.resolve(Connectivity.self).isOnline
    if features.isOn(.offline), invocation.option("offline") != nil || !online {
      let offline = try app.resolve(OfflineTodos.self)
      // Offline means no request at all: only a todo the device already has can change.
      guard let kept = try await offline.toggle(id: id, offline: true) else {
        throw CommandFailure(
          "todo \(id) is not on this device: list it while online ('strata-demo todos' keeps the page it shows), then toggle it offline"
        )
      }
      return Output(
        text: .line(
          "todo \(id) is \(kept.item.completed ? "done" : "not done") on this device, pending — 'strata-demo sync' sends it"
        ), json: kept.item)
    }
    let model = try app.resolve(TodosViewModel.self)
    await model.toggle(id: id)
    if let failure = model.state.failure { throw failure.error }
    guard let todo = model.todos.first(where: { $0.id == id }) else {
      throw CommandFailure("todo \(id) was not found")
    }
    return Output(
      text: .line("todo \(id) is now \(todo.completed ? "done" : "not done"): \(todo.todo)"),
      json: todo)
  }

  /// A device todo in JSON: the todo, where it stands, and the server's note.
  struct LocalRow: Encodable {
    let todo: Todo
    let status: String
    let message: String?
    init(_ item: OfflineTodos.Item) {
      todo = item.item
      status = item.status.rawValue
      message = item.message
    }
  }
}
