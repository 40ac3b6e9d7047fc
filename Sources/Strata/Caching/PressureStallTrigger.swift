#if !canImport(Darwin)
  import Foundation

  #if canImport(Glibc)
    import Glibc
  #elseif canImport(Musl)
    import Musl
  #endif

  /// A Linux pressure-stall (PSI) trigger: the kernel marks the file descriptor `POLLPRI` when
  /// tasks stalled on memory for more than `threshold` within a `window` (`some`: at least one
  /// task — a warning; `full`: all of them at once — critical). Unprivileged processes may arm
  /// one only with a window that is a multiple of two seconds, which is what is used here.
  struct PressureStallTrigger: Sendable {
    let fd: Int32

    /// Armed on `path` (a `memory.pressure` or `/proc/pressure/memory`): 150 ms stalled in a
    /// 2 s window for `some`, 100 ms for `full`; nil when the kernel refuses.
    init?(path: String, stall: String) {
      let fd = PrivateFile.openSystemFile(path, O_RDWR | O_NONBLOCK)
      guard fd >= 0 else { return nil }
      let threshold = stall == "full" ? 100_000 : 150_000
      let spec = Array("\(stall) \(threshold) 2000000".utf8) + [0]
      guard spec.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) == spec.count else {
        close(fd)
        return nil
      }
      self.fd = fd
    }

    /// This process's cgroup's `memory.pressure` (cgroup v2), when there is one.
    static func cgroupFile() -> String? {
      guard let text = try? String(contentsOfFile: "/proc/self/cgroup", encoding: .utf8),
        let line = text.split(separator: "\n").first(where: { $0.hasPrefix("0::") })
      else { return nil }
      let path = "/sys/fs/cgroup" + line.dropFirst(3) + "/memory.pressure"
      return access(path, W_OK) == 0 ? path : nil
    }

    /// Waits on `triggers` on a thread of its own, asleep in `poll(2)` between events, and
    /// calls `signal` with the level of each that fires (critical first when both do).
    static func watch(
      _ triggers: [(PressureStallTrigger, MemoryPressureLevel)],
      signal: @escaping @Sendable (MemoryPressureLevel) -> Void
    ) {
      let thread = Thread {
        var fds = triggers.map { pollfd(fd: $0.0.fd, events: Int16(POLLPRI), revents: 0) }
        while true {
          guard poll(&fds, nfds_t(fds.count), -1) >= 0 else {
            if errno == EINTR { continue }
            return  // the kernel took the triggers away: no more signals
          }
          let fired = zip(fds, triggers).filter { $0.0.revents & Int16(POLLPRI) != 0 }.map(\.1.1)
          if let level = fired.contains(.critical) ? .critical : fired.first { signal(level) }
          if fds.contains(where: { $0.revents & Int16(POLLERR | POLLNVAL) != 0 }) { return }
        }
      }
      thread.name = "strata.memory-pressure"
      thread.start()
    }
  }
#endif
