public import FoundationEssentials

extension Store {
    static let sourceColumns = """
        id, url, kind, title, section, etag, last_modified, last_attempt_at, last_success_at,
        next_attempt_at, consecutive_failures, last_error, redirect_url, is_gone, max_entries, max_age_seconds,
        content_digest
        """

    static func source(_ row: Statement) -> Source {
        Source(
            id: row.column(0, or: 0),
            url: row.column(1, or: ""),
            kind: SourceKind(rawValue: row.column(2, or: "")) ?? .notices,
            title: row.column(3),
            section: row.column(4),
            validators: Validators(etag: row.column(5), lastModified: row.column(6), contentDigest: row.column(16)),
            lastAttempt: row.column(7),
            lastSuccess: row.column(8),
            nextAttempt: row.column(9),
            consecutiveFailures: row.column(10, or: 0),
            lastError: row.column(11),
            permanentRedirect: row.column(12),
            isGone: row.column(13, or: false),
            maxEntries: row.column(14),
            maxAge: row.column(15, as: Int64.self).map { .seconds($0) }
        )
    }

    /// Adds a configured source, or updates its kind, title, section and retention limits
    /// when its URL is known. Fetch state (validators, failures, redirect, gone) is kept:
    /// re-reading the configuration does not revive a gone source; ``resetFetchState(sourceURL:)``
    /// does.
    ///
    /// - Returns: the stored source.
    @discardableResult
    public func upsertSource(_ input: SourceInput, now: Date = Date()) throws(StoreError) -> Source {
        try database.transaction { () throws(StoreError) -> Source in try upsert(input, now: now) }
    }

    /// ``upsertSource(_:now:)`` for a whole configuration, in one transaction.
    @discardableResult
    public func upsertSources(_ inputs: [SourceInput], now: Date = Date()) throws(StoreError) -> [Source] {
        try database.transaction { () throws(StoreError) -> [Source] in
            var sources: [Source] = []
            for input in inputs { sources.append(try upsert(input, now: now)) }
            return sources
        }
    }

    private func upsert(_ input: SourceInput, now: Date) throws(StoreError) -> Source {
        let sql = """
            INSERT INTO sources (url, kind, title, section, max_entries, max_age_seconds, created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (url) DO UPDATE SET
                kind = excluded.kind, title = excluded.title, section = excluded.section,
                max_entries = excluded.max_entries, max_age_seconds = excluded.max_age_seconds
            RETURNING \(Self.sourceColumns)
            """
        let source = try database.fetchOne(
            sql,
            [
                input.url, input.kind.rawValue, input.title, input.section, input.maxEntries.map { max($0, 0) },
                input.maxAge.map { max(Self.seconds($0), 0) }, now,
            ]
        ) { Self.source($0) }
        guard let source else {
            throw StoreError(kind: .sqlite(.error), message: "upsert returned no row", sql: sql)
        }
        return source
    }

    /// Removes a source with its notices, tombstones and service links.
    ///
    /// - Returns: whether a source was removed.
    @discardableResult
    public func removeSource(url: String) throws(StoreError) -> Bool {
        try database.transaction { () throws(StoreError) -> Bool in
            try database.execute("DELETE FROM sources WHERE url = ?", [url])
            return database.changes > 0
        }
    }

    /// All sources, in the order they were first added.
    public func sources() throws(StoreError) -> [Source] {
        try database.fetchAll("SELECT \(Self.sourceColumns) FROM sources ORDER BY id") { Self.source($0) }
    }

    /// The source stored under `url`, if any.
    public func source(url: String) throws(StoreError) -> Source? {
        try database.fetchOne("SELECT \(Self.sourceColumns) FROM sources WHERE url = ?", [url]) { Self.source($0) }
    }

    /// Sources to fetch by `now`: not gone, with no next attempt or one at or before `now`,
    /// earliest first.
    public func dueSources(now: Date) throws(StoreError) -> [Source] {
        try database.fetchAll(
            """
            SELECT \(Self.sourceColumns) FROM sources
            WHERE is_gone = 0 AND (next_attempt_at IS NULL OR next_attempt_at <= ?)
            ORDER BY coalesce(next_attempt_at, 0), id
            """,
            [now]
        ) { Self.source($0) }
    }

    /// Records one fetch attempt of the source at `url` (see ``FetchRecord.Outcome`` for what each
    /// outcome changes). For a `200`, ingest first and record after, or pass the record to
    /// the ingest so both happen in one transaction: validators must never be stored for a
    /// document that was not.
    ///
    /// - Returns: the updated source.
    /// - Throws: ``StoreError/Kind/unknownSource(url:)`` when no source has that URL.
    @discardableResult
    public func recordFetch(sourceURL: String, _ record: FetchRecord) throws(StoreError) -> Source {
        try database.transaction { () throws(StoreError) -> Source in
            let id = try sourceID(url: sourceURL)
            try apply(record, toSource: id)
            guard
                let source = try database.fetchOne(
                    "SELECT \(Self.sourceColumns) FROM sources WHERE id = ?",
                    [id],
                    Self.source
                )
            else {
                throw StoreError(kind: .unknownSource(url: sourceURL), message: "no source \(sourceURL)")
            }
            return source
        }
    }

    /// Forgets a source's fetch state: validators, times, failures, error, redirect and the
    /// gone flag. The next fetch is unconditional and due at once. Stored notices stay.
    public func resetFetchState(sourceURL: String) throws(StoreError) {
        try database.transaction { () throws(StoreError) in
            let id = try sourceID(url: sourceURL)
            try database.execute(
                """
                UPDATE sources SET etag = NULL, last_modified = NULL, content_digest = NULL, last_attempt_at = NULL,
                    last_success_at = NULL, next_attempt_at = NULL, consecutive_failures = 0, last_error = NULL, redirect_url = NULL,
                    is_gone = 0
                WHERE id = ?
                """,
                [id]
            )
        }
    }

    /// Sets the permanent-redirect URL of a source (`nil` clears it).
    public func setPermanentRedirect(sourceURL: String, to target: String?) throws(StoreError) {
        try database.transaction { () throws(StoreError) in
            let id = try sourceID(url: sourceURL)
            try database.execute("UPDATE sources SET redirect_url = ? WHERE id = ?", [target, id])
        }
    }

    func apply(_ record: FetchRecord, toSource id: Int64) throws(StoreError) {
        let at = record.attemptedAt
        let next = record.nextAttempt
        switch record.outcome {
        case .fetched(let validators):
            try database.execute(
                """
                UPDATE sources SET etag = ?, last_modified = ?, content_digest = ?, last_attempt_at = ?,
                    last_success_at = ?, next_attempt_at = ?, consecutive_failures = 0, last_error = NULL, is_gone = 0
                WHERE id = ?
                """,
                [validators.etag, validators.lastModified, validators.contentDigest, at, at, next, id]
            )
        case .notModified:
            try database.execute(
                """
                UPDATE sources SET last_attempt_at = ?, last_success_at = ?, next_attempt_at = ?,
                    consecutive_failures = 0, last_error = NULL, is_gone = 0
                WHERE id = ?
                """,
                [at, at, next, id]
            )
        case .failed(let error):
            try database.execute(
                """
                UPDATE sources SET last_attempt_at = ?, next_attempt_at = ?,
                    consecutive_failures = consecutive_failures + 1, last_error = ?
                WHERE id = ?
                """,
                [at, next, error, id]
            )
        case .gone(let message):
            try database.execute(
                """
                UPDATE sources SET last_attempt_at = ?, next_attempt_at = NULL,
                    consecutive_failures = consecutive_failures + 1, last_error = ?, is_gone = 1
                WHERE id = ?
                """,
                [at, message, id]
            )
        }
        try database.execute(
            "UPDATE sources SET redirect_url = ? WHERE id = ? AND redirect_url IS NOT ?",
            [record.permanentRedirect, id, record.permanentRedirect]
        )
    }

    func sourceID(url: String) throws(StoreError) -> Int64 {
        guard
            let id = try database.fetchOne(
                "SELECT id FROM sources WHERE url = ?",
                [url],
                { $0.column(0, or: Int64(0)) }
            )
        else {
            throw StoreError(kind: .unknownSource(url: url), message: "no source is stored for \(url)")
        }
        return id
    }

    /// Whole seconds of a configured duration, clamped to ±2^60 so that subtracting it from
    /// a stored time (±2^53, see `SQLDate`) cannot overflow.
    static func seconds(_ duration: Duration) -> Int64 {
        min(max(duration.components.seconds, -(1 << 60)), 1 << 60)
    }
}
