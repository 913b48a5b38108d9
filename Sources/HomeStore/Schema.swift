/// homefeed's schema, as named migrations. `docs/storage.md` documents the resulting tables
/// for administrators; keep the two in step.
///
/// Times are whole Unix seconds (INTEGER); booleans are 0/1. Never edit a migration that has
/// shipped: append a new one.
enum Schema {
    /// `PRAGMA application_id` of a homefeed store: "hfd1" in ASCII.
    static let applicationID: Int32 = 0x6866_6431

    /// The migrator over all migrations, oldest first.
    static let migrator = Migrator(migrations: migrations, applicationID: applicationID)

    static let migrations: [Migration] = [
        initial, retention, contentDigest, measurements, images, measurementContainer, noticeDates, historyIDs,
    ]

    /// Sources, notices, service links, history and the last manifest per profile.
    static let initial = Migration(
        "1-initial",
        sql: """
            CREATE TABLE sources (
                id INTEGER PRIMARY KEY,
                url TEXT NOT NULL UNIQUE,
                kind TEXT NOT NULL CHECK (kind IN ('notices', 'services')),
                title TEXT,
                section TEXT,
                etag TEXT,
                last_modified TEXT,
                last_attempt_at INTEGER,
                last_success_at INTEGER,
                next_attempt_at INTEGER,
                consecutive_failures INTEGER NOT NULL DEFAULT 0,
                last_error TEXT,
                redirect_url TEXT,
                is_gone INTEGER NOT NULL DEFAULT 0 CHECK (is_gone IN (0, 1)),
                created_at INTEGER NOT NULL
            ) STRICT;

            CREATE TABLE notices (
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
                    (coalesce(min(published_at, first_seen_at), first_seen_at)) VIRTUAL,
                UNIQUE (source_id, entry_id)
            ) STRICT;
            CREATE INDEX notices_by_source_time ON notices (source_id, sort_at);
            CREATE INDEX notices_by_time ON notices (sort_at);

            CREATE TABLE service_links (
                id INTEGER PRIMARY KEY,
                source_id INTEGER NOT NULL REFERENCES sources (id) ON DELETE CASCADE,
                section TEXT NOT NULL,
                position INTEGER NOT NULL,
                title TEXT NOT NULL,
                url TEXT NOT NULL,
                icon TEXT,
                description TEXT
            ) STRICT;
            CREATE INDEX service_links_by_section ON service_links (section, position);
            CREATE INDEX service_links_by_source ON service_links (source_id);

            CREATE TABLE history (
                id INTEGER PRIMARY KEY,
                at INTEGER NOT NULL,
                kind TEXT NOT NULL,
                title TEXT NOT NULL,
                link TEXT
            ) STRICT;
            CREATE INDEX history_by_time ON history (at);

            CREATE TABLE manifests (
                profile TEXT NOT NULL PRIMARY KEY,
                version INTEGER NOT NULL,
                etag TEXT NOT NULL,
                generated_at INTEGER NOT NULL,
                bytes BLOB NOT NULL
            ) STRICT;
            """
    )

    /// Per-source retention limits and tombstones of removed notices.
    static let retention = Migration(
        "2-retention",
        sql: """
            ALTER TABLE sources ADD COLUMN max_entries INTEGER CHECK (max_entries >= 0);
            ALTER TABLE sources ADD COLUMN max_age_seconds INTEGER CHECK (max_age_seconds >= 0);

            CREATE TABLE notice_tombstones (
                source_id INTEGER NOT NULL REFERENCES sources (id) ON DELETE CASCADE,
                entry_id TEXT NOT NULL,
                removed_at INTEGER NOT NULL,
                last_seen_at INTEGER NOT NULL,
                PRIMARY KEY (source_id, entry_id)
            ) STRICT, WITHOUT ROWID;
            CREATE INDEX notice_tombstones_by_last_seen ON notice_tombstones (last_seen_at);
            """
    )

    /// The digest of the last ingested body of each source, stored with its validators.
    static let contentDigest = Migration(
        "3-content-digest",
        sql: """
            ALTER TABLE sources ADD COLUMN content_digest TEXT;
            """
    )
}
