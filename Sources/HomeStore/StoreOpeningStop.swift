internal import CSQLite
import Synchronization

/// Lets another thread end a store's opening early: the daemon's SIGTERM while it starts, when
/// the full `integrity_check` may read a large file for minutes.
///
/// ``request()`` makes the check that runs fail at once (`sqlite3_interrupt`, `SQLITE_INTERRUPT`)
/// (and every statement after it: a progress handler) and the opening throws before its next
/// step, with every row kept: the checks only read the file, a `REINDEX` cut short is rolled
/// back, and one that finished only rebuilt indexes from their tables. The migrations and a recovery (a file moved
/// aside is always followed by the fresh one holding what was salvaged) are never cut short: a
/// request that comes during them ends the opening once they are done.
///
/// Sendable: its state is behind a mutex, and `sqlite3_interrupt` may be called from any
/// thread while the connection is open (<https://sqlite.org/c3ref/interrupt.html>); the
/// connection is only named here while a check runs on it.
public final class StoreOpeningStop: Sendable {
    private struct State {
        var requested = false
        /// The `sqlite3` pointer of the connection a check runs on, as an address: the pointer
        /// type is not Sendable, and nothing but `sqlite3_interrupt` uses it here.
        var checking: UInt?
    }

    private let state = Mutex(State())

    public init() {}

    /// Whether ``request()`` was called.
    public var isRequested: Bool { state.withLock { $0.requested } }

    /// Ends the opening: interrupts the check that runs, and makes the next step throw.
    public func request() {
        state.withLock { state in
            state.requested = true
            if let connection = state.checking.flatMap(OpaquePointer.init(bitPattern:)) {
                sqlite3_interrupt(connection)
            }
        }
    }

    /// The error of an opening ended by ``request()``.
    static let stopped = StoreError(kind: .sqlite(.interrupt), message: "the opening was stopped")

    /// Throws ``stopped`` when ``request()`` was called.
    func checkNotRequested() throws(StoreError) {
        if isRequested { throw Self.stopped }
    }

    /// Runs `check` on `database` so that ``request()`` interrupts it (the check then throws
    /// SQLite's `SQLITE_INTERRUPT`, from `sqlite3_interrupt` or, between statements, the
    /// progress handler); throws ``stopped`` when a request came before it, or during it and the
    /// check still ended.
    func interruptible<T>(
        _ database: Database,
        _ check: () throws(StoreError) -> T
    ) throws(StoreError) -> T {
        let connection = UInt(bitPattern: database.handle)
        try state.withLock { state throws(StoreError) in
            if state.requested { throw Self.stopped }
            state.checking = connection
        }
        // Every 1 000 virtual-machine steps the statement asks whether a stop was requested:
        // an interrupt sent between two statements of the check (integrity_check, REINDEX, the
        // check again) is cleared when the next one starts, and the rest would run to its end.
        sqlite3_progress_handler(
            database.handle,
            1_000,
            { context in
                guard let context else { return 0 }
                return Unmanaged<StoreOpeningStop>.fromOpaque(context).takeUnretainedValue().isRequested ? 1 : 0
            },
            Unmanaged.passUnretained(self).toOpaque()
        )
        defer {
            sqlite3_progress_handler(database.handle, 0, nil, nil)
            state.withLock { $0.checking = nil }
        }
        let value = try check()
        try checkNotRequested()
        return value
    }
}
