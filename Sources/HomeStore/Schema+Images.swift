extension Schema {
    /// Images the home screen shows: fetch state by URL, originals and renditions by content
    /// (SHA-256), icons found on service pages, and the image URL of each notice
    /// (`docs/images.md`, `docs/storage.md`).
    ///
    /// Every source's validators and body digest are cleared, so the first fetch after the
    /// upgrade reads each document in full (no `304`, no digest match) and the notices and
    /// links stored before gain their images and icons.
    static let images = Migration(
        "5-images",
        sql: """
            ALTER TABLE notices ADD COLUMN image_url TEXT;
            UPDATE sources SET etag = NULL, last_modified = NULL, content_digest = NULL;

            CREATE TABLE images (
                url TEXT NOT NULL PRIMARY KEY,
                etag TEXT,
                last_modified TEXT,
                content_hash TEXT,
                fetched_at INTEGER,
                checked_at INTEGER,
                next_attempt_at INTEGER,
                failures INTEGER NOT NULL DEFAULT 0,
                last_error TEXT,
                last_used_at INTEGER NOT NULL
            ) STRICT, WITHOUT ROWID;
            CREATE INDEX images_by_content ON images (content_hash);

            CREATE TABLE image_originals (
                content_hash TEXT NOT NULL PRIMARY KEY,
                file TEXT NOT NULL,
                bytes INTEGER NOT NULL,
                format TEXT,
                width INTEGER,
                height INTEGER,
                average_color TEXT,
                decode_error TEXT,
                created_at INTEGER NOT NULL,
                last_used_at INTEGER NOT NULL
            ) STRICT, WITHOUT ROWID;

            CREATE TABLE image_renditions (
                content_hash TEXT NOT NULL,
                box_width INTEGER NOT NULL,
                box_height INTEGER NOT NULL,
                mode TEXT NOT NULL CHECK (mode IN ('fill', 'fit')),
                format TEXT NOT NULL,
                file TEXT NOT NULL,
                pixel_width INTEGER NOT NULL,
                pixel_height INTEGER NOT NULL,
                bytes INTEGER NOT NULL,
                created_at INTEGER NOT NULL,
                last_used_at INTEGER NOT NULL,
                PRIMARY KEY (content_hash, box_width, box_height, mode)
            ) STRICT, WITHOUT ROWID;
            CREATE INDEX image_renditions_by_use ON image_renditions (last_used_at);

            CREATE TABLE page_icons (
                page_url TEXT NOT NULL PRIMARY KEY,
                icon_url TEXT,
                checked_at INTEGER,
                next_attempt_at INTEGER,
                failures INTEGER NOT NULL DEFAULT 0,
                last_error TEXT,
                last_used_at INTEGER NOT NULL
            ) STRICT, WITHOUT ROWID;
            """
    )
}
