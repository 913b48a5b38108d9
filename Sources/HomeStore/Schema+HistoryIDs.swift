extension Schema {
    /// History ids are never used twice: `AUTOINCREMENT` takes each new id above every id the
    /// table ever held (`sqlite_sequence`), where the rowid of a plain `INTEGER PRIMARY KEY` is
    /// one above the largest present, so trimming the event with the largest id gave its id to
    /// the next one. Clients know an event by its id (`history:ID` in the manifest).
    ///
    /// The table is made anew with the same columns, rows and ids (SQLite's way,
    /// <https://sqlite.org/lang_altertable.html#otheralter>); the sequence starts at the largest
    /// id kept, as an id trimmed before the upgrade left no trace.
    static let historyIDs = Migration(
        "8-history-ids",
        sql: """
            CREATE TABLE history_numbered (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                at INTEGER NOT NULL,
                kind TEXT NOT NULL,
                title TEXT NOT NULL,
                link TEXT
            ) STRICT;
            INSERT INTO history_numbered (id, at, kind, title, link) SELECT id, at, kind, title, link FROM history;
            DROP TABLE history;
            ALTER TABLE history_numbered RENAME TO history;
            CREATE INDEX history_by_time ON history (at);
            """
    )
}
