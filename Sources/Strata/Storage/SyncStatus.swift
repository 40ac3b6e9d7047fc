import Foundation

/// Where a locally kept value or change stands with the server.
public enum SyncStatus: String, Codable, Sendable, CaseIterable {
  /// The server has it as shown.
  case synced
  /// Made here, not yet accepted by the server (it will be sent when it can).
  case pending
  /// The server refused it; ``StoredRecord/message`` says why. It is not sent again.
  case failed
}

/// A value kept locally, with where it stands with the server and when it last changed.
public struct StoredRecord<Value: Codable & Sendable>: Codable, Sendable {
  /// What the app shows: the user's own change while it is `pending`, the server's answer
  /// once `synced`.
  public var value: Value
  /// The state of the newest change to it (a `failed` record keeps the refused value).
  public var status: SyncStatus
  /// When it was last written here.
  public var updatedAt: Date
  /// The server's refusal, for `failed`.
  public var message: String?

  /// A record (what a store writes; tests build their own).
  package init(value: Value, status: SyncStatus, updatedAt: Date, message: String? = nil) {
    (self.value, self.status, self.updatedAt, self.message) = (value, status, updatedAt, message)
  }
}

extension StoredRecord: Equatable where Value: Equatable {}
