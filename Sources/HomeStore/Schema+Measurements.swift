extension Schema {
    /// Sizes clients measured and reported (`io.homefeed.ReportSizes`), per target (a profile or
    /// an ad-hoc container) and element id, with the fingerprint of the content they were
    /// measured with. Newer rows have larger ids: trimming drops the smallest first.
    static let measurements = Migration(
        "4-measurements",
        sql: """
            CREATE TABLE measurements (
                id INTEGER PRIMARY KEY,
                target TEXT NOT NULL,
                element_id TEXT NOT NULL,
                fingerprint INTEGER NOT NULL,
                width REAL CHECK (width IS NULL OR width > 0),
                height REAL CHECK (height IS NULL OR height > 0),
                reported_at INTEGER NOT NULL,
                UNIQUE (target, element_id),
                CHECK (width IS NOT NULL OR height IS NOT NULL)
            ) STRICT;
            CREATE INDEX measurements_by_target ON measurements (target, id);
            """
    )

    /// The container each measurement was taken in (a fingerprint of its width, height, scale,
    /// insets, direction and platform, the daemon's): one measured in another container than its
    /// profile's now is stale. Rows stored before have none, and are stale too.
    static let measurementContainer = Migration(
        "6-measurement-container",
        sql: """
            ALTER TABLE measurements ADD COLUMN container_fingerprint INTEGER;
            """
    )
}
