public import FoundationEssentials

extension Store {
    /// A source's id with its effective retention limits (its own, else the store's).
    struct RetentionSource {
        var id: Int64
        var maxEntries: Int?
        /// Seconds.
        var maxAge: Int64?
    }

    /// The source at `url`, which must be of `kind`, with its effective limits.
    func retentionSource(url: String, kind: SourceKind) throws(StoreError) -> RetentionSource {
        let row = try database.fetchOne(
            "SELECT id, kind, max_entries, max_age_seconds FROM sources WHERE url = ?",
            [url]
        ) { row in
            (
                id: row.column(0, or: Int64(0)), kind: row.column(1, or: ""), maxEntries: row.column(2, as: Int.self),
                maxAge: row.column(3, as: Int64.self)
            )
        }
        guard let row else {
            throw StoreError(kind: .unknownSource(url: url), message: "no source is stored for \(url)")
        }
        let stored = SourceKind(rawValue: row.kind) ?? .notices
        guard stored == kind else {
            throw StoreError(
                kind: .wrongSourceKind(url: url, kind: stored),
                message: "\(url) is a \(stored.rawValue) source, not a \(kind.rawValue) source"
            )
        }
        return effective(id: row.id, maxEntries: row.maxEntries, maxAge: row.maxAge)
    }

    private func effective(id: Int64, maxEntries: Int?, maxAge: Int64?) -> RetentionSource {
        RetentionSource(
            id: id,
            maxEntries: maxEntries ?? configuration.maxEntriesPerSource.map { max($0, 0) },
            maxAge: maxAge ?? configuration.maxAge.map { max(Self.seconds($0), 0) }
        )
    }

    /// Moves the source's notices beyond its limits to tombstones: first those older than
    /// its maximum age, then the oldest beyond its maximum count. Index range scans only,
    /// so it is cheap when nothing is over the limits.
    ///
    /// A notice's age is its date's when that date is not after `now`, whatever the clock said
    /// when the notice was seen. Undated, or dated after `now`, it has only the store's own
    /// sightings to go by, and those may have been taken under a clock that was behind (a device
    /// without a battery-backed clock, before NTP): such a notice goes once it has been missing
    /// from its feed's documents for the maximum age, as a tombstone is forgotten
    /// (``expireTombstones(of:before:)``), never only because it was first seen long ago.
    ///
    /// - Returns: notices removed.
    func prune(_ source: RetentionSource, now: Int64) throws(StoreError) -> Int {
        var removed = 0
        if let maxAge = source.maxAge {
            let cutoff = now - maxAge
            // Every notice too old by either rule sorts before the cutoff (`sort_at` is its date
            // when that was not after a sighting, else its first sighting, and neither is after
            // its last), so a source with nothing there costs one index probe.
            let candidate = try database.fetchOne(
                "SELECT 1 FROM notices WHERE source_id = ? AND sort_at < ? LIMIT 1",
                [source.id, cutoff]
            ) { _ in true }
            if candidate != nil, let lastRead = try lastRead(of: source.id) {
                let tooOld = """
                    source_id = ?2 AND sort_at < ?3
                    AND CASE WHEN published_at <= ?1 THEN published_at < ?3 ELSE last_seen_at < ?4 END
                    """
                let arguments: [(any SQLBindable)?] = [
                    now, source.id, cutoff, min(cutoff, lastRead - Self.lastSeenResolution),
                ]
                try database.execute(
                    """
                    INSERT OR REPLACE INTO notice_tombstones (source_id, entry_id, removed_at, last_seen_at)
                    SELECT source_id, entry_id, ?1, last_seen_at FROM notices WHERE \(tooOld)
                    """,
                    arguments
                )
                try database.execute("DELETE FROM notices WHERE \(tooOld)", arguments)
                removed += database.changes
            }
        }
        if let maxEntries = source.maxEntries {
            // The newest notice past the limit; it and everything older go.
            let boundary = try database.fetchOne(
                "SELECT sort_at, id FROM notices WHERE source_id = ? ORDER BY sort_at DESC, id DESC LIMIT 1 OFFSET ?",
                [source.id, maxEntries]
            ) { (sortAt: $0.column(0, or: Int64(0)), id: $0.column(1, or: Int64(0))) }
            if let boundary {
                try database.execute(
                    """
                    INSERT OR REPLACE INTO notice_tombstones (source_id, entry_id, removed_at, last_seen_at)
                    SELECT source_id, entry_id, ?, last_seen_at FROM notices
                    WHERE source_id = ? AND (sort_at, id) <= (?, ?)
                    """,
                    [now, source.id, boundary.sortAt, boundary.id]
                )
                try database.execute(
                    "DELETE FROM notices WHERE source_id = ? AND (sort_at, id) <= (?, ?)",
                    [source.id, boundary.sortAt, boundary.id]
                )
                removed += database.changes
            }
        }
        return removed
    }

    /// When the feed of `source` was last parsed, to within ``lastSeenResolution``: every entry
    /// in that document had its notice or tombstone seen then, so the latest sighting of any
    /// tells that time. nil when it has neither.
    private func lastRead(of source: Int64) throws(StoreError) -> Int64? {
        let lastRead = try database.fetchOne(
            """
            SELECT max(seen) FROM (
                SELECT max(last_seen_at) AS seen FROM notices WHERE source_id = ?1
                UNION ALL SELECT max(last_seen_at) FROM notice_tombstones WHERE source_id = ?1)
            """,
            [source]
        ) { $0.column(0, as: Int64.self) }
        return lastRead ?? nil
    }

    /// Forgets the tombstones of `source` last seen before `cutoff` and before the feed's last
    /// document (``lastRead(of:)``).
    ///
    /// - Returns: tombstones removed.
    private func expireTombstones(of source: Int64, before cutoff: Int64) throws(StoreError) -> Int {
        guard let lastRead = try lastRead(of: source) else { return 0 }
        try database.execute(
            "DELETE FROM notice_tombstones WHERE source_id = ? AND last_seen_at < ?",
            [source, min(cutoff, lastRead - Self.lastSeenResolution)]
        )
        return database.changes
    }

    /// Applies retention everywhere, in one transaction: every notice source's limits
    /// (removed notices become tombstones), deletes the notices and tombstones of sources that
    /// are services sources (a URL whose outline became a list of links), forgets tombstones
    /// whose entries have not been seen for ``StoreConfiguration/tombstoneGrace`` of reading
    /// their feed, and trims history
    /// to ``StoreConfiguration/historyLimit``. An ingest already prunes its own source; run this
    /// periodically (the daemon does, hourly) so age limits apply to sources that stopped
    /// updating.
    ///
    /// The grace is counted while the feed is read: a tombstone goes once its entry was
    /// missing from the feed's documents for that long. A feed that has not changed since
    /// (answered `304`, or the same bytes, so not parsed) still holds every entry it held then,
    /// so tombstones seen in its last document stay, however old: forgotten, an undated entry
    /// of it would come back as new when the feed next changes.
    ///
    /// - Returns: what was removed.
    /// - Throws: ``StoreError/Kind/clockBehind(now:latest:)`` when `now` is more than a day
    ///   behind the latest time the store recorded (nothing removed), or an SQLite error.
    @discardableResult
    public func applyRetention(now: Date = Date()) throws(StoreError) -> RetentionReport {
        try database.transaction { () throws(StoreError) -> RetentionReport in
            let nowSeconds = SQLDate.seconds(now)
            try checkClock(now: nowSeconds)
            var report = RetentionReport()
            let sources = try database.fetchAll(
                "SELECT id, max_entries, max_age_seconds FROM sources WHERE kind = 'notices' ORDER BY id"
            ) { effective(id: $0.column(0, or: 0), maxEntries: $0.column(1), maxAge: $0.column(2)) }
            for source in sources {
                report.prunedNotices += try prune(source, now: nowSeconds)
            }
            // A URL whose outline became a list of links: nothing shows its notices, and no limit
            // of a notices source reaches them. Deleted, not tombstoned: its feed is not read.
            try database.execute(
                "DELETE FROM notice_tombstones WHERE source_id IN (SELECT id FROM sources WHERE kind <> 'notices')"
            )
            report.expiredTombstones += database.changes
            try database.execute(
                "DELETE FROM notices WHERE source_id IN (SELECT id FROM sources WHERE kind <> 'notices')"
            )
            report.servicesSourceNotices = database.changes
            let graceCutoff = nowSeconds - Self.seconds(configuration.tombstoneGrace)
            let withTombstones = try database.fetchAll(
                "SELECT DISTINCT source_id FROM notice_tombstones WHERE last_seen_at < ?",
                [graceCutoff]
            ) { $0.column(0, or: Int64(0)) }
            for source in withTombstones {
                report.expiredTombstones += try expireTombstones(of: source, before: graceCutoff)
            }
            report.trimmedHistory = try trimHistory()
            return report
        }
    }
}
