import Foundation
import Strata

/// Todos kept on this device beside the API (an ``OfflineCollection`` of todos): a toggle
/// made offline shows at once as pending and is sent by ``sync()``.
public struct OfflineTodos: OfflineFeature {
  /// A todo as the device has it, with its status.
  public typealias Item = OfflineCollection<Todo>.Entry

  /// The outbox kind of a done / not-done change.
  public static let setCompletedKind = "todo.setCompleted"

  private struct Change: Codable {
    let id: Int
    let completed: Bool
  }

  public let collection: OfflineCollection<Todo>
  private let repository: any TodosRepository

  /// Todos kept in the store `stores` opens for the owner signed in now (`owner`), changed
  /// through `repository`.
  public init(
    stores: @escaping @Sendable (DataOwner) -> LocalStore<Todo>,
    owner: @escaping @Sendable () async -> DataOwner, repository: any TodosRepository,
    connectivity: Connectivity? = nil, maxAttempts: Int = 5,
    analytics: any Analytics = NoAnalytics()
  ) {
    self.repository = repository
    collection = OfflineCollection(
      stores: stores, owner: owner, name: "todos", connectivity: connectivity,
      maxAttempts: maxAttempts,
      analytics: analytics
    ) { entry in
      let change = try JSONDecoder().decode(Change.self, from: entry.payload)
      let todo = try await repository.setCompleted(
        id: change.id, change.completed, idempotencyKey: entry.idempotencyKey)
      return .init(key: Self.key(change.id), value: todo)
    }
  }

  static func key(_ id: Int) -> String { "todo-\(id)" }

  /// Fetches a page and keeps it (local changes stay), then returns the local list.
  public func refresh(limit: Int = 10, skip: Int = 0) async throws -> [Item] {
    let page = try await repository.list(limit: limit, skip: skip)
    return try await collection.refresh(with: page.items.map { (Self.key($0.id), $0) })
  }

  /// Keeps `todos` (a page the app just showed) on the device, so they can change offline.
  public func keep(_ todos: [Todo]) async throws {
    _ = try await collection.refresh(with: todos.map { (Self.key($0.id), $0) })
  }

  /// Flips todo `id` as the device has it at that moment — read and queued in one locked
  /// step, so toggles made at once (in any processes) each flip what the last one left — and,
  /// unless `offline`, sends the change.
  /// - Returns: The todo as the device now has it; nil when the device does not have it.
  public func toggle(id: Int, offline: Bool = false) async throws -> Item? {
    try await collection.change(kind: Self.setCompletedKind, key: Self.key(id), offline: offline) {
      current in
      guard var todo = current else { return nil }
      todo.completed.toggle()
      return (try JSONEncoder().encode(Change(id: id, completed: todo.completed)), todo)
    }
  }
}
