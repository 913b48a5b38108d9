extension Schema {
    /// A notice's date orders it once it was not in the future at one of its sightings: `sort_at`
    /// is `published_at` when that is not after `last_seen_at`, else `first_seen_at`. It was
    /// `published_at` capped at `first_seen_at`, so every notice first seen under a clock that
    /// was behind (a device without a battery-backed clock, before NTP) sorted, and aged, from
    /// that wrong first sighting, and the next retention pass removed it for good.
    ///
    /// A generated column's expression cannot be altered: the table is made anew with the same
    /// columns, in the same order, and the same rows and ids, and its indexes built again on the
    /// new `sort_at` (SQLite's way, <https://sqlite.org/lang_altertable.html#otheralter>).
    static let noticeDates = Migration(
        "7-notice-dates",
        sql: """
            CREATE TABLE notices_dated (
                id INTEGER PRIMARY KEY,
                source_id INTEGER NOT NULL REFERENCES sources (id) ON DELETE CASCADE,
                entry_id TEXT NOT NULL,
                title TEXT,
                link TEXT,
                published_at INTEGER,
                summary TEXT,
                first_seen_at INTEGER NOT NULL,
                last_seen_at INTEGER NOT NULL,
                content_hash INTEGER NOT NULL,
                sort_at INTEGER NOT NULL GENERATED ALWAYS AS
                    (CASE WHEN published_at <= last_seen_at THEN published_at ELSE first_seen_at END) VIRTUAL,
                image_url TEXT,
                UNIQUE (source_id, entry_id)
            ) STRICT;
            INSERT INTO notices_dated (id, source_id, entry_id, title, link, published_at, summary, first_seen_at,
                last_seen_at, content_hash, image_url)
            SELECT id, source_id, entry_id, title, link, published_at, summary, first_seen_at, last_seen_at,
                content_hash, image_url
            FROM notices;
            DROP TABLE notices;
            ALTER TABLE notices_dated RENAME TO notices;
            CREATE INDEX notices_by_source_time ON notices (source_id, sort_at);
            CREATE INDEX notices_by_time ON notices (sort_at);
            """
    )
}
