internal import Synchronization

#if canImport(Glibc)
    internal import Glibc
#endif

/// The monotonic time (in nanoseconds) a server's timers run on: idle and stalled-write
/// timeouts, the accept pause, the refusal-report interval, and how long the event loop sleeps
/// in `epoll_wait`.
///
/// ``monotonic`` (`CLOCK_MONOTONIC`, as Dispatch's uptime) is the only clock a server uses in
/// production. ``manual(startingAt:)`` stands still until ``advance(by:)``, so that a test can
/// make a minute pass without waiting a minute: advancing wakes every event loop that reads the
/// clock, and each runs the timers that are now due exactly as it would have after sleeping.
/// Tests set it through the internal ``VarlinkServerConfiguration/clock``.
///
/// Sendable: the manual time and the loops to wake are behind a `Mutex`; equality is identity.
final class ServerClock: Sendable, Equatable {
    private enum Source {
        case monotonic
        case manual
    }

    private struct Manual {
        var now: UInt64
        var wakers: [@Sendable () -> Void] = []
    }

    private let source: Source
    private let manual: Mutex<Manual>

    private init(source: Source, start: UInt64) {
        self.source = source
        self.manual = Mutex(Manual(now: start))
    }

    /// `CLOCK_MONOTONIC`.
    static let monotonic = ServerClock(source: .monotonic, start: 0)

    /// A clock that reads `start` until advanced.
    static func manual(startingAt start: UInt64 = 1_000_000_000) -> ServerClock {
        ServerClock(source: .manual, start: start)
    }

    /// The current time in nanoseconds.
    func now() -> UInt64 {
        switch source {
        case .monotonic:
            var spec = timespec()
            clock_gettime(CLOCK_MONOTONIC, &spec)
            return UInt64(spec.tv_sec) &* 1_000_000_000 &+ UInt64(spec.tv_nsec)
        case .manual:
            return manual.withLock { $0.now }
        }
    }

    /// Manual clocks only (a no-op on ``monotonic``): moves the time forward by `duration` and
    /// wakes every loop reading this clock, so timers now due run at once.
    func advance(by duration: Duration) {
        guard source == .manual else { return }
        let wakers = manual.withLock { state -> [@Sendable () -> Void] in
            state.now &+= duration.nanoseconds
            return state.wakers
        }
        for wake in wakers { wake() }
    }

    /// Registers what wakes a loop when a manual clock advances (nothing for ``monotonic``,
    /// whose time passes by itself and is waited for in `epoll_wait`).
    func onAdvance(_ wake: @escaping @Sendable () -> Void) {
        guard source == .manual else { return }
        manual.withLock { $0.wakers.append(wake) }
    }

    static func == (lhs: ServerClock, rhs: ServerClock) -> Bool { lhs === rhs }
}
