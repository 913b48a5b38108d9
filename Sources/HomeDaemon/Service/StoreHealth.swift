import HomeStore
import Synchronization

/// How the store is doing, for `GetStatus`, the `STATUS=` line and the watchdog.
///
/// * `ok`: nothing to report.
/// * `recovered`: the file was corrupt at start; it was moved aside and a fresh store started
///   (``StoreRecovery``). Stays until the next start, as the reason says what happened.
/// * `failing`: ``failureThreshold`` store operations in a row failed with no successful write
///   in between. Successful reads do not count: while another process holds the write lock,
///   reads in WAL mode still work and every write fails. The next successful write ends it,
///   and so does the watchdog's write probe (``Store/checkWritable()``, ``probeSucceeded()``)
///   unless the failures were corruption: the probe writes no table, so it succeeds on a file
///   whose notices pages are damaged, and the watchdog must go on seeing that store as failing
///   (the restart that follows recovers the file).
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
        var totalFailures = 0
    }

    private let counters: Mutex<Counters>

    init(recovery: StoreRecovery?) {
        counters = Mutex(Counters(recovery: recovery.map(Self.describe)))
    }

    /// `the file was corrupt (quick_check: …); moved aside to homefeed.sqlite.corrupt-…; …`.
    static func describe(_ recovery: StoreRecovery) -> String {
        let name = recovery.movedTo.split(separator: "/").last.map(String.init) ?? recovery.movedTo
        return "the file was corrupt (\(recovery.reason)); moved aside to \(name); started afresh with "
            + "\(recovery.salvagedManifests) manifests and \(recovery.salvagedHistory) history events salvaged"
    }

    /// A write succeeded.
    func succeeded() {
        counters.withLock { $0.consecutiveFailures = 0 }
    }

    /// The watchdog's write probe succeeded: the write lock can be taken, which ends failures
    /// of contention or I/O, but not of a damaged file (see the type's description).
    func probeSucceeded() {
        counters.withLock { counters in
            if counters.lastError?.isCorruption != true { counters.consecutiveFailures = 0 }
        }
    }

    /// A store operation failed.
    func failed(_ error: StoreError) {
        counters.withLock {
            $0.consecutiveFailures += 1
            $0.totalFailures += 1
            $0.lastError = error
        }
    }

    var report: Report {
        counters.withLock { counters in
            if counters.consecutiveFailures >= Self.failureThreshold, let error = counters.lastError {
                return Report(state: .failing, reason: error.summary)
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
