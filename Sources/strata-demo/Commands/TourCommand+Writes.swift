import DemoKit
import Foundation
import Strata
import StrataSandbox

/// The tour's steps 9–11, the writes: a rule refusing a post before the network, a POST
/// retried under its key and made once, a post kept while the server is away and sent once,
/// edits by local id, and an offline edit that meets a newer version (a conflict, resolved).
extension TourCommand {
  /// Steps 9–11: a rule refusing a post, a POST retried under its key, one kept on the device.
  static func write(
    _ app: AppContext, _ sandbox: SandboxServer, _ tour: Narrator, userId: Int
  ) async throws {
    // 9. A business rule, before the network
    tour.step(9, text("tour.step9"))
    let model = PostsViewModel(
      repo: try app.resolve(),
      analytics: TourAnalytics { Terminal.out("    " + text("tour.analytics", ["event": $0])) })
    let hello = PostDraft(title: text("tour.helloTitle"), body: "Strata", userId: userId)
    do {
      try await model.create(PostDraft(title: "   ", body: "Strata", userId: userId))
      throw tour.failure(text("tour.blankAccepted"))
    } catch let refused as ValidationError {
      tour.say(text("tour.refused", ["reason": "\(refused)"]))
    }
    tour.evidence()

    // 10. A keyed POST: retried, made once
    tour.step(10, text("tour.step10"))
    sandbox.faults.fail(503, method: "POST", path: "/posts/add")
    let madeBefore = sandbox.changesDone(path: "/posts/add")
    let created = try await model.create(hello).item
    let tries = sandbox.journal.entries.filter { $0.path == "/posts/add" }
    let keys = Set(tries.compactMap { $0.header("Idempotency-Key") })
    let createdBefore = sandbox.changesDone(path: "/posts/add")
    guard tries.count == 2, keys.count == 1, createdBefore == madeBefore + 1 else {
      throw tour.failure(text("tour.notOnce"))
    }
    tour.say(text("tour.created", ["id": String(created.id)]))
    tour.evidence()

    // 11. Offline: kept, then sent once
    tour.step(11, text("tour.step11"))
    let offline = try app.resolve(OfflinePosts.self)
    sandbox.faults.fail(503, method: "POST", path: "/posts/add", count: 4)
    let queued = try await offline.create(
      PostDraft(title: text("tour.offlineTitle"), body: "Strata", userId: userId))
    tour.say(
      text("tour.away", ["title": queued.item.title, "status": Headings.status(queued.status)]))
    tour.evidence()
    let outcomes = try await offline.sync()
    let sent = outcomes.first?.settled?.value
    let made = sandbox.changesDone(path: "/posts/add") - createdBefore
    tour.say(
      text.plural(
        "tour.back", count: made,
        [
          "statuses": outcomes.map { Headings.status($0.entry.status) }.joined(separator: ", "),
          "id": String(sent?.id ?? 0),
        ]))
    tour.evidence()
  }

  /// Step 11, continued: a post made offline is edited while it waits (folded into its
  /// creation: one POST), then edited and deleted by its local id once the server has it — the
  /// sandbox keeping writes meanwhile, as `sandbox serve --keep-writes` does.
  static func editOffline(
    _ app: AppContext, _ sandbox: SandboxServer, _ tour: Narrator, userId: Int
  ) async throws {
    let offline = try app.resolve(OfflinePosts.self)
    sandbox.keepsWrites = true
    defer { sandbox.keepsWrites = false }
    let made = try await offline.create(
      PostDraft(title: text("tour.draftTitle"), body: "Strata", userId: userId), offline: true)
    guard let localId = made.localId else { throw tour.failure(text("tour.notEdited")) }
    let local = ItemID.local(localId)
    _ = try await offline.edit(local, PostEdit(title: text("tour.finalTitle")), offline: true)
    let waiting = try await offline.outbox().filter { $0.status == .pending }.count
    tour.say(text.plural("tour.folded", count: waiting, ["id": localId]))
    let sent = try await offline.sync().first?.settled?.value
    let renamed = try await offline.edit(local, PostEdit(title: text("tour.renamedTitle")))
    guard try await offline.delete(local) == .deleted, renamed.status == .synced else {
      throw tour.failure(text("tour.notEdited"))
    }
    tour.say(
      text(
        "tour.renamed",
        ["id": String(sent?.id ?? 0), "title": sent?.title ?? "", "local": localId]))
    tour.say(text("tour.keepsWrites"))
    tour.evidence()
    try await conflict(app, tour)
  }

  /// Step 11, last: an edit made offline meets a newer version someone else wrote meanwhile:
  /// kept as a conflict (nothing overwritten), then resolved by sending mine on their version.
  private static func conflict(_ app: AppContext, _ tour: Narrator) async throws {
    let offline = try app.resolve(OfflinePosts.self)
    let repository = try app.resolve((any PostsRepository).self)
    _ = try await offline.refresh(limit: 1)
    _ = try await offline.edit(.server(1), PostEdit(title: text("tour.mineTitle")), offline: true)
    // Another device, meanwhile: its own write, straight to the server.
    _ = try await repository.update(
      id: 1, PostEdit(title: text("tour.theirsTitle")), idempotencyKey: UUID().uuidString)
    guard let met = try await offline.sync().first, met.entry.status == .conflicted,
      try await offline.collection.resolve(met.entry.id, keeping: .mine),
      try await offline.sync().first?.entry.status == .synced
    else { throw tour.failure(text("tour.noConflict")) }
    tour.say(
      text(
        "tour.conflict",
        ["fields": met.entry.conflict?.fields.joined(separator: ", ") ?? "-"]))
    tour.evidence()
  }
}
