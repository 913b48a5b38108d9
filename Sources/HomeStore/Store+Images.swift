public import FoundationEssentials

/// Image bookkeeping (`docs/images.md`): fetch state by URL, originals and renditions by
/// content, icons found on pages, and the cache's size with least-recently-used eviction.
/// Files live in the daemon's cache directory; the store only records them.
extension Store {
    // MARK: Image URLs

    /// The records of `urls` that exist, by URL.
    public func images(urls: [String]) throws(StoreError) -> [String: ImageRecord] {
        try rowsByKey(
            urls,
            """
            SELECT url, etag, last_modified, content_hash, fetched_at, checked_at, next_attempt_at, failures,
                last_error, last_used_at
            FROM images WHERE url = ?
            """,
            Self.imageRecord
        )
    }

    /// Inserts or replaces the record of `record.url`.
    public func saveImage(_ record: ImageRecord) throws(StoreError) {
        try database.execute(
            """
            INSERT OR REPLACE INTO images (url, etag, last_modified, content_hash, fetched_at, checked_at,
                next_attempt_at, failures, last_error, last_used_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                record.url, record.validators.etag, record.validators.lastModified, record.contentHash,
                record.fetchedAt, record.checkedAt, record.nextAttempt, record.failures, record.lastError,
                record.lastUsed,
            ]
        )
    }

    static func imageRecord(_ row: Statement) -> ImageRecord {
        ImageRecord(
            url: row.column(0, or: ""),
            validators: Validators(etag: row.column(1), lastModified: row.column(2)),
            contentHash: row.column(3),
            fetchedAt: row.column(4),
            checkedAt: row.column(5),
            nextAttempt: row.column(6),
            failures: row.column(7, or: 0),
            lastError: row.column(8),
            lastUsed: row.column(9, or: Date(timeIntervalSince1970: 0))
        )
    }

    // MARK: Originals

    /// The originals of `hashes` that exist, by hash.
    public func imageOriginals(hashes: [String]) throws(StoreError) -> [String: ImageOriginal] {
        try rowsByKey(
            hashes,
            """
            SELECT content_hash, file, bytes, format, width, height, average_color, decode_error, created_at,
                last_used_at
            FROM image_originals WHERE content_hash = ?
            """,
            Self.imageOriginal
        )
    }

    public func saveImageOriginal(_ original: ImageOriginal) throws(StoreError) {
        try database.execute(
            """
            INSERT OR REPLACE INTO image_originals (content_hash, file, bytes, format, width, height, average_color,
                decode_error, created_at, last_used_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                original.contentHash, original.file, original.bytes, original.format, original.width,
                original.height, original.averageColor, original.decodeError, original.created, original.lastUsed,
            ]
        )
    }

    static func imageOriginal(_ row: Statement) -> ImageOriginal {
        ImageOriginal(
            contentHash: row.column(0, or: ""),
            file: row.column(1, or: ""),
            bytes: row.column(2, or: 0),
            format: row.column(3),
            width: row.column(4),
            height: row.column(5),
            averageColor: row.column(6),
            decodeError: row.column(7),
            created: row.column(8, or: Date(timeIntervalSince1970: 0)),
            lastUsed: row.column(9, or: Date(timeIntervalSince1970: 0))
        )
    }

    // MARK: Renditions

    /// Every rendition of `hashes`.
    public func imageRenditions(hashes: [String]) throws(StoreError) -> [ImageRendition] {
        let statement = try database.statement(
            """
            SELECT content_hash, box_width, box_height, mode, format, file, pixel_width, pixel_height, bytes,
                created_at, last_used_at
            FROM image_renditions WHERE content_hash = ?
            """
        )
        var result: [ImageRendition] = []
        for hash in Set(hashes) { result += try statement.fetchAll([hash], Self.imageRendition) }
        return result
    }

    public func saveImageRendition(_ rendition: ImageRendition) throws(StoreError) {
        try database.execute(
            """
            INSERT OR REPLACE INTO image_renditions (content_hash, box_width, box_height, mode, format, file,
                pixel_width, pixel_height, bytes, created_at, last_used_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                rendition.contentHash, rendition.boxWidth, rendition.boxHeight, rendition.mode, rendition.format,
                rendition.file, rendition.pixelWidth, rendition.pixelHeight, rendition.bytes, rendition.created,
                rendition.lastUsed,
            ]
        )
    }

    static func imageRendition(_ row: Statement) -> ImageRendition {
        ImageRendition(
            contentHash: row.column(0, or: ""),
            boxWidth: row.column(1, or: 0),
            boxHeight: row.column(2, or: 0),
            mode: row.column(3, or: "fill"),
            format: row.column(4, or: "png"),
            file: row.column(5, or: ""),
            pixelWidth: row.column(6, or: 0),
            pixelHeight: row.column(7, or: 0),
            bytes: row.column(8, or: 0),
            created: row.column(9, or: Date(timeIntervalSince1970: 0)),
            lastUsed: row.column(10, or: Date(timeIntervalSince1970: 0))
        )
    }

    // MARK: Page icons

    public func pageIcons(pageURLs: [String]) throws(StoreError) -> [String: PageIconRecord] {
        try rowsByKey(
            pageURLs,
            """
            SELECT page_url, icon_url, checked_at, next_attempt_at, failures, last_error, last_used_at
            FROM page_icons WHERE page_url = ?
            """
        ) { row in
            PageIconRecord(
                pageURL: row.column(0, or: ""),
                iconURL: row.column(1),
                checkedAt: row.column(2),
                nextAttempt: row.column(3),
                failures: row.column(4, or: 0),
                lastError: row.column(5),
                lastUsed: row.column(6, or: Date(timeIntervalSince1970: 0))
            )
        }
    }

    /// The row of each distinct key that has one, read with `sql` (its one parameter is the key).
    private func rowsByKey<Row>(
        _ keys: [String],
        _ sql: String,
        _ row: (Statement) throws(StoreError) -> Row
    ) throws(StoreError) -> [String: Row] {
        let statement = try database.statement(sql)
        var result: [String: Row] = [:]
        for key in Set(keys) {
            if let found = try statement.fetchOne([key], row) { result[key] = found }
        }
        return result
    }

    public func savePageIcon(_ record: PageIconRecord) throws(StoreError) {
        try database.execute(
            """
            INSERT OR REPLACE INTO page_icons (page_url, icon_url, checked_at, next_attempt_at, failures, last_error,
                last_used_at)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """,
            [
                record.pageURL, record.iconURL, record.checkedAt, record.nextAttempt, record.failures,
                record.lastError, record.lastUsed,
            ]
        )
    }

    // MARK: Use and eviction

    /// Marks the images a version shows as used now, at most once per `resolution` (an
    /// unchanged home screen does not rewrite the rows on every version).
    public func touchImages(
        urls: [String],
        pageURLs: [String],
        hashes: [String],
        now: Date = Date(),
        resolution: Int64 = 3_600
    ) throws(StoreError) {
        let seconds = SQLDate.seconds(now)
        let stale = seconds - resolution
        try database.transaction { () throws(StoreError) in
            for (table, key, values) in [
                ("images", "url", urls), ("page_icons", "page_url", pageURLs),
                ("image_originals", "content_hash", hashes), ("image_renditions", "content_hash", hashes),
            ] {
                let statement = try database.statement(
                    "UPDATE \(table) SET last_used_at = ? WHERE \(key) = ? AND last_used_at <= ?"
                )
                for value in Set(values) { try statement.execute([seconds, value, stale]) }
            }
        }
    }

    /// Originals and renditions recorded.
    public func imageCounts() throws(StoreError) -> (originals: Int, renditions: Int) {
        (
            Int(try database.scalar("SELECT count(*) FROM image_originals")),
            Int(try database.scalar("SELECT count(*) FROM image_renditions"))
        )
    }

    /// Bytes of every original and rendition recorded.
    public func imageCacheBytes() throws(StoreError) -> Int {
        Int(
            try database.scalar(
                """
                SELECT (SELECT coalesce(sum(bytes), 0) FROM image_originals)
                    + (SELECT coalesce(sum(bytes), 0) FROM image_renditions)
                """
            )
        )
    }

    /// Forgets the least recently used renditions and originals until the cache holds at most
    /// `maxBytes`, never those of `keeping` (what the current version shows). An evicted
    /// original's URLs keep their renditions; a new size fetches it again.
    ///
    /// - Returns: the files to delete.
    public func evictImages(maxBytes: Int, keeping: Set<String>) throws(StoreError) -> [EvictedImageFile] {
        try database.transaction { () throws(StoreError) -> [EvictedImageFile] in
            var total = try imageCacheBytes()
            guard total > maxBytes else { return [] }
            let candidates = try database.fetchAll(
                """
                SELECT 'r', content_hash, box_width, box_height, mode, file, bytes, last_used_at FROM image_renditions
                UNION ALL
                SELECT 'o', content_hash, 0, 0, '', file, bytes, last_used_at FROM image_originals
                ORDER BY 8, 1 DESC
                """,
                []
            ) { row in
                (
                    kind: row.column(0, or: ""), hash: row.column(1, or: ""), width: row.column(2, or: 0),
                    height: row.column(3, or: 0), mode: row.column(4, or: ""), file: row.column(5, or: ""),
                    bytes: row.column(6, or: 0)
                )
            }
            var evicted: [EvictedImageFile] = []
            for candidate in candidates where total > maxBytes && !keeping.contains(candidate.hash) {
                if candidate.kind == "r" {
                    try database.execute(
                        """
                        DELETE FROM image_renditions WHERE content_hash = ? AND box_width = ? AND box_height = ?
                            AND mode = ?
                        """,
                        [candidate.hash, candidate.width, candidate.height, candidate.mode]
                    )
                } else {
                    try database.execute("DELETE FROM image_originals WHERE content_hash = ?", [candidate.hash])
                }
                total -= candidate.bytes
                evicted.append(EvictedImageFile(file: candidate.file, bytes: candidate.bytes))
            }
            return evicted
        }
    }

    /// Forgets image and page records not used since `cutoff` (their URLs left the screen);
    /// their files go with the cache's eviction.
    @discardableResult
    public func pruneImageRecords(unusedSince cutoff: Date) throws(StoreError) -> Int {
        try database.transaction { () throws(StoreError) -> Int in
            let seconds = SQLDate.seconds(cutoff)
            let before = try database.scalar("SELECT (SELECT count(*) FROM images) + (SELECT count(*) FROM page_icons)")
            try database.execute("DELETE FROM images WHERE last_used_at < ?", [seconds])
            try database.execute("DELETE FROM page_icons WHERE last_used_at < ?", [seconds])
            let after = try database.scalar("SELECT (SELECT count(*) FROM images) + (SELECT count(*) FROM page_icons)")
            return Int(before - after)
        }
    }

    /// The last errors of the image URLs items show (a notice's image, a link's `icon`, a page's
    /// icon) and of pages, and the decode errors of their originals, most recent first: one
    /// line each for `GetStatus`. Candidates a page search tried and passed over are not listed:
    /// the page's own error sums them up.
    public func imageErrors(limit: Int) throws(StoreError) -> [(url: String, error: String)] {
        try database.fetchAll(
            """
            WITH shown (url) AS (
                SELECT image_url FROM notices WHERE image_url IS NOT NULL
                UNION SELECT icon FROM service_links WHERE icon IS NOT NULL
                UNION SELECT icon_url FROM page_icons WHERE icon_url IS NOT NULL
            )
            SELECT url, error, at FROM (
                SELECT url, last_error AS error, coalesce(checked_at, 0) AS at FROM images
                    WHERE last_error IS NOT NULL AND url IN shown
                UNION ALL
                SELECT i.url, o.decode_error, o.created_at FROM images i
                    JOIN image_originals o ON o.content_hash = i.content_hash
                    WHERE o.decode_error IS NOT NULL AND i.url IN shown
                UNION ALL
                SELECT page_url, last_error, coalesce(checked_at, 0) FROM page_icons WHERE last_error IS NOT NULL
            ) ORDER BY at DESC, url LIMIT ?
            """,
            [max(0, limit)]
        ) { row in (url: row.column(0, or: ""), error: row.column(1, or: "")) }
    }
}
