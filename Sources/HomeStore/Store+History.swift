import FoundationEssentials

extension Store {
    /// Records a user action and trims history to ``StoreConfiguration/historyLimit``, in one
    /// transaction. Each event gets a new id, never one an earlier event had
    /// (`AUTOINCREMENT`, migration `8-history-ids`).
    ///
    /// - Returns: the event's id.
    /// - Throws: ``StoreError/Kind/historyEventTooOld(oldestKept:)`` when the history is full and
    ///   the event is older than every one kept, so that the trim would remove it at once:
    ///   nothing is written, and no id is handed out for a row that does not exist.
    @discardableResult
    public func recordHistory(_ event: HistoryInput) throws(StoreError) -> Int64 {
        try database.transaction { () throws(StoreError) -> Int64 in
            try database.execute(
                "INSERT INTO history (at, kind, title, link) VALUES (?, ?, ?, ?)",
                [event.time, event.kind, event.title, event.link]
            )
            let id = database.lastInsertRowID
            try trimHistory()
            guard try database.scalar("SELECT count(*) FROM history WHERE id = ?", [id]) == 0 else { return id }
            let oldest = try database.fetchOne("SELECT min(at) FROM history") { $0.column(0, as: Date.self) } ?? nil
            throw Self.tooOld(event.time, oldestKept: oldest, limit: configuration.historyLimit)
        }
    }

    /// ``StoreError/Kind/historyEventTooOld(oldestKept:)``, saying what is kept.
    private static func tooOld(_ time: Date, oldestKept: Date?, limit: Int) -> StoreError {
        let format = Date.ISO8601FormatStyle()
        let kept =
            oldestKept.map { "the \(limit) events kept are all newer (the oldest at \(format.format($0)))" }
            ?? "the history keeps no events (limit \(limit))"
        return StoreError(
            kind: .historyEventTooOld(oldestKept: oldestKept),
            message: "an event at \(format.format(time)) would be trimmed at once: \(kept)"
        )
    }

    /// The most recent events, newest first (by time, then by id).
    public func recentHistory(limit: Int) throws(StoreError) -> [HistoryEvent] {
        try database.fetchAll(
            "SELECT id, at, title, link, kind FROM history ORDER BY at DESC, id DESC LIMIT ?",
            [max(limit, 0)]
        ) { row in
            HistoryEvent(
                id: row.column(0, or: 0),
                time: row.column(1, or: Date(timeIntervalSince1970: 0)),
                title: row.column(2, or: ""),
                link: row.column(3),
                kind: row.column(4, or: "")
            )
        }
    }

    /// Deletes the events beyond the limit, oldest first (by time, then by id); returns how many.
    ///
    /// The excess is counted (`count(*)` reads the index's page headers, not its entries) and
    /// taken from the oldest end of `history_by_time`, so an insert costs O(excess) plus one
    /// pass over the index's leaf-page headers, not a walk of `limit` entries. Skipping the newest `limit` with `OFFSET` walked that many index entries on
    /// every insert: 10 µs at the sample's 200 and 1.5–1.7 ms at the allowed 100 000, against
    /// 7 µs and 18–26 µs counted (SQLite through Python, nothing to delete, stop 41).
    @discardableResult
    func trimHistory() throws(StoreError) -> Int {
        try database.execute(
            """
            DELETE FROM history WHERE id IN (
                SELECT id FROM history ORDER BY at, id LIMIT max(0, (SELECT count(*) FROM history) - ?))
            """,
            [max(configuration.historyLimit, 0)]
        )
        return database.changes
    }

    /// Stores `manifest` as the last one published for its profile, replacing the previous.
    ///
    /// An upsert rather than `INSERT OR REPLACE`: the row keeps its rowid and index entry, and
    /// SQLite overwrites a record of the same size in place, writing only the pages whose bytes
    /// changed (REPLACE deletes the row, frees its overflow pages and allocates new ones). Four
    /// manifests of 6.7–8.2 kB saved 20 times over, a few bytes changed each time: 12 pages a
    /// save in the write-ahead log before, 4.8 after; 11.8 when their sizes changed each time.
    /// A version whose manifests keep their sizes (an image arriving, a history event of the
    /// same length) thus writes a third of the pages.
    public func saveManifest(_ manifest: StoredManifest) throws(StoreError) {
        try database.transaction { () throws(StoreError) in
            try database.execute(
                """
                INSERT INTO manifests (profile, version, etag, generated_at, bytes) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (profile) DO UPDATE SET version = excluded.version, etag = excluded.etag,
                    generated_at = excluded.generated_at, bytes = excluded.bytes
                """,
                [manifest.profile, manifest.version, manifest.etag, manifest.generatedAt, manifest.bytes]
            )
        }
    }

    /// Stores the manifests of one version, each as the last one of its profile, in one
    /// transaction: all of them or none.
    public func saveManifests(_ manifests: [StoredManifest]) throws(StoreError) {
        try database.transaction { () throws(StoreError) in
            for manifest in manifests { try saveManifest(manifest) }
        }
    }

    /// The last manifest published for `profile`, if any.
    public func loadManifest(profile: String) throws(StoreError) -> StoredManifest? {
        try database.fetchOne(
            "SELECT profile, version, etag, bytes, generated_at FROM manifests WHERE profile = ?",
            [profile],
            Self.manifest
        )
    }

    /// The last manifest of every profile, by profile name.
    public func loadManifests() throws(StoreError) -> [StoredManifest] {
        try database.fetchAll(
            "SELECT profile, version, etag, bytes, generated_at FROM manifests ORDER BY profile",
            [],
            Self.manifest
        )
    }

    static func manifest(_ row: Statement) -> StoredManifest {
        StoredManifest(
            profile: row.column(0, or: ""),
            version: row.column(1, or: 0),
            etag: row.column(2, or: ""),
            bytes: row.column(3, or: []),
            generatedAt: row.column(4, or: Date(timeIntervalSince1970: 0))
        )
    }
}
