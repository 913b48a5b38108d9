extension Schema {
    /// A notice's date orders it unless it was in the future when the notice was first seen:
    /// `sort_at` is `published_at` when that is not after `first_seen_at`, or not after
    /// `last_seen_at` and more than a day after `first_seen_at`
    /// (``Store/futureDateTolerance``), else `first_seen_at`. A date a few hours ahead is a
    /// feed's time zone written as UTC, and the entry keeps its first sighting's place; one
    /// further ahead was seen under a clock that was behind, and takes its date once seen on or
    /// after it. It was
    /// `published_at` capped at `first_seen_at`, so every notice first seen under a clock that
    /// was behind (a device without a battery-backed clock, before NTP) sorted, and aged, from
    /// that wrong first sighting, and the next retention pass removed it for good.
    ///
    /// A generated column's expression cannot be altered: the table is made anew with the same
    /// columns, in the same order, and the same rows and ids, and its indexes built again on the
    /// new `sort_at` (SQLite's way, <https://sqlite.org/lang_altertable.html#otheralter>).
    /// Notices whose source row is gone (deleted by hand, with foreign keys off as the `sqlite3`
    /// shell has them) are not copied: no source shows them, and copying them would fail the
    /// foreign key and so the upgrade.
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
                    (CASE WHEN published_at <= first_seen_at
                        OR (published_at <= last_seen_at AND published_at - first_seen_at > 86400)
                        THEN published_at ELSE first_seen_at END) VIRTUAL,
                image_url TEXT,
                UNIQUE (source_id, entry_id)
            ) STRICT;
            INSERT INTO notices_dated (id, source_id, entry_id, title, link, published_at, summary, first_seen_at,
                last_seen_at, content_hash, image_url)
            SELECT id, source_id, entry_id, title, link, published_at, summary, first_seen_at, last_seen_at,
                content_hash, image_url
            FROM notices WHERE source_id IN (SELECT id FROM sources);
            DROP TABLE notices;
            ALTER TABLE notices_dated RENAME TO notices;
            CREATE INDEX notices_by_source_time ON notices (source_id, sort_at);
            CREATE INDEX notices_by_time ON notices (sort_at);
            """
    )
}
