import FoundationEssentials
import HomeStore
import Synchronization

/// Whether the store last refused to write because the system clock is behind the times it
/// recorded (``StoreError/Kind/clockBehind(now:latest:)``, `docs/storage.md`, "Retention"), so
/// that is logged once while it lasts, at `<4>`, not at every fetch and retention pass, and
/// its end once, at `<5>`.
///
/// Sendable: the flag sits behind a `Mutex`; the fetch scheduler's sink and the retention
/// pass report into it from their own contexts.
final class StoreClockWatch: Sendable {
    private let behind = Mutex(false)
    private let logger: Logger

    init(logger: Logger) { self.logger = logger }

    /// The store refused a write with `error`. Returns false, doing nothing, for any other error.
    func refused(_ error: StoreError) -> Bool {
        guard case .clockBehind(let now, let latest) = error.kind else { return false }
        let first = behind.withLock { wasBehind in
            defer { wasBehind = true }
            return !wasBehind
        }
        if first {
            logger.warning(
                "the system clock (\(ISO8601.string(now))) is more than a day behind the latest time the store "
                    + "recorded (\(ISO8601.string(latest))): fetched notices are not stored and retention does "
                    + "not run until it is right (a fresh feed confirms it, or a day of running passes); sources are fetched again on their schedule"
            )
        }
        return true
    }

    /// The store wrote by the clock (a notices ingest, a retention pass): it is right again.
    func accepted() {
        let ended = behind.withLock { wasBehind in
            defer { wasBehind = false }
            return wasBehind
        }
        if ended {
            logger.notice(
                "storing fetched notices again: the system clock has caught up with the store's latest time, "
                    + "or is taken as right (a fresh feed confirmed it, or it stayed behind for a day of running)"
            )
        }
    }
}
