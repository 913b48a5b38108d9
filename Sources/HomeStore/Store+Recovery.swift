import FoundationEssentials
import Glibc

/// What opening a store did about a corrupt file (``Store/recovery``): the file was moved
/// aside and a fresh one started, with what could still be read out of the old one.
///
/// Sendable: a plain value.
public struct StoreRecovery: Sendable, Hashable {
    /// Why the file was judged corrupt: the first finding of `PRAGMA quick_check` (or of
    /// `integrity_check`, with the full check), or the SQLite error opening it met (code and
    /// message, never SQL or bound values).
    public var reason: String
    /// Where the corrupt file is now: `<path>.corrupt-<UTC time>`, its `-wal` and `-shm`
    /// companions beside it under the same name, so `sqlite3` opens it as it was.
    public var movedTo: String
    /// Manifests read back from the corrupt file into the fresh one (the last one per profile).
    public var salvagedManifests: Int
    /// History events read back the same way; the user's history cannot be fetched again.
    public var salvagedHistory: Int

    public init(reason: String, movedTo: String, salvagedManifests: Int, salvagedHistory: Int) {
        self.reason = reason
        self.movedTo = movedTo
        self.salvagedManifests = salvagedManifests
        self.salvagedHistory = salvagedHistory
    }
}

extension StoreError {
    /// `SQLITE_CORRUPT` or `SQLITE_NOTADB` (any extended form): the file's contents are damaged.
    public var isCorruption: Bool {
        guard let primary = resultCode?.primary else { return false }
        return primary == .corrupt || primary == .notADatabase
    }

    /// Code and message without the SQL: `SQLITE_BUSY (5): database is locked`.
    public var summary: String {
        resultCode.map { "\($0): \(message)" } ?? message
    }
}

/// Opening the file, and the recovery from a corrupt one. Runs on the store's queue before the
/// actor exists; a plain namespace over ``Database``.
enum StoreOpening {
    /// What ``open(path:busyTimeout:appliedAt:now:recoverIfCorrupt:fullCheck:stop:)`` made of the file.
    struct Opened {
        var database: Database
        var recovery: StoreRecovery?
        var indexRepair: String?
        var removedDuplicates: [String: Int] = [:]
    }

    /// Opens `path` and brings its schema up to date. With `recoverIfCorrupt`, a file that
    /// fails `PRAGMA quick_check` (`integrity_check` with `fullCheck`, whose index findings
    /// alone are mended by `REINDEX`) or that SQLite reports as corrupt while opening is moved
    /// aside and a fresh file takes its place, holding the manifests and history still readable.
    /// Files of another program or of a newer homefeed are refused either way, never moved.
    static func open(
        path: String,
        busyTimeout: Duration,
        appliedAt: Int64,
        now: Date,
        recoverIfCorrupt: Bool,
        fullCheck: Bool,
        stop: StoreOpeningStop? = nil
    ) throws(StoreError) -> Opened {
        let hadLog = FileManager.default.fileExists(atPath: path + "-wal")
        let db = try Database(path: path, busyTimeout: busyTimeout)
        let damage: String
        do throws(StoreError) {
            // Refuse before the journal-mode switch: a refused file is never written to.
            try Schema.migrator.check(db)
            let check = { () throws(StoreError) -> CheckOutcome? in
                if !recoverIfCorrupt {
                    nil
                } else if fullCheck {
                    try fullCheckOutcome(db)
                } else {
                    try quickCheckFinding(db).map(CheckOutcome.damaged)
                }
            }
            let outcome: CheckOutcome?
            if let stop { outcome = try stop.interruptible(db, check) } else { outcome = try check() }
            if case .damaged(let finding)? = outcome {
                damage = finding
            } else {
                try db.enableWAL()
                try Schema.migrator.migrate(db, appliedAt: appliedAt)
                guard case .repaired(let finding, let removed)? = outcome else { return Opened(database: db) }
                return Opened(database: db, indexRepair: finding, removedDuplicates: removed)
            }
        } catch  where recoverIfCorrupt && error.isCorruption {
            damage = error.summary
        } catch {
            leaveAsFound(db, hadLog: hadLog)
            throw error
        }
        let manifests = salvage(salvageManifests, from: db, Store.manifest)
        let history = salvage(salvageHistory, from: db) { row throws(StoreError) in
            (id: row.column(4, or: Int64(0)), event: historyInput(row))
        }
        // Ids stay, and so does the largest ever given: clients know events by their ids.
        let lastHistoryID = salvage(salvageHistorySequence, from: db) { $0.column(0, or: Int64(0)) }.first ?? 0
        db.closeWithoutCheckpoint()
        let movedTo = try moveAside(path, at: now)

        let fresh = try Database(path: path, busyTimeout: busyTimeout)
        try Schema.migrator.check(fresh)
        try fresh.enableWAL()
        try Schema.migrator.migrate(fresh, appliedAt: appliedAt)
        try fresh.transaction { () throws(StoreError) in
            for manifest in manifests {
                try fresh.execute(
                    "INSERT OR REPLACE INTO manifests (profile, version, etag, generated_at, bytes) VALUES (?, ?, ?, ?, ?)",
                    [manifest.profile, manifest.version, manifest.etag, manifest.generatedAt, manifest.bytes]
                )
            }
            for (id, event) in history {
                try fresh.execute(
                    "INSERT OR IGNORE INTO history (id, at, kind, title, link) VALUES (?, ?, ?, ?, ?)",
                    [id, event.time, event.kind, event.title, event.link]
                )
            }
            if lastHistoryID > 0 {
                try fresh.execute(
                    "UPDATE sqlite_sequence SET seq = max(seq, ?) WHERE name = 'history'",
                    [lastHistoryID]
                )
                try fresh.execute(
                    """
                    INSERT INTO sqlite_sequence (name, seq) SELECT 'history', ?
                    WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'history')
                    """,
                    [lastHistoryID]
                )
            }
        }
        let recovery = StoreRecovery(
            reason: damage,
            movedTo: movedTo,
            salvagedManifests: manifests.count,
            salvagedHistory: history.count
        )
        return Opened(database: fresh, recovery: recovery)
    }

    /// Closes the connection to a refused file (another program's, a newer homefeed's) and
    /// leaves the file as it was found: its write-ahead log is not copied into it, as closing
    /// as usual does, and when it had no log, the empty one reading it made goes again, with its
    /// shared-memory index.
    static func leaveAsFound(_ db: Database, hadLog: Bool) {
        db.closeWithoutCheckpoint()
        let log = db.path + "-wal"
        guard !hadLog, (try? FileManager.default.attributesOfItem(atPath: log)[.size] as? Int) == 0 else { return }
        unlink(log)
        unlink(db.path + "-shm")
    }

    /// The rows of `sql` that can still be read: a damaged page ends the scan, and the rows
    /// read before it are kept (the history cannot be fetched again).
    static func salvage<T>(
        _ sql: String,
        from db: Database,
        _ row: (Statement) throws(StoreError) -> T
    ) -> [T] {
        guard let statement = try? db.statement(sql) else { return [] }
        defer { statement.reset() }
        var rows: [T] = []
        while (try? statement.step()) == true {
            if let value = try? row(statement) { rows.append(value) }
        }
        return rows
    }

    static let salvageManifests = "SELECT profile, version, etag, bytes, generated_at FROM manifests ORDER BY profile"
    static let salvageHistory = "SELECT at, kind, title, link, id FROM history ORDER BY id"
    static let salvageHistorySequence = "SELECT seq FROM sqlite_sequence WHERE name = 'history'"

    static func historyInput(_ row: Statement) -> HistoryInput {
        HistoryInput(
            time: row.column(0, or: Date(timeIntervalSince1970: 0)),
            title: row.column(2, or: ""),
            link: row.column(3),
            kind: row.column(1, or: "open")
        )
    }

    /// The lines of a check pragma; a check that SQLite itself fails with a corruption error
    /// gives that error as its one line.
    static func check(_ db: Database, _ pragma: String) throws(StoreError) -> [String] {
        do throws(StoreError) {
            return try db.fetchAll(pragma) { $0.column(0, or: "") }
        } catch  where error.isCorruption {
            return [error.summary]
        }
    }

    /// What a check at open found wrong.
    enum CheckOutcome {
        /// Damage the recovery moves aside: the check's first finding and how many follow.
        case damaged(String)
        /// Index entries that disagreed with their tables, which `REINDEX` mended; the same words,
        /// and the rows removed per table because they repeated a unique key
        /// (``removeRepeatedKeys(_:)``), empty when none did.
        case repaired(String, removed: [String: Int])
    }

    /// nil when `PRAGMA quick_check` says `ok`, else its first finding and how many follow.
    static func quickCheckFinding(_ db: Database) throws(StoreError) -> String? {
        let lines = try check(db, "PRAGMA quick_check")
        return lines == ["ok"] ? nil : describe("quick_check", findings(lines), lines)
    }

    /// nil when `PRAGMA integrity_check` says `ok`. When its only findings are index entries
    /// that disagree with their tables, `REINDEX` rebuilds every index from its table and the
    /// check runs again: `.repaired` when it then says `ok`. Anything else is `.damaged`. A
    /// `REINDEX` that fails on a UNIQUE constraint met rows that a damaged unique index let in
    /// with a key another row has: those are deleted (``removeRepeatedKeys(_:)``) and `REINDEX`
    /// runs again; `.damaged` only when that fails too.
    static func fullCheckOutcome(_ db: Database) throws(StoreError) -> CheckOutcome? {
        let lines = try check(db, "PRAGMA integrity_check")
        if lines == ["ok"] { return nil }
        let findings = findings(lines)
        let found = describe("integrity_check", findings, lines)
        guard !findings.isEmpty, findings.allSatisfy(isIndexFinding) else { return .damaged(found) }
        var removed: [String: Int] = [:]
        do throws(StoreError) {
            try db.executeScript("REINDEX")
        } catch  where error.resultCode?.primary == .constraint {
            // A UNIQUE index over rows that are not unique: the one stored first of each stays.
            do throws(StoreError) {
                removed = try removeRepeatedKeys(db)
            } catch  where error.isCorruption || error.resultCode?.primary == .constraint {
                return .damaged(found + "; REINDEX after removing repeated keys: " + error.summary)
            }
        } catch  where error.isCorruption {
            return .damaged(found + "; REINDEX: " + error.summary)
        }
        let after = try check(db, "PRAGMA integrity_check")
        if after == ["ok"] { return .repaired(found, removed: removed) }
        return .damaged(describe("integrity_check after REINDEX", self.findings(after), after))
    }

    /// The findings of a check's lines, without the `*** in database main ***` headers.
    private static func findings(_ lines: [String]) -> [String] {
        lines.filter { !$0.hasPrefix("*** in database") }
    }

    /// `quick_check: <first finding> (and N more)`.
    private static func describe(_ check: String, _ findings: [String], _ lines: [String]) -> String {
        guard let first = findings.first else { return "\(check): " + lines.joined(separator: "; ") }
        let more = findings.count - 1
        return "\(check): \(first)" + (more > 0 ? " (and \(more) more)" : "")
    }

    /// Whether an `integrity_check` finding is an index entry that disagrees with its table
    /// (SQLite 3.40's `row N missing from index I`, `wrong # of entries in index I`, `non-unique
    /// entry in index I`), which `REINDEX` mends: it rebuilds every index from its table.
    static func isIndexFinding(_ finding: String) -> Bool {
        (finding.hasPrefix("row ") && finding.contains(" missing from index "))
            || finding.hasPrefix("wrong # of entries in index ") || finding.hasPrefix("non-unique entry in index ")
    }

    /// Renames `path` (and its `-wal` and `-shm` files) to `<path>.corrupt-<UTC time>`, adding
    /// `.2`, `.3` … when that name is taken.
    ///
    /// - Returns: the new path of the database file.
    static func moveAside(_ path: String, at now: Date) throws(StoreError) -> String {
        let stamp = now.formatted(Date.ISO8601FormatStyle(dateSeparator: .omitted, timeSeparator: .omitted))
        var target = "\(path).corrupt-\(stamp)"
        var attempt = 1
        while FileManager.default.fileExists(atPath: target) {
            attempt += 1
            target = "\(path).corrupt-\(stamp).\(attempt)"
        }
        // The WAL first: a fresh file must never meet the old file's WAL, which SQLite would
        // replay into it.
        for suffix in ["-wal", "-shm", ""] where FileManager.default.fileExists(atPath: path + suffix) {
            guard rename(path + suffix, target + suffix) == 0 else {
                throw StoreError(
                    kind: .sqlite(.cantOpen),
                    message:
                        "cannot move the corrupt file \(path + suffix) aside: rename: \(String(cString: strerror(errno)))"
                )
            }
        }
        return target
    }
}
