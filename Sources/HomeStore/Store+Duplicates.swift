extension StoreOpening {
    /// Deletes the rows that repeat the key of a UNIQUE index, keeping the one with the lowest
    /// rowid (the one stored first), then rebuilds every index (`REINDEX`), in one transaction.
    /// A damaged unique index can have let such rows in, and `REINDEX` alone then fails on the
    /// constraint. The rows are grouped by a scan of each table (`NOT INDEXED`), never through
    /// the index that let them in; the rows that depend on a deleted one go with it by their
    /// foreign keys (`ON DELETE CASCADE`: a repeated source takes its notices, links and
    /// tombstones), and the rows whose parent is gone all the same (a cascade that missed them
    /// through a damaged index) after them. `WITHOUT ROWID` tables, whose key is the table
    /// itself, cannot repeat it, and rows with a `NULL` in the key do not repeat it either, as
    /// for SQLite.
    ///
    /// - Returns: the rows removed per table, cascaded deletions included; tables that lost
    ///   none are left out.
    /// - Throws: ``StoreError``: a deletion that meets more damage (`SQLITE_CORRUPT_INDEX`), or
    ///   `REINDEX` still failing. Nothing is deleted then.
    static func removeRepeatedKeys(_ db: Database) throws(StoreError) -> [String: Int] {
        try db.transaction { () throws(StoreError) -> [String: Int] in
            let tables = try db.fetchAll(
                "SELECT name, wr FROM pragma_table_list WHERE schema = 'main' AND type = 'table' AND name NOT LIKE 'sqlite%'"
            ) { (name: $0.column(0, or: ""), withoutRowID: $0.column(1, or: 0) != 0) }
            let before = try rowCounts(db, tables.map(\.name))
            for table in tables where !table.withoutRowID {
                for key in try uniqueKeys(db, of: table.name) {
                    let columns = key.map(quoted).joined(separator: ", ")
                    let notNull = key.map { "\(quoted($0)) IS NOT NULL" }.joined(separator: " AND ")
                    let name = quoted(table.name)
                    try db.executeScript(
                        """
                        DELETE FROM \(name) NOT INDEXED WHERE \(notNull)
                        AND rowid NOT IN (SELECT min(rowid) FROM \(name) NOT INDEXED GROUP BY \(columns))
                        """
                    )
                }
            }
            try db.executeScript("REINDEX")
            // A cascade finds the dependent rows through their foreign key's index, which may be
            // damaged too: the rows it missed, and any other row whose parent is gone, are
            // deleted in each table `foreign_key_check` names (`integrity_check` does not look),
            // by their key, as a `WITHOUT ROWID` table's orphans come without a rowid.
            let orphaned = try db.fetchAll("SELECT DISTINCT \"table\" FROM pragma_foreign_key_check ORDER BY 1") {
                $0.column(0, or: "")
            }
            for table in orphaned {
                let keys = try db.fetchAll(
                    "SELECT \"from\", \"table\", \"to\" FROM pragma_foreign_key_list(?)",
                    [table]
                ) {
                    (
                        from: $0.column(0, as: String.self), parent: $0.column(1, as: String.self),
                        to: $0.column(2, as: String.self)
                    )
                }
                for key in keys {
                    guard let from = key.from, let parent = key.parent, let to = key.to else { continue }
                    try db.executeScript(
                        "DELETE FROM \(quoted(table)) WHERE \(quoted(from)) NOT IN (SELECT \(quoted(to)) FROM \(quoted(parent)))"
                    )
                }
            }
            let after = try rowCounts(db, tables.map(\.name))
            return before.filter { $0.value > after[$0.key, default: 0] }.reduce(into: [:]) {
                $0[$1.key] = $1.value - after[$1.key, default: 0]
            }
        }
    }

    /// The columns of each UNIQUE index of `table` (its `UNIQUE` and non-rowid `PRIMARY KEY`
    /// constraints included) that is neither partial nor on an expression.
    private static func uniqueKeys(_ db: Database, of table: String) throws(StoreError) -> [[String]] {
        let indexes = try db.fetchAll(
            "SELECT name FROM pragma_index_list(?) WHERE \"unique\" = 1 AND partial = 0 ORDER BY name",
            [table]
        ) { $0.column(0, or: "") }
        var keys: [[String]] = []
        for index in indexes {
            let columns = try db.fetchAll("SELECT name FROM pragma_index_info(?) ORDER BY seqno", [index]) {
                $0.column(0, as: String.self)
            }
            let named = columns.compactMap { $0 }
            if !named.isEmpty && named.count == columns.count { keys.append(named) }
        }
        return keys
    }

    /// Rows per table, each counted by a scan of the table: an index may be what is wrong.
    private static func rowCounts(_ db: Database, _ tables: [String]) throws(StoreError) -> [String: Int] {
        var counts: [String: Int] = [:]
        for table in tables {
            counts[table] = Int(try db.scalar("SELECT count(*) FROM \(quoted(table)) NOT INDEXED"))
        }
        return counts
    }

    /// `name` as an SQL identifier.
    private static func quoted(_ name: String) -> String {
        "\"" + name.replacing("\"", with: "\"\"") + "\""
    }
}
