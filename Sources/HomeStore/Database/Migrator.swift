/// A named schema change. Once shipped, a migration is never edited: the next change is a
/// new migration appended to the list.
package struct Migration: Sendable, Hashable {
    /// The name recorded in the `schema_migrations` table, e.g. `"1-initial"`.
    package var identifier: String
    /// The SQL script, run as a whole inside the migration's transaction.
    package var sql: String

    package init(_ identifier: String, sql: String) {
        self.identifier = identifier
        self.sql = sql
    }
}

/// Applies named, ordered migrations, each in its own transaction, and records each one in
/// `schema_migrations(identifier, applied_at)`, in the spirit of GRDB's `DatabaseMigrator`.
///
/// A database that records a migration this code does not know was written by a newer
/// homefeed: ``check(_:)`` refuses it before anything is written. Sendable: immutable.
package struct Migrator: Sendable {
    /// The migrations, oldest first.
    package var migrations: [Migration]
    /// The `PRAGMA application_id` stamped on new files and required of existing ones
    /// (0 for none).
    package var applicationID: Int32

    package init(migrations: [Migration], applicationID: Int32 = 0) {
        self.migrations = migrations
        self.applicationID = applicationID
    }

    /// The table the migrator keeps its record in.
    package static let createTable = """
        CREATE TABLE IF NOT EXISTS schema_migrations (
            identifier TEXT NOT NULL PRIMARY KEY,
            applied_at INTEGER NOT NULL
        ) STRICT
        """

    /// Identifiers recorded in the database, in the order they were applied. Reads only.
    package func appliedIdentifiers(_ db: Database) throws(StoreError) -> [String] {
        let hasTable = try db.scalar(
            "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'schema_migrations'"
        )
        guard hasTable > 0 else { return [] }
        return try db.fetchAll("SELECT identifier FROM schema_migrations ORDER BY rowid") { $0.column(0, or: "") }
    }

    /// Refuses a database this code must not touch. Reads only, so a refused file is never
    /// modified.
    ///
    /// - Throws: ``StoreError/Kind/foreignDatabase(applicationID:)`` when the file carries
    ///   another application's id; ``StoreError/Kind/newerDatabase(unknownMigrations:)``
    ///   when it records migrations this code does not know.
    package func check(_ db: Database) throws(StoreError) {
        let fileID = Int32(truncatingIfNeeded: try db.scalar("PRAGMA application_id"))
        if fileID != 0 && fileID != applicationID {
            throw StoreError(
                kind: .foreignDatabase(applicationID: fileID),
                message: "\(db.path): not a homefeed database (application_id \(fileID)); refusing to open it"
            )
        }
        let known = Set(migrations.map(\.identifier))
        let unknown = try appliedIdentifiers(db).filter { !known.contains($0) }
        if !unknown.isEmpty {
            throw StoreError(
                kind: .newerDatabase(unknownMigrations: unknown),
                message: "\(db.path): written by a newer homefeed (unknown migrations: "
                    + unknown.joined(separator: ", ") + "); refusing to open it, the file is left unchanged"
            )
        }
    }

    /// Applies every migration not yet recorded, in order, up to and including `last`
    /// (all when `nil`), each in its own `BEGIN IMMEDIATE` transaction.
    ///
    /// - Parameters:
    ///   - db: an open connection.
    ///   - last: stop after this identifier; tests use it to build older schemas.
    ///   - appliedAt: the time recorded for each applied migration, in Unix seconds.
    /// - Returns: the identifiers applied by this call.
    /// - Throws: what ``check(_:)`` throws, or the failing migration's ``StoreError``
    ///   (that migration is rolled back; earlier ones stay).
    @discardableResult
    package func migrate(_ db: Database, upTo last: String? = nil, appliedAt: Int64) throws(StoreError) -> [String] {
        try check(db)
        var applied: [String] = []
        for migration in migrations {
            let done = try db.transaction { () throws(StoreError) -> Bool in
                // Re-read inside the write lock: another process may have migrated meanwhile.
                try check(db)
                if try appliedIdentifiers(db).contains(migration.identifier) { return false }
                try db.executeScript(Self.createTable)
                do throws(StoreError) {
                    try db.executeScript(migration.sql)
                } catch {
                    var error = error
                    error.message = "migration \(migration.identifier): " + error.message
                    throw error
                }
                try db.execute(
                    "INSERT INTO schema_migrations (identifier, applied_at) VALUES (?, ?)",
                    [migration.identifier, appliedAt]
                )
                if applicationID != 0 {
                    try db.executeScript("PRAGMA application_id = \(applicationID)")
                }
                return true
            }
            if done { applied.append(migration.identifier) }
            if migration.identifier == last { break }
        }
        return applied
    }
}
