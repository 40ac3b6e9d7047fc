import Foundation

/// Reading the session from its store: when the session is made, again where another process
/// may change it, and again after a store that was locked opens.
extension AuthSession {
  /// The store's credentials for `origin`, nil when there are none or they are not this
  /// origin's; `locked` when the store cannot be read yet (``TokenStoreLocked``).
  static func restore(from store: any TokenStore, origin: Origin)
    -> (credentials: Credentials?, locked: Bool)
  {
    let stored: Credentials?
    do {
      stored = try store.load()
    } catch is TokenStoreLocked {
      Log.auth.notice("the session store is locked until the device is unlocked; read again then")
      return (nil, true)
    } catch {
      Log.auth.warning("could not restore the session: \(error)")
      return (nil, false)
    }
    guard let stored else { return (nil, false) }
    KnownSecrets.register([stored.accessToken, stored.refreshToken])
    guard let issuer = stored.origin else {
      Log.auth.notice("stored credentials name no origin; ignored (sign in again)")
      return (nil, false)
    }
    guard issuer == origin else {
      Log.auth.notice("stored credentials belong to \(issuer), not \(origin); ignored")
      return (nil, false)
    }
    return (stored, false)
  }

  /// Takes in what the store holds now where it may have changed since it was last read here:
  /// a store that was locked (read until it opens), or one another process wrote (its
  /// ``TokenStore/stamp()`` changed).
  func followStore() {
    if restorePending {
      let restored = Self.restore(from: store, origin: origin)
      guard !restored.locked else { return }
      restorePending = false
      if let stored = restored.credentials, credentials == nil {
        adopt(stored, "once its store could be read")
      }
      return
    }
    let stamp = store.stamp()
    guard stamp != storedStamp else { return }
    storedStamp = stamp
    let stored = Self.restore(from: store, origin: origin).credentials
    guard stored?.account != credentials?.account else {
      if let stored { credentials = stored }  // a refresh there: its tokens
      return
    }
    if credentials != nil { end(.endedElsewhere) }
    if let stored { adopt(stored, "in another process") }
  }

  /// Holds `stored`, found in the store, as the session signed in (`how`, for the log).
  private func adopt(_ stored: Credentials, _ how: String) {
    credentials = stored
    generation += 1
    Log.auth.notice("signed in to \(origin) \(how)")
    broadcaster.yield(.signedIn)
  }
}
