import Foundation
import Synchronization
import TestSupport
import Testing

@testable import HomeStore

/// Ending a store's opening from another thread (the daemon's SIGTERM during start-up).
@Suite(.timeLimit(.minutes(1)))
struct StoreOpeningStopTests {
    @Test("a stop requested before the opening: it throws SQLITE_INTERRUPT and the file opens as before next time")
    func requestedBefore() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("homefeed.sqlite")
        try await RecoveryTests.filledStore(at: path)
        let stop = StoreOpeningStop()
        stop.request()
        await #expect(throws: StoreOpeningStop.stopped) {
            _ = try await Store(path: path, recoverIfCorrupt: true, fullCheck: true, stop: stop)
        }
        let store = try await Store(path: path, recoverIfCorrupt: true, fullCheck: true)
        #expect(store.recovery == nil)
        #expect(try await store.counts().notices == 3)
    }

    /// A statement that would count to a hundred million (tens of seconds) ends with SQLite's
    /// own `SQLITE_INTERRUPT` when another thread asks for the stop, not with the error the
    /// stop gives once a check has run to its end.
    @Test("a stop requested while a check runs interrupts its statement")
    func interruptsRunningCheck() async throws {
        let db = try Database(path: ":memory:")
        let stop = StoreOpeningStop()
        let started = Atomic(false)
        let requester = Task.detached {
            // Once the check has started: a request before it makes `interruptible` throw
            // `stopped` without running it.
            while !started.load(ordering: .acquiring) { try? await Task.sleep(for: .milliseconds(1)) }
            stop.request()
        }
        defer { requester.cancel() }
        let error = #expect(throws: StoreError.self) {
            try stop.interruptible(db) { () throws(StoreError) in
                started.store(true, ordering: .releasing)
                return try db.scalar(
                    "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 100000000) "
                        + "SELECT count(*) FROM c"
                )
            }
        }
        #expect(error?.resultCode == .interrupt)
        #expect(error != StoreOpeningStop.stopped, "\(String(describing: error))")
        // The connection is usable again.
        #expect(try db.scalar("SELECT 1") == 1)
    }

    /// SQLite clears an interrupt when a statement starts on an idle connection: without the
    /// progress handler, the check's next statement (a REINDEX, the check again) ran to its end.
    @Test("a stop requested between two statements of a check interrupts the next one")
    func interruptsBetweenStatements() throws {
        let db = try Database(path: ":memory:")
        let stop = StoreOpeningStop()
        let error = #expect(throws: StoreError.self) {
            try stop.interruptible(db) { () throws(StoreError) in
                _ = try db.scalar("SELECT 1")
                stop.request()
                return try db.scalar(
                    "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 100000000) "
                        + "SELECT count(*) FROM c"
                )
            }
        }
        #expect(error?.resultCode == .interrupt)
        #expect(error != StoreOpeningStop.stopped, "the statement ran to its end: \(String(describing: error))")
        #expect(try db.scalar("SELECT 1") == 1)
    }
}
