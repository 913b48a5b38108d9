public import FoundationEssentials
import JSONCore

extension Store {
    /// Stores one fetched document of a notice source, in one transaction: new entries are
    /// inserted, known ones whose content hash changed are updated, the rest only get a new
    /// `lastSeen` (to the hour: it is rewritten when an hour or more old, so re-ingesting an
    /// unchanged document within the hour writes nothing, except for an entry whose date was in
    /// the future at every earlier sighting and is not any more: it moves to that date now);
    /// repeated entry IDs and tombstoned entries are skipped; then the source's retention runs. Either all of it is written or, on any error or crash, none of it.
    /// Entries that have left the feed are kept until retention removes them.
    ///
    /// - Parameters:
    ///   - sourceURL: the configured URL of a ``SourceKind/notices`` source.
    ///   - entries: the document's entries, in document order.
    ///   - now: first/last seen time of the entries, and the retention clock.
    ///   - fetch: the fetch attempt to record in the same transaction, typically
    ///     `.fetched(validators)`, so validators are stored if and only if the document is.
    /// - Returns: what happened to each entry.
    /// - Throws: ``StoreError/Kind/unknownSource(url:)``,
    ///   ``StoreError/Kind/wrongSourceKind(url:kind:)``, ``StoreError/Kind/clockBehind(now:latest:)``
    ///   when `now` is more than a day behind the latest time the store recorded (`checkClock`),
    ///   or an SQLite error (nothing written, `fetch` included).
    @discardableResult
    public func ingestNotices(
        sourceURL: String,
        entries: [NoticeInput],
        now: Date = Date(),
        fetch: FetchRecord? = nil
    ) throws(StoreError) -> IngestResult {
        try database.transaction { () throws(StoreError) -> IngestResult in
            let source = try retentionSource(url: sourceURL, kind: .notices)
            let nowSeconds = SQLDate.seconds(now)
            try checkClock(now: nowSeconds, dates: entries.map(\.published))
            var result = try ingest(
                entries,
                sourceID: source.id,
                cutoff: source.maxAge.map { nowSeconds - $0 },
                now: nowSeconds
            )
            result.pruned = try prune(source, now: nowSeconds)
            if let fetch { try apply(fetch, toSource: source.id) }
            return result
        }
    }

    private func ingest(_ entries: [NoticeInput], sourceID: Int64, cutoff: Int64?, now: Int64) throws(StoreError)
        -> IngestResult
    {
        let lookup = try database.statement(
            """
            SELECT id, content_hash, last_seen_at, image_url, first_seen_at FROM notices
            WHERE source_id = ? AND entry_id = ?
            """
        )
        let setImage = try database.statement("UPDATE notices SET image_url = ? WHERE id = ?")
        let touch = try database.statement("UPDATE notices SET last_seen_at = ? WHERE id = ?")
        let update = try database.statement(
            """
            UPDATE notices SET title = ?, link = ?, published_at = ?, summary = ?, last_seen_at = ?, content_hash = ?
            WHERE id = ?
            """
        )
        let insert = try database.statement(
            """
            INSERT INTO notices (source_id, entry_id, title, link, published_at, summary, first_seen_at, last_seen_at,
                content_hash, image_url)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """
        )
        let tombstone = try database.statement(
            "SELECT last_seen_at FROM notice_tombstones WHERE source_id = ? AND entry_id = ?"
        )
        let touchTombstone = try database.statement(
            "UPDATE notice_tombstones SET last_seen_at = ? WHERE source_id = ? AND entry_id = ?"
        )

        var result = IngestResult()
        // By bytes, as the table's UNIQUE (source_id, entry_id) and the parser compare ids:
        // Swift's String equality would merge `café` spelled with U+00E9 and with e + U+0301.
        var seen = Set<EntryKey>(minimumCapacity: entries.count)
        for (index, entry) in entries.enumerated() {
            if index > 0 && index % 1_000 == 0, let hook = ingestProgressHook { hook(index) }
            guard !entry.entryID.isEmpty else {
                result.skipped += 1
                continue
            }
            guard seen.insert(EntryKey(entry.entryID)).inserted else {
                result.duplicates += 1
                continue
            }
            let published = entry.published.map(SQLDate.seconds)
            let hash = ContentHash.of(entry, publishedSeconds: published)

            try lookup.bind(sourceID, at: 1)
            try lookup.bind(entry.entryID, at: 2)
            let known: (id: Int64, hash: Int64, lastSeen: Int64, imageURL: String?, firstSeen: Int64)? =
                try lookup.step()
                ? (
                    lookup.column(0, or: 0), lookup.column(1, or: 0), lookup.column(2, or: 0), lookup.column(3),
                    lookup.column(4, or: 0)
                ) : nil
            lookup.reset()

            if let known {
                if known.imageURL != entry.imageURL {
                    try setImage.bind(entry.imageURL, at: 1)
                    try setImage.bind(known.id, at: 2)
                    try run(setImage)
                }
                if known.hash == hash {
                    // A date more than a day after the first sighting, in the future at every
                    // earlier one, is the notice's from this one on (`sort_at`,
                    // Schema.noticeDates): it moves in the order.
                    let redated =
                        published.map {
                            $0 > known.lastSeen && $0 <= now && $0 - known.firstSeen > Self.futureDateTolerance
                        } ?? false
                    // Otherwise lastSeen moves on at most once per resolution step: rewriting
                    // every row of a large unchanged feed on each poll would rewrite the table.
                    if redated || known.lastSeen <= now - Self.lastSeenResolution {
                        try touch.bind(now, at: 1)
                        try touch.bind(known.id, at: 2)
                        try run(touch)
                    }
                    if redated || known.imageURL != entry.imageURL {
                        result.updated += 1
                    } else {
                        result.unchanged += 1
                    }
                } else {
                    try update.bind(entry.title, at: 1)
                    try update.bind(entry.link, at: 2)
                    try update.bind(published, at: 3)
                    try update.bind(entry.summary, at: 4)
                    try update.bind(now, at: 5)
                    try update.bind(hash, at: 6)
                    try update.bind(known.id, at: 7)
                    try run(update)
                    result.updated += 1
                }
                continue
            }

            // New to the table: too old for retention, or removed before?
            if let cutoff, min(published ?? now, now) < cutoff {
                result.skipped += 1
                continue
            }
            try tombstone.bind(sourceID, at: 1)
            try tombstone.bind(entry.entryID, at: 2)
            let tombstoneSeen: Int64? = try tombstone.step() ? tombstone.column(0, or: 0) : nil
            tombstone.reset()
            if let tombstoneSeen {
                // Keep the tombstone alive while the entry is still in the feed
                // (StoreConfiguration.tombstoneGrace); at most one write per hour.
                if tombstoneSeen < now - 3_600 {
                    try touchTombstone.bind(now, at: 1)
                    try touchTombstone.bind(sourceID, at: 2)
                    try touchTombstone.bind(entry.entryID, at: 3)
                    try run(touchTombstone)
                }
                result.skipped += 1
                continue
            }

            try insert.bind(sourceID, at: 1)
            try insert.bind(entry.entryID, at: 2)
            try insert.bind(entry.title, at: 3)
            try insert.bind(entry.link, at: 4)
            try insert.bind(published, at: 5)
            try insert.bind(entry.summary, at: 6)
            try insert.bind(now, at: 7)
            try insert.bind(now, at: 8)
            try insert.bind(hash, at: 9)
            try insert.bind(entry.imageURL, at: 10)
            try run(insert)
            result.inserted += 1
        }
        return result
    }

    /// Seconds: an unchanged entry's `lastSeen` is only rewritten when it is at least this old.
    static let lastSeenResolution: Int64 = 3_600

    /// How far after its first sighting a notice may be dated and still be ordered by that
    /// sighting for good (seconds; the literal in `Schema.noticeDates`' `sort_at` too): a feed
    /// that writes its local time as UTC dates every entry up to 14 hours ahead, and those
    /// entries would otherwise jump to the top again when their dates came. Further ahead, the
    /// store's clock was behind when it saw the entry, and the date orders it once it is seen
    /// on or after it.
    static let futureDateTolerance: Int64 = 86_400

    /// Steps a write statement to completion and resets it.
    private func run(_ statement: Statement) throws(StoreError) {
        defer { statement.reset() }
        while try statement.step() {}
    }

    /// Number of notices stored for the source at `sourceURL`.
    public func noticeCount(sourceURL: String) throws(StoreError) -> Int {
        let id = try sourceID(url: sourceURL)
        return Int(try database.scalar("SELECT count(*) FROM notices WHERE source_id = ?", [id]))
    }

    /// The newest notices of every source, newest first (by ``StoredNotice/sortDate``, then most
    /// recently stored).
    public func newestNotices(limit: Int) throws(StoreError) -> [StoredNotice] {
        try database.fetchAll(
            """
            SELECT \(Self.noticeColumns) FROM notices n JOIN sources s ON s.id = n.source_id
            ORDER BY n.sort_at DESC, n.id DESC LIMIT ?
            """,
            [max(limit, 0)],
            Self.notice
        )
    }

    /// The newest notices of the sources at `sourceURLs`, newest first, at most `limit`: exactly
    /// those, however many newer notices other sources hold (a source removed from the
    /// configuration keeps its rows, and may hold the newest ones). The URLs go in as one JSON
    /// array (`json_each`), so the statements are the same whatever the number of sources, and
    /// only what is returned becomes Swift values.
    ///
    /// Two ways, in one read transaction: first the ``newestNoticesWalk`` newest notices of every
    /// source are walked, which holds the answer whenever `limit` of them are the sources' (the
    /// usual case: nothing newer is skipped). Otherwise, when the walk did not see every
    /// notice, each source's own newest are read through `notices_by_source_time`, and the
    /// newest `limit` of those kept.
    public func newestNotices(of sourceURLs: [String], limit: Int) throws(StoreError) -> [StoredNotice] {
        guard limit > 0, !sourceURLs.isEmpty else { return [] }
        let list = JSONWriter.encode(pretty: false, capacity: 256) { json in
            json.beginArray()
            for url in sourceURLs { json.string(url) }
            json.endArray()
        }
        let urls = String(decoding: list, as: UTF8.self)
        let walk = Self.newestNoticesWalk(limit: limit)
        return try database.readTransaction { () throws(StoreError) -> [StoredNotice] in
            // The subquery walks `notices_by_time` newest first and stops after `walk` rows; the
            // `CROSS JOIN` keeps it the outer loop, with each source looked up by its key.
            let walked = try database.fetchAll(
                """
                SELECT \(Self.noticeColumns)
                FROM (SELECT * FROM notices ORDER BY sort_at DESC, id DESC LIMIT ?) n
                CROSS JOIN sources s ON s.id = n.source_id
                WHERE s.url IN (SELECT value FROM json_each(?)) ORDER BY n.sort_at DESC, n.id DESC LIMIT ?
                """,
                [walk, urls, limit],
                Self.notice
            )
            // A walk short because it saw every row holds the answer too: a small store (the
            // sample's five notices, every version) is spared the per-source read, ~20 µs more.
            guard walked.count < limit,
                try database.scalar("SELECT count(*) FROM (SELECT 1 FROM notices LIMIT ?)", [walk + 1]) > walk
            else { return walked }
            // Sources outer, each one's rows in `notices_by_source_time` order inner: under the
            // ORDER BY … LIMIT, SQLite leaves a source's rows as soon as they can no longer make
            // the newest `limit`, and the columns are read for the `limit` kept.
            return try database.fetchAll(
                """
                WITH newest(id) AS (
                    SELECT n.id FROM sources s CROSS JOIN notices n ON n.source_id = s.id
                    WHERE s.url IN (SELECT value FROM json_each(?1))
                    ORDER BY n.sort_at DESC, n.id DESC LIMIT ?2
                )
                SELECT \(Self.noticeColumns)
                FROM newest CROSS JOIN notices n ON n.id = newest.id JOIN sources s ON s.id = n.source_id
                ORDER BY n.sort_at DESC, n.id DESC
                """,
                [urls, limit],
                Self.notice
            )
        }
    }

    /// The rows of every source ``newestNotices(of:limit:)`` walks first for `limit` notices:
    /// enough that sources left out of the configuration with a few recent notices do not send
    /// it to the per-source read, whose cost grows with the number of sources (7.8 ms against
    /// the walk's 0.8 ms for 200 sources of 200 notices, each source's in a span of its own;
    /// SQLite 3.40).
    static func newestNoticesWalk(limit: Int) -> Int { min(limit, 1 << 40) * 5 }

    /// The newest notices of the source at `sourceURL`, newest first; none when the store has
    /// no such source. The source is found by its URL's index and its rows read in
    /// `notices_by_source_time` order, so the cost is `limit` rows, not the source's all.
    public func newestNotices(sourceURL: String, limit: Int) throws(StoreError) -> [StoredNotice] {
        try database.fetchAll(
            """
            SELECT \(Self.noticeColumns) FROM sources s CROSS JOIN notices n ON n.source_id = s.id
            WHERE s.url = ? ORDER BY n.sort_at DESC, n.id DESC LIMIT ?
            """,
            [sourceURL, max(limit, 0)],
            Self.notice
        )
    }

    /// The stored notice with `entryID` from the source at `sourceURL`, if any.
    public func notice(sourceURL: String, entryID: String) throws(StoreError) -> StoredNotice? {
        try database.fetchOne(
            """
            SELECT \(Self.noticeColumns) FROM notices n JOIN sources s ON s.id = n.source_id
            WHERE s.url = ? AND n.entry_id = ?
            """,
            [sourceURL, entryID],
            Self.notice
        )
    }

    static let noticeColumns = """
        n.id, n.source_id, s.url, s.title, n.entry_id, n.title, n.link, n.published_at, n.summary,
        n.first_seen_at, n.last_seen_at, n.content_hash, n.sort_at, n.image_url
        """

    static func notice(_ row: Statement) -> StoredNotice {
        StoredNotice(
            id: row.column(0, or: 0),
            sourceID: row.column(1, or: 0),
            sourceURL: row.column(2, or: ""),
            sourceTitle: row.column(3),
            entryID: row.column(4, or: ""),
            title: row.column(5),
            link: row.column(6),
            published: row.column(7),
            summary: row.column(8),
            firstSeen: row.column(9, or: Date(timeIntervalSince1970: 0)),
            lastSeen: row.column(10, or: Date(timeIntervalSince1970: 0)),
            contentHash: row.column(11, or: 0),
            sortDate: row.column(12, or: Date(timeIntervalSince1970: 0)),
            imageURL: row.column(13)
        )
    }
}

/// An entry id compared and hashed by its UTF-8 bytes.
private struct EntryKey: Hashable {
    let id: String

    init(_ id: String) { self.id = id }

    static func == (lhs: EntryKey, rhs: EntryKey) -> Bool { lhs.id.utf8.elementsEqual(rhs.id.utf8) }

    func hash(into hasher: inout Hasher) {
        // A copy to make contiguous if it is not (a native String already is: no copy made).
        var bytes = id
        bytes.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}
