import DemoKit
import Foundation
import Strata

/// `todos`, `todo add`, `todo edit ID`, `todo toggle ID`, `todo delete ID`: the todos feature,
/// through its view model. An ID is the server's number or a local id (`todo add --offline`).
@MainActor
enum TodoCommands {
  nonisolated static let commands = [
    CommandTable.deviceList("todos", limit: 5, run: .inApp(todos)),
    Command(
      "todo add",
      options: [
        OptionSpec(name: "text", valueName: "TEXT", help: "option.todo"),
        OptionSpec(name: "user-id", valueName: "N", help: "option.owner"),
        CommandTable.offline("keep"),
      ], example: "strata-demo todo add --text 'Water the plants'", run: .inApp(add)),
    Command(
      "todo edit", positionals: ["ID"],
      options: [
        OptionSpec(name: "text", valueName: "TEXT", help: "option.text.new"),
        CommandTable.offline("keepChange"),
      ], example: "strata-demo todo edit 3 --text 'Call mum'", run: .inApp(edit)),
    Command(
      "todo toggle", positionals: ["ID"],
      options: [CommandTable.offline("flip")],
      example: "strata-demo todo toggle 3", run: .inApp(toggle)),
    Command(
      "todo delete", positionals: ["ID"], options: [CommandTable.offline("keepDeletion")],
      example: "strata-demo todo delete 3", run: .inApp(delete)),
  ]

  static func todos(_ app: AppContext, _ invocation: Invocation) async throws -> Output {
    if invocation.option("local") != nil {
      guard try app.resolve(FeatureFlags.self).isOn(.offline) else { throw FeatureOff(.offline) }
      return try await DeviceList.output(
        try app.resolve(OfflineTodos.self).collection, name: .todo,
        headers: Headings.of("id", "localId", "done", "status", "todo"), invocation: invocation,
        fields: [
          .number("id") { $0.id }, .number("userId") { $0.userId }, .string("todo") { $0.todo },
          .flag("completed") { $0.completed },
        ]
      ) {
        [
          $0.item.id == 0 ? "-" : String($0.item.id), $0.localId ?? "-",
          Localized.current($0.item.completed ? "yes" : "no"), Headings.status($0), $0.item.todo,
        ]
      }
    }
    let model = try app.resolve(TodosViewModel.self)
    let (limit, skip) = try await app.paging(invocation)
    // The view model keeps the page on the device: what 'todo toggle ID --offline' can change.
    await model.load(limit: limit, skip: skip)
    return try Output.page(
      model.page, failure: model.state.failure?.error,
      headers: Headings.of("id", "done", "user", "todo")
    ) {
      [String($0.id), Localized.current($0.completed ? "yes" : "no"), String($0.userId), $0.todo]
    }
  }

  static func add(_ app: AppContext, _ invocation: Invocation) async throws -> Output {
    guard let text = invocation.option("text") else {
      throw UsageError(
        Localized.current("todo.needsText", ["command": "todo add"]), invocation.command)
    }
    let draft = TodoDraft(
      todo: text, userId: try invocation.integer("user-id", default: 1, in: 1...1_000_000))
    let todo = try await app.resolve(TodosViewModel.self).add(
      draft, keepOffline: try await app.keepsOffline(invocation))
    return try await shown(todo, todo.localId ?? String(todo.item.id), app) {
      Localized.current("todo.added", ["id": String($0.id), "text": $0.todo])
    }
  }

  static func edit(_ app: AppContext, _ invocation: Invocation) async throws -> Output {
    let id = try invocation.itemID()
    guard let text = invocation.option("text") else {
      throw UsageError(
        Localized.current("todo.needsText", ["command": "todo edit"]), invocation.command)
    }
    _ = try TodoRules.validated(TodoEdit(todo: text))  // before the todo is fetched
    let todo = try await app.resolve(TodosViewModel.self).edit(
      id, keepOffline: try await app.keepsOffline(invocation)
    ) { _ in TodoEdit(todo: text) }
    return try await shown(todo, "\(id)", app, saysText: true) {
      Localized.current("todo.reads", ["id": String($0.id), "text": $0.todo])
    }
  }

  /// `todo toggle ID`: one call to ``TodosViewModel/toggle(_:keepOffline:)``, which decides
  /// whether the flip is sent or kept on this device.
  static func toggle(_ app: AppContext, _ invocation: Invocation) async throws -> Output {
    let id = try invocation.itemID()
    let todo = try await app.resolve(TodosViewModel.self).toggle(
      id, keepOffline: try await app.keepsOffline(invocation))
    return try await shown(todo, "\(id)", app) {
      let text = Localized.current
      return text(
        "todo.now",
        ["id": String($0.id), "state": text($0.completed ? "done" : "notDone"), "text": $0.todo])
    }
  }

  static func delete(_ app: AppContext, _ invocation: Invocation) async throws -> Output {
    let id = try invocation.itemID()
    let deletion = try await app.resolve(TodosViewModel.self).delete(
      id, keepOffline: try await app.keepsOffline(invocation))
    return try DeviceList.deletion(
      deletion, Localized.current("thing.todo", ["id": "\(id)"]), name: .todo,
      owner: try await owner(app))
  }

  /// A todo as a change left it: the server's (said by `synced`; `--json`: the todo), or kept
  /// on the device (`id`: as the user named it), saying what the change made of it — its text
  /// for an edit (`saysText`), else whether it is done.
  private static func shown(
    _ todo: OfflineTodos.Item, _ id: String, _ app: AppContext, saysText: Bool = false,
    synced: (Todo) -> String
  ) async throws -> Output {
    let text = Localized.current
    let what = text("thing.todo", ["id": id])
    guard todo.status == .synced else {
      var kept = try DeviceList.kept(todo, what, name: .todo, owner: try await owner(app))
      let state = text(todo.item.completed ? "done" : "notDone")
      kept.text = .line(
        saysText
          ? text("todo.pendingText", ["what": what, "text": todo.item.todo])
          : text("todo.pending", ["what": what, "state": state]))
      return kept
    }
    return Output(text: .line(synced(todo.item)), json: todo.item)
  }

  private static func owner(_ app: AppContext) async throws -> DataOwner {
    try await app.resolve(OfflineTodos?.self)?.collection.currentOwner() ?? .device
  }
}
