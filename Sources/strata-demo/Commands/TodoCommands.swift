import DemoKit
import Strata

/// `todos`, `todo toggle ID`: the todos feature, through its view model.
@MainActor
enum TodoCommands {
  nonisolated static let commands = [
    CommandTable.deviceList("todos", limit: 5, run: .inApp(todos)),
    Command(
      "todo toggle", summary: "Flip a todo between done and not done.", positionals: ["ID"],
      options: [CommandTable.offline("flip it")],
      example: "strata-demo todo toggle 3", run: .inApp(toggle)),
  ]

  static func todos(_ app: AppContext, _ invocation: Invocation) async throws -> Output {
    if invocation.option("local") != nil {
      guard try app.resolve(FeatureFlags.self).isOn(.offline) else { throw FeatureOff(.offline) }
      return try await DeviceList.output(
        try app.resolve(OfflineTodos.self).collection, name: .todo,
        headers: ["ID", "DONE", "STATUS", "TODO"]
      ) {
        [String($0.item.id), $0.item.completed ? "yes" : "no", $0.status.rawValue, $0.item.todo]
      }
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

  /// `todo toggle ID`: one call to ``TodosViewModel/toggle(id:keepOffline:)``, which decides
  /// whether the flip is sent or kept on this device.
  static func toggle(_ app: AppContext, _ invocation: Invocation) async throws -> Output {
    let id = try invocation.identifier()
    let todo = try await app.resolve(TodosViewModel.self).toggle(
      id: id, keepOffline: invocation.option("offline") != nil)
    let done = todo.item.completed ? "done" : "not done"
    guard todo.status == .synced else {
      return Output(
        text: .line("todo \(id) is \(done) on this device, pending — 'strata-demo sync' sends it"),
        json: todo.item)
    }
    return Output(text: .line("todo \(id) is now \(done): \(todo.item.todo)"), json: todo.item)
  }
}
