internal import CSQLite

/// A prepared statement (`sqlite3_stmt`), owned by one ``Database`` and confined to the same
/// thread or queue as it.
///
/// Parameters are 1-based (`bind(_:at:)`), columns 0-based (`column(_:)`), as in SQLite's C
/// API. The statement is finalized when the last reference goes away. Not Sendable.
package final class Statement {
    /// The `sqlite3_stmt` pointer.
    package let handle: OpaquePointer
    /// The SQL text, with placeholders; used in error descriptions.
    package let sql: String
    private let connection: OpaquePointer

    init(connection: OpaquePointer, sql: String) throws(StoreError) {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v3(connection, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard code == SQLITE_OK, let statement else {
            sqlite3_finalize(statement)
            throw Database.error(code: code, connection: connection, sql: sql)
        }
        self.handle = statement
        self.sql = sql
        self.connection = connection
    }

    deinit { sqlite3_finalize(handle) }

    /// Binds `value` (NULL for `nil`) to parameter `index`, counted from 1.
    ///
    /// - Throws: ``StoreError`` with `SQLITE_RANGE` for a bad index, `SQLITE_TOOBIG` for a
    ///   value over 2 GiB.
    package func bind(_ value: (some SQLBindable)?, at index: Int32) throws(StoreError) {
        let code: Int32
        if let value {
            code = value.bind(to: handle, at: index)
        } else {
            code = sqlite3_bind_null(handle, index)
        }
        guard code == SQLITE_OK else { throw failure(code) }
    }

    /// Binds `arguments` to parameters 1, 2, … in order.
    package func bind(_ arguments: [(any SQLBindable)?]) throws(StoreError) {
        for (offset, argument) in arguments.enumerated() {
            let index = Int32(offset + 1)
            let code = argument?.bind(to: handle, at: index) ?? sqlite3_bind_null(handle, index)
            guard code == SQLITE_OK else { throw failure(code) }
        }
    }

    /// Advances to the next row.
    ///
    /// - Returns: `true` when a row is available, `false` when the statement is done.
    /// - Throws: ``StoreError`` with SQLite's code and message; the statement is reset.
    package func step() throws(StoreError) -> Bool {
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            sqlite3_reset(handle)
            throw failure(code)
        }
    }

    /// Resets the statement so it can run again, and clears its bindings. A statement left
    /// mid-result keeps its read transaction open, so every helper resets when it is done.
    package func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    /// Runs the statement to completion with `arguments`, ignoring rows.
    package func execute(_ arguments: [(any SQLBindable)?] = []) throws(StoreError) {
        defer { reset() }
        try bind(arguments)
        while try step() {}
    }

    /// Runs the statement with `arguments` and maps every row.
    package func fetchAll<T>(
        _ arguments: [(any SQLBindable)?] = [],
        _ row: (Statement) throws(StoreError) -> T
    ) throws(StoreError) -> [T] {
        defer { reset() }
        try bind(arguments)
        var rows: [T] = []
        while try step() { rows.append(try row(self)) }
        return rows
    }

    /// Runs the statement with `arguments` and maps the first row, if any.
    package func fetchOne<T>(
        _ arguments: [(any SQLBindable)?] = [],
        _ row: (Statement) throws(StoreError) -> T
    ) throws(StoreError) -> T? {
        defer { reset() }
        try bind(arguments)
        guard try step() else { return nil }
        return try row(self)
    }

    /// Whether column `index` of the current row is NULL.
    package func isNull(_ index: Int32) -> Bool {
        sqlite3_column_type(handle, index) == SQLITE_NULL
    }

    /// Column `index` of the current row, or `nil` when it is NULL.
    package func column<T: SQLColumnDecodable>(_ index: Int32, as type: T.Type = T.self) -> T? {
        isNull(index) ? nil : T.decode(from: handle, at: index)
    }

    /// Column `index` of the current row, or `fallback` when it is NULL.
    package func column<T: SQLColumnDecodable>(_ index: Int32, or fallback: T) -> T {
        isNull(index) ? fallback : T.decode(from: handle, at: index)
    }

    private func failure(_ code: Int32) -> StoreError {
        Database.error(code: code, connection: connection, sql: sql)
    }
}
