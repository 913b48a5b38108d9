internal import CSQLite

/// One SQLite connection: a thin, typed wrapper in the spirit of GRDB's `Database`.
///
/// The file is opened in WAL mode with `synchronous=NORMAL`, foreign keys on, a busy
/// timeout, extended result codes, defensive mode and double-quoted string literals off
/// (`SQLITE_DBCONFIG_DQS_DML`/`_DDL`, as GRDB does: `"name"` is always an identifier).
/// Statements are prepared once and cached by SQL text.
///
/// Thread-safety: not Sendable. Debian's SQLite is built `THREADSAFE=1`, and the connection
/// is opened with `SQLITE_OPEN_NOMUTEX` (multi-thread mode): SQLite then requires that no two
/// threads use the connection or its statements at the same time
/// (<https://sqlite.org/threadsafe.html>). `HomeStore` guarantees it by confining the
/// connection to its actor, whose executor is one serial dispatch queue.
package final class Database {
    /// The file path as given.
    package let path: String
    /// The `sqlite3` pointer; valid until ``close()``.
    package let handle: OpaquePointer
    private var statements: [String: Statement] = [:]
    private var isClosed = false
    private var savepointDepth = 0

    /// Opens (creating if missing) the database at `path` with the connection settings above,
    /// except the journal mode: call ``enableWAL()`` once the file is known to be ours.
    ///
    /// - Parameters:
    ///   - path: a file path; `:memory:` works for throwaway databases.
    ///   - busyTimeout: how long a statement waits for another connection's lock.
    /// - Throws: ``StoreError`` when SQLite cannot open or configure the file.
    package init(path: String, busyTimeout: Duration = .seconds(5)) throws(StoreError) {
        var connection: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let code = sqlite3_open_v2(path, &connection, flags, nil)
        guard code == SQLITE_OK, let connection else {
            let message = connection.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(connection)
            throw StoreError(
                kind: .sqlite(ResultCode(rawValue: code)),
                message: "cannot open \(path): \(message)"
            )
        }
        self.path = path
        self.handle = connection
        sqlite3_extended_result_codes(connection, 1)
        let milliseconds =
            busyTimeout.components.seconds * 1000 + busyTimeout.components.attoseconds / 1_000_000_000_000_000
        sqlite3_busy_timeout(connection, Int32(clamping: milliseconds))
        _ = csqlite_db_config_int(connection, SQLITE_DBCONFIG_DQS_DML, 0, nil)
        _ = csqlite_db_config_int(connection, SQLITE_DBCONFIG_DQS_DDL, 0, nil)
        _ = csqlite_db_config_int(connection, SQLITE_DBCONFIG_DEFENSIVE, 1, nil)
        do {
            try executeScript("PRAGMA foreign_keys = ON")
        } catch {
            close()
            throw error
        }
    }

    deinit { close() }

    /// Switches the file to WAL and the connection to `synchronous=NORMAL`: a commit is
    /// durable against a process crash at once and against power loss from the next
    /// checkpoint on (<https://sqlite.org/pragma.html#pragma_synchronous>).
    ///
    /// - Throws: ``StoreError`` when SQLite refuses (a read-only directory, a network file
    ///   system without shared memory).
    package func enableWAL() throws(StoreError) {
        let sql = "PRAGMA journal_mode = WAL"
        let mode = try statement(sql).fetchOne { $0.column(0, or: "") }
        guard mode?.lowercased() == "wal" else {
            throw StoreError(
                kind: .sqlite(.error),
                message: "journal_mode stays \(mode ?? "unknown") instead of wal",
                sql: sql
            )
        }
        try executeScript("PRAGMA synchronous = NORMAL")
    }

    /// Finalizes every cached statement and closes the connection. Later use is a bug.
    package func close() {
        guard !isClosed else { return }
        isClosed = true
        statements.removeAll()
        sqlite3_close_v2(handle)
    }

    /// Closes without copying the WAL into the file first (`SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE`):
    /// for a corrupt file that is moved aside as it was found.
    package func closeWithoutCheckpoint() {
        guard !isClosed else { return }
        _ = csqlite_db_config_int(handle, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, nil)
        close()
    }

    /// Runs one or more `;`-separated statements that take no parameters (migrations, pragmas).
    package func executeScript(_ sql: String) throws(StoreError) {
        let code = sqlite3_exec(handle, sql, nil, nil, nil)
        guard code == SQLITE_OK else { throw Self.error(code: code, connection: handle, sql: sql) }
    }

    /// The cached prepared statement for `sql`, prepared on first use. Helpers on
    /// ``Statement`` reset it after each run.
    package func statement(_ sql: String) throws(StoreError) -> Statement {
        if let cached = statements[sql] { return cached }
        let statement = try Statement(connection: handle, sql: sql)
        statements[sql] = statement
        return statement
    }

    /// Runs one statement with `arguments` to completion.
    package func execute(_ sql: String, _ arguments: [(any SQLBindable)?] = []) throws(StoreError) {
        try statement(sql).execute(arguments)
    }

    /// Maps every row of `sql`.
    package func fetchAll<T>(
        _ sql: String,
        _ arguments: [(any SQLBindable)?] = [],
        _ row: (Statement) throws(StoreError) -> T
    ) throws(StoreError) -> [T] {
        try statement(sql).fetchAll(arguments, row)
    }

    /// Maps the first row of `sql`, if any.
    package func fetchOne<T>(
        _ sql: String,
        _ arguments: [(any SQLBindable)?] = [],
        _ row: (Statement) throws(StoreError) -> T
    ) throws(StoreError) -> T? {
        try statement(sql).fetchOne(arguments, row)
    }

    /// The first column of the first row of `sql` as an integer, 0 when there is none.
    package func scalar(_ sql: String, _ arguments: [(any SQLBindable)?] = []) throws(StoreError) -> Int64 {
        try fetchOne(sql, arguments) { $0.column(0, or: Int64(0)) } ?? 0
    }

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    package var changes: Int { Int(sqlite3_changes(handle)) }

    /// The rowid of the last successful INSERT.
    package var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// Whether a transaction is open.
    package var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    /// Runs `body` in a transaction: `BEGIN IMMEDIATE` (the write lock is taken up front, so
    /// a busy database fails at the start rather than halfway), `COMMIT` when `body` returns,
    /// `ROLLBACK` when it or the commit throws. Nested calls use savepoints.
    ///
    /// - Returns: what `body` returns.
    /// - Throws: what `body` throws, or ``StoreError`` from BEGIN/COMMIT.
    package func transaction<T>(_ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        if isInTransaction {
            return try savepoint(body)
        }
        return try outermost("BEGIN IMMEDIATE", body)
    }

    /// Runs `body` in a read transaction (`BEGIN DEFERRED`): every statement in it reads the same
    /// snapshot of the database, while writers go on (WAL). Inside a transaction, `body` simply
    /// runs in it.
    ///
    /// - Returns: what `body` returns.
    /// - Throws: what `body` throws, or ``StoreError`` from BEGIN/COMMIT.
    package func readTransaction<T>(_ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        if isInTransaction { return try body() }
        return try outermost("BEGIN DEFERRED", body)
    }

    /// `begin`, then `body`, then `COMMIT`; `ROLLBACK` when `body` or the commit throws.
    ///
    /// `BEGIN`, `COMMIT` and the savepoints run as cached prepared statements, like any other:
    /// through `sqlite3_exec` each was parsed and prepared again, about 15 000 instructions a
    /// transaction, and a version makes two (callgrind, issue 17).
    private func outermost<T>(_ begin: String, _ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        try execute(begin)
        let result: T
        do {
            result = try body()
            try execute("COMMIT")
        } catch {
            rollback()
            throw error
        }
        return result
    }

    private func savepoint<T>(_ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        savepointDepth += 1
        defer { savepointDepth -= 1 }
        let name = "homefeed_\(savepointDepth)"
        try execute("SAVEPOINT \(name)")
        do {
            let result = try body()
            try execute("RELEASE \(name)")
            return result
        } catch {
            if isInTransaction {
                try? executeScript("ROLLBACK TO \(name)")
                try? executeScript("RELEASE \(name)")
            }
            throw error
        }
    }

    /// Rolls back unless SQLite already did (it does on some errors, e.g. SQLITE_FULL).
    private func rollback() {
        guard isInTransaction else { return }
        _ = sqlite3_exec(handle, "ROLLBACK", nil, nil, nil)
    }

    /// An error for result `code`, with the connection's message and `sql`.
    static func error(code: Int32, connection: OpaquePointer, sql: String?) -> StoreError {
        // With extended result codes on, `code` is extended already; errmsg matches the
        // most recent failure on this connection.
        StoreError(
            kind: .sqlite(ResultCode(rawValue: code)),
            message: String(cString: sqlite3_errmsg(connection)),
            sql: sql
        )
    }
}
