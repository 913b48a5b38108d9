import Foundation
import TestSupport
import Testing

@testable import HomeStore

/// The connection wrapper: settings, binding and reading, transactions, errors.
@Suite struct DatabaseTests {
    @Test("the connection runs in WAL with synchronous=NORMAL and foreign keys on")
    func pragmas() throws {
        let directory = try TemporaryDirectory()
        let db = try Database(path: directory.file("db.sqlite"))
        try db.enableWAL()
        #expect(try db.fetchOne("PRAGMA journal_mode") { $0.column(0, or: "") } == "wal")
        #expect(try db.scalar("PRAGMA synchronous") == 1)
        #expect(try db.scalar("PRAGMA foreign_keys") == 1)
    }

    @Test("a read transaction reads one snapshot: another connection's commit shows only after it")
    func readTransactionSnapshot() throws {
        let directory = try TemporaryDirectory()
        let reader = try Database(path: directory.file("db.sqlite"))
        try reader.enableWAL()
        try reader.executeScript("CREATE TABLE t (v INTEGER); INSERT INTO t VALUES (1)")
        let writer = try Database(path: directory.file("db.sqlite"))
        try writer.enableWAL()
        let (before, during) = try reader.readTransaction { () throws(StoreError) -> (Int64, Int64) in
            let before = try reader.scalar("SELECT count(*) FROM t")
            // WAL: the writer commits while the reader's snapshot is open.
            try writer.execute("INSERT INTO t VALUES (2)")
            return (before, try reader.scalar("SELECT count(*) FROM t"))
        }
        #expect(before == 1 && during == 1)
        #expect(try reader.scalar("SELECT count(*) FROM t") == 2)
        #expect(!reader.isInTransaction)
    }

    @Test("double-quoted strings are identifiers, never literals (DQS off)")
    func doubleQuotedStringsAreIdentifiers() throws {
        let db = try Database(path: ":memory:")
        try db.executeScript("CREATE TABLE t (v TEXT)")
        #expect(throws: StoreError.self) { try db.execute(#"SELECT * FROM t WHERE v = "nope""#) }
    }

    @Test("values round-trip: Hangul text, empty text vs NULL, blobs, integers, dates in whole seconds")
    func roundTrip() throws {
        let db = try Database(path: ":memory:")
        try db.executeScript("CREATE TABLE t (s TEXT, e TEXT, n TEXT, b BLOB, eb BLOB, i INTEGER, d INTEGER, f REAL)")
        let date = Date(timeIntervalSince1970: 1_790_000_000.75)
        try db.execute(
            "INSERT INTO t VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            ["홈 피드 \u{0}끝", "", nil, [0, 1, 255] as [UInt8], [] as [UInt8], Int64.min, date, 0.5]
        )
        let row = try #require(
            try db.fetchOne("SELECT s, e, n, b, eb, i, d, f FROM t") { row in
                (
                    row.column(0, as: String.self), row.column(1, as: String.self), row.column(2, as: String.self),
                    row.column(3, as: [UInt8].self), row.column(4, as: [UInt8].self), row.column(5, as: Int64.self),
                    row.column(6, as: Date.self), row.column(7, as: Double.self)
                )
            }
        )
        #expect(row.0 == "홈 피드 \u{0}끝")
        #expect(row.1 == "")
        #expect(row.2 == nil)
        #expect(row.3 == [0, 1, 255])
        #expect(row.4 == [])
        #expect(row.5 == Int64.min)
        #expect(row.6 == Date(timeIntervalSince1970: 1_790_000_000))
        #expect(row.7 == 0.5)
    }

    @Test("dates that do not fit are clamped, not trapped")
    func dateClamping() {
        #expect(SQLDate.seconds(Date(timeIntervalSince1970: .infinity)) == 1 << 53)
        #expect(SQLDate.seconds(Date(timeIntervalSince1970: -.infinity)) == -(1 << 53))
        #expect(SQLDate.seconds(Date(timeIntervalSince1970: .nan)) == 0)
        #expect(SQLDate.seconds(Date(timeIntervalSince1970: -0.5)) == -1)
    }

    @Test("a throwing transaction body rolls back; a nested one rolls back to its savepoint")
    func transactions() throws {
        let db = try Database(path: ":memory:")
        try db.executeScript("CREATE TABLE t (v INTEGER)")
        #expect(throws: StoreError.self) {
            try db.transaction { () throws(StoreError) in
                try db.execute("INSERT INTO t VALUES (1)")
                try db.execute("INSERT INTO missing VALUES (1)")
            }
        }
        #expect(try db.scalar("SELECT count(*) FROM t") == 0)
        #expect(!db.isInTransaction)

        try db.transaction { () throws(StoreError) in
            try db.execute("INSERT INTO t VALUES (1)")
            _ = try? db.transaction { () throws(StoreError) in
                try db.execute("INSERT INTO t VALUES (2)")
                throw StoreError(kind: .unknownSource(url: "x"), message: "inner")
            }
        }
        #expect(try db.fetchAll("SELECT v FROM t") { $0.column(0, or: 0) } == [1])
    }

    /// BEGIN, COMMIT and savepoints are cached prepared statements: one that failed must be
    /// reset and work again, and the error must name it.
    @Test("a BEGIN refused as busy names itself, and the same connection begins once the lock is gone")
    func busyBegin() throws {
        let directory = try TemporaryDirectory()
        let holder = try Database(path: directory.file("db.sqlite"))
        try holder.enableWAL()
        try holder.executeScript("CREATE TABLE t (v INTEGER)")
        let other = try Database(path: directory.file("db.sqlite"), busyTimeout: .milliseconds(50))
        try holder.execute("BEGIN IMMEDIATE")
        let error = try #require(throws: StoreError.self) {
            try other.transaction { () throws(StoreError) in try other.execute("INSERT INTO t VALUES (1)") }
        }
        #expect(error.sql == "BEGIN IMMEDIATE")
        #expect(!other.isInTransaction)
        try holder.execute("COMMIT")
        for value in 2...3 {
            try other.transaction { () throws(StoreError) in try other.execute("INSERT INTO t VALUES (?)", [value]) }
        }
        #expect(try other.fetchAll("SELECT v FROM t ORDER BY v") { $0.column(0, or: 0) } == [2, 3])
    }

    @Test("a COMMIT that fails rolls back, names itself, and the next transactions commit")
    func failedCommit() throws {
        let db = try Database(path: ":memory:")
        try db.executeScript(
            """
            CREATE TABLE parent (id INTEGER PRIMARY KEY);
            CREATE TABLE child (parent INTEGER REFERENCES parent (id) DEFERRABLE INITIALLY DEFERRED)
            """
        )
        for _ in 0..<2 {
            // Checked at COMMIT: a child without its parent.
            let error = try #require(throws: StoreError.self) {
                try db.transaction { () throws(StoreError) in try db.execute("INSERT INTO child VALUES (7)") }
            }
            #expect(error.sql == "COMMIT")
            #expect(!db.isInTransaction)
            #expect(try db.scalar("SELECT count(*) FROM child") == 0)
        }
        try db.transaction { () throws(StoreError) in
            try db.execute("INSERT INTO parent VALUES (7)")
            try db.execute("INSERT INTO child VALUES (7)")
        }
        #expect(try db.scalar("SELECT count(*) FROM child") == 1)
    }

    @Test("errors carry the extended code, SQLite's message and the SQL, without bound values")
    func errorDescription() throws {
        let db = try Database(path: ":memory:")
        try db.executeScript("CREATE TABLE t (v TEXT UNIQUE)")
        try db.execute("INSERT INTO t (v) VALUES (?)", ["secret-token"])
        let error = try #require(throws: StoreError.self) {
            try db.execute("INSERT INTO t (v)\n    VALUES (?)", ["secret-token"])
        }
        #expect(error.resultCode == .constraintUnique)
        #expect(error.resultCode?.primary == .constraint)
        #expect(
            error.description
                == "SQLITE_CONSTRAINT_UNIQUE (2067): UNIQUE constraint failed: t.v in INSERT INTO t (v) VALUES (?)"
        )
        #expect(!error.description.contains("secret"))
    }

    @Test("long SQL is shortened to one line in descriptions")
    func shortenedSQL() {
        let sql = "SELECT " + String(repeating: "a,\n ", count: 100) + "b FROM t"
        let error = StoreError(kind: .sqlite(.error), message: "boom", sql: sql)
        #expect(!error.description.contains("\n"))
        #expect(error.description.hasSuffix(" …"))
        #expect(error.description.count < 200)
    }

    @Test("unknown extended codes are named after their primary code")
    func resultCodeNames() {
        #expect(ResultCode(rawValue: 5).name == "SQLITE_BUSY")
        #expect(ResultCode(rawValue: 517).name == "SQLITE_BUSY_SNAPSHOT")
        #expect(ResultCode(rawValue: 10 | (99 << 8)).name == "SQLITE_IOERR")
        #expect(ResultCode(rawValue: 10 | (99 << 8)).primary == ResultCode(rawValue: 10))
    }
}
