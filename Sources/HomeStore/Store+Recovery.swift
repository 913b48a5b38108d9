import FoundationEssentials
import Glibc

/// What opening a store did about a corrupt file (``Store/recovery``): the file was moved
/// aside and a fresh one started, with what could still be read out of the old one.
///
/// Sendable: a plain value.
public struct StoreRecovery: Sendable, Hashable {
    /// Why the file was judged corrupt: `PRAGMA quick_check`'s first finding, or the SQLite
    /// error opening it met (code and message, never SQL or bound values).
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
    /// Opens `path` and brings its schema up to date. With `recoverIfCorrupt`, a file that
    /// fails `PRAGMA quick_check` or that SQLite reports as corrupt while opening is moved aside
    /// and a fresh file takes its place, holding the manifests and history still readable.
    /// Files of another program or of a newer homefeed are refused either way, never moved.
    static func open(
        path: String,
        busyTimeout: Duration,
        appliedAt: Int64,
        now: Date,
        recoverIfCorrupt: Bool
    ) throws(StoreError) -> (Database, StoreRecovery?) {
        let db = try Database(path: path, busyTimeout: busyTimeout)
        let damage: String
        do throws(StoreError) {
            // Refuse before the journal-mode switch: a refused file is never written to.
            try Schema.migrator.check(db)
            if recoverIfCorrupt, let finding = try quickCheckFinding(db) {
                damage = finding
            } else {
                try db.enableWAL()
                try Schema.migrator.migrate(db, appliedAt: appliedAt)
                return (db, nil)
            }
        } catch  where recoverIfCorrupt && error.isCorruption {
            damage = error.summary
        }
        let manifests = salvage(salvageManifests, from: db, Store.manifest)
        let history = salvage(salvageHistory, from: db) { row throws(StoreError) in historyInput(row) }
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
            for event in history {
                try fresh.execute(
                    "INSERT INTO history (at, kind, title, link) VALUES (?, ?, ?, ?)",
                    [event.time, event.kind, event.title, event.link]
                )
            }
        }
        let recovery = StoreRecovery(
            reason: damage,
            movedTo: movedTo,
            salvagedManifests: manifests.count,
            salvagedHistory: history.count
        )
        return (fresh, recovery)
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
    static let salvageHistory = "SELECT at, kind, title, link FROM history ORDER BY id"

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

    /// nil when `PRAGMA quick_check` says `ok`, else its first finding and how many follow.
    static func quickCheckFinding(_ db: Database) throws(StoreError) -> String? {
        let lines = try check(db, "PRAGMA quick_check")
        if lines == ["ok"] { return nil }
        let findings = lines.filter { !$0.hasPrefix("*** in database") }
        guard let first = findings.first else { return "quick_check: " + lines.joined(separator: "; ") }
        let more = findings.count - 1
        return "quick_check: \(first)" + (more > 0 ? " (and \(more) more)" : "")
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
