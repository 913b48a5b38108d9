import HomeStore
import Synchronization

/// How the store is doing, for `GetStatus`, the `STATUS=` line and the watchdog.
///
/// * `ok`: nothing to report.
/// * `recovered`: the file was corrupt at start; it was moved aside and a fresh store started
///   (``StoreRecovery``). Stays until the next start, as the reason says what happened.
/// * `failing`: ``failureThreshold`` store operations in a row failed with no successful write
///   in between. Successful reads do not count: while another process holds the write lock,
///   reads in WAL mode still work and every write fails. The next successful write (or the
///   watchdog's write probe, ``Store/checkWritable()``) ends it. A watchdog probe that has not
///   answered when its ping is due counts as one failure (``probeMissed(_:)``). A corruption error
///   (`SQLITE_CORRUPT`, `SQLITE_NOTADB`) makes the store failing at once and until the daemon
///   restarts: the file is damaged, whatever still works in it (the probe writes no table, a
///   source's fetch state lives in another), and only the restart's recovery mends it. The first
///   one is handed to `corruptionFound`, which asks that restart for the full check
///   (``IntegrityCheckMarker``): the quick one misses a damaged index.
///
/// Sendable: the counters sit behind a `Mutex`; the service, the fetch scheduler's sink and the
/// watchdog record into it from their own contexts.
final class StoreHealth: Sendable {
    enum State: String, Sendable {
        case ok, recovered, failing
    }

    /// The state and, unless ok, why. The reason is safe to show to clients: SQLite's code and
    /// message, never SQL or a full path.
    struct Report: Sendable, Equatable {
        var state: State
        var reason: String?
    }

    /// Failures in a row that make the store failing.
    static let failureThreshold = 3

    private struct Counters {
        var recovery: String?
        var consecutiveFailures = 0
        var lastError: StoreError?
        /// Why the last failure happened: its error's summary, or the probe that did not answer.
        var lastReason: String?
        var totalFailures = 0
        /// The first corruption error met since start.
        var corruption: StoreError?
        /// The watchdog's probe in flight was counted as a failure when its ping was due.
        var probeMissed = false

        /// - Returns: whether `error` is the first corruption error.
        mutating func failed(_ error: StoreError) -> Bool {
            consecutiveFailures += 1
            totalFailures += 1
            return record(error)
        }

        /// Makes `error` the last failure's, without counting it.
        ///
        /// - Returns: whether `error` is the first corruption error.
        mutating func record(_ error: StoreError) -> Bool {
            lastError = error
            lastReason = error.summary
            guard error.isCorruption, corruption == nil else { return false }
            corruption = error
            return true
        }
    }

    private let counters: Mutex<Counters>
    private let corruptionFound: @Sendable (StoreError) -> Void

    /// - Parameter corruptionFound: called once, with the first corruption error, outside the lock.
    init(recovery: StoreRecovery?, corruptionFound: @escaping @Sendable (StoreError) -> Void = { _ in }) {
        counters = Mutex(Counters(recovery: recovery.map(Self.describe)))
        self.corruptionFound = corruptionFound
    }

    /// `the file was corrupt (quick_check: …); moved aside to homefeed.sqlite.corrupt-…; …`.
    static func describe(_ recovery: StoreRecovery) -> String {
        let name = recovery.movedTo.split(separator: "/").last.map(String.init) ?? recovery.movedTo
        return "the file was corrupt (\(recovery.reason)); moved aside to \(name); started afresh with "
            + "\(recovery.salvagedManifests) manifests and \(recovery.salvagedHistory) history events salvaged"
    }

    /// A write (or the write probe) succeeded: it ends failures of contention or I/O, not a
    /// damaged file (see the type's description).
    func succeeded() {
        counters.withLock { $0.consecutiveFailures = 0 }
    }

    /// A store operation failed.
    func failed(_ error: StoreError) {
        if counters.withLock({ $0.failed(error) }) { corruptionFound(error) }
    }

    /// The watchdog's probe had not answered when its ping was due (the store's queue or the
    /// service is busy, or the write lock is held): one failure, so that the ping is sent on
    /// time and the three-in-a-row rule still decides. Each ping it misses counts.
    func probeMissed(_ budget: Duration) {
        counters.withLock {
            $0.consecutiveFailures += 1
            $0.probeMissed = true
            $0.lastReason = "the store probe did not answer within \(budget)"
        }
    }

    /// The watchdog's probe answered: nil when it took the write lock. A failure of a probe
    /// already counted as missed is not counted again, but becomes the reason.
    func probeAnswered(_ error: StoreError?) {
        let firstCorruption = counters.withLock {
            let missed = $0.probeMissed
            $0.probeMissed = false
            switch error {
            case nil:
                $0.consecutiveFailures = 0
                return false
            case let error? where missed: return $0.record(error)
            case let error?: return $0.failed(error)
            }
        }
        if firstCorruption, let error { corruptionFound(error) }
    }

    var report: Report {
        counters.withLock { counters in
            if let corruption = counters.corruption { return Report(state: .failing, reason: corruption.summary) }
            if counters.consecutiveFailures >= Self.failureThreshold, let reason = counters.lastReason {
                return Report(state: .failing, reason: reason)
            }
            if let recovery = counters.recovery { return Report(state: .recovered, reason: recovery) }
            return Report(state: .ok, reason: nil)
        }
    }

    var isFailing: Bool { report.state == .failing }

    /// Failures since start; compare two readings to learn whether an operation met one.
    var totalFailures: Int { counters.withLock { $0.totalFailures } }

    /// The most recent failure.
    var lastError: StoreError? { counters.withLock { $0.lastError } }
}
