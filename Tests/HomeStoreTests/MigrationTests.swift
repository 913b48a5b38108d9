import Foundation
import TestSupport
import Testing

@testable import HomeStore

/// Named migrations: from an empty file, from every earlier version, and refusals.
@Suite struct MigrationTests {
    /// The schema of version 1 ("1-initial") as it shipped, kept verbatim so that editing the
    /// shipped migration, instead of adding one, fails a test.
    static let version1 = """
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

    @Test("shipped migrations are never edited")
    func shippedMigrationsAreFrozen() {
        #expect(
            Schema.migrations.map(\.identifier) == [
                "1-initial", "2-retention", "3-content-digest", "4-measurements", "5-images", "6-measurement-container",
                "7-notice-dates", "8-history-ids",
            ]
        )
        #expect(Schema.initial.sql == Self.version1)
    }

    @Test("an empty file gets every migration, recorded in order, and homefeed's application_id")
    func fromEmpty() async throws {
        let test = try await TestStore()
        #expect(
            try await test.store.appliedMigrations() == [
                "1-initial", "2-retention", "3-content-digest", "4-measurements", "5-images", "6-measurement-container",
                "7-notice-dates", "8-history-ids",
            ]
        )
        #expect(try await test.store.integrityCheck() == ["ok"])
        let db = try Database(path: test.path)
        #expect(try db.scalar("PRAGMA application_id") == Int64(Schema.applicationID))
        #expect(try db.fetchOne("PRAGMA journal_mode") { $0.column(0, or: "") } == "wal")
    }

    @Test("a version-1 file with data is upgraded in place; its rows survive and retention works")
    func fromVersion1() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("v1.sqlite")
        do {
            // Built from the fixture, as a version-1 homefeed left it.
            let db = try Database(path: path)
            try db.executeScript(Migrator.createTable)
            try db.executeScript(Self.version1)
            try db.executeScript(
                """
                INSERT INTO schema_migrations VALUES ('1-initial', 1780000000);
                PRAGMA application_id = \(Schema.applicationID);
                INSERT INTO sources (id, url, kind, title, etag, last_modified, created_at)
                    VALUES (1, 'https://example.org/feed.xml', 'notices', '공지', '"v1"', 'Sat, 19 Sep 2026 10:00:00 GMT',
                    1780000000);
                INSERT INTO notices (source_id, entry_id, title, first_seen_at, last_seen_at, content_hash)
                    VALUES (1, 'old-1', '예전 공지', 1780000000, 1780000000, 42);
                INSERT INTO history (at, kind, title) VALUES (1780000000, 'service', '메일');
                """
            )
        }
        var configuration = StoreConfiguration.unlimited
        configuration.maxEntriesPerSource = 1
        let store = try await Store(path: path, configuration: configuration, now: Clock.t0)
        #expect(
            try await store.appliedMigrations() == [
                "1-initial", "2-retention", "3-content-digest", "4-measurements", "5-images", "6-measurement-container",
                "7-notice-dates", "8-history-ids",
            ]
        )
        let source = try #require(try await store.source(url: "https://example.org/feed.xml"))
        // 5-images forgets the validators, so the next fetch reads the whole document again and
        // the stored notices gain their images (`Schema.images`).
        #expect(source.validators == Validators())
        #expect(source.title == "공지")
        #expect(source.maxEntries == nil)
        #expect(try await store.recentHistory(limit: 10).map(\.title) == ["메일"])
        #expect(try await store.noticeCount(sourceURL: source.url) == 1)

        // The new tables work on the old data: a newer entry pushes the old one to a tombstone.
        let result = try await store.ingestNotices(sourceURL: source.url, entries: entries(count: 1), now: Clock.t0)
        #expect(result.inserted == 1 && result.pruned == 1)
        #expect(try await store.counts().tombstones == 1)
        #expect(try await store.integrityCheck() == ["ok"])
    }

    @Test("migrating stops after the requested migration and resumes from there")
    func stepwise() throws {
        let directory = try TemporaryDirectory()
        let db = try Database(path: directory.file("db.sqlite"))
        #expect(try Schema.migrator.migrate(db, upTo: "1-initial", appliedAt: 1) == ["1-initial"])
        #expect(try Schema.migrator.appliedIdentifiers(db) == ["1-initial"])
        #expect(try db.scalar("SELECT count(*) FROM sqlite_schema WHERE name = 'notice_tombstones'") == 0)
        #expect(try Schema.migrator.migrate(db, upTo: "2-retention", appliedAt: 2) == ["2-retention"])
        #expect(
            try Schema.migrator.migrate(db, appliedAt: 3) == [
                "3-content-digest", "4-measurements", "5-images", "6-measurement-container", "7-notice-dates",
                "8-history-ids",
            ]
        )
        #expect(try Schema.migrator.migrate(db, appliedAt: 4) == [])
    }

    @Test("5-images forgets every source's validators and body digest, so the next fetch reads it whole")
    func imagesRefetchAll() throws {
        let directory = try TemporaryDirectory()
        let db = try Database(path: directory.file("db.sqlite"))
        #expect(try Schema.migrator.migrate(db, upTo: "4-measurements", appliedAt: 1).count == 4)
        try db.executeScript(
            """
            INSERT INTO sources (url, kind, etag, last_modified, content_digest, created_at)
                VALUES ('https://example.org/feed.xml', 'notices', '"v4"', 'Sat, 19 Sep 2026 10:00:00 GMT',
                'sha-256=:AAAA:', 1780000000);
            """
        )
        #expect(try Schema.migrator.migrate(db, upTo: "5-images", appliedAt: 2) == ["5-images"])
        let cleared = try db.scalar(
            "SELECT count(*) FROM sources WHERE etag IS NULL AND last_modified IS NULL AND content_digest IS NULL"
        )
        #expect(cleared == 1)
    }

    @Test("a file written by a newer homefeed is refused with a clear message and left byte-for-byte unchanged")
    func newerFileIsRefused() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("newer.sqlite")
        do {
            let store = try await Store(path: path, now: Clock.t0)
            try await store.upsertSource(SourceInput(url: "https://example.org/a", kind: .notices), now: Clock.t0)
        }
        do {
            let db = try Database(path: path)
            try db.execute("INSERT INTO schema_migrations VALUES ('3-from-the-future', 1)")
            try db.executeScript("PRAGMA wal_checkpoint(TRUNCATE)")
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let listed = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()

        let error = try await #require(throws: StoreError.self) {
            _ = try await Store(path: path, now: Clock.t0)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == listed)
        #expect(error.kind == .newerDatabase(unknownMigrations: ["3-from-the-future"]))
        #expect(error.description.contains("newer homefeed"))
        #expect(error.description.contains("3-from-the-future"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test("a refused file keeps its write-ahead log: neither is changed, nor the log copied into the file")
    func newerFileWithLogIsLeftAsFound() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("newer.sqlite")
        do {
            let store = try await Store(path: path, now: Clock.t0)
            try await store.upsertSource(SourceInput(url: "https://example.org/a", kind: .notices), now: Clock.t0)
        }
        do {
            // A newer homefeed's last commits, still in the log (it was killed, or the power went).
            let db = try Database(path: path)
            try db.executeScript("PRAGMA wal_checkpoint(TRUNCATE)")
            try db.execute("INSERT INTO schema_migrations VALUES ('9-from-the-future', 1)")
            try db.execute("UPDATE sources SET title = 'newer'")
            db.closeWithoutCheckpoint()
        }
        let files = [path, path + "-wal"]
        let before = try files.map { try Data(contentsOf: URL(fileURLWithPath: $0)) }
        #expect(before[1].count > 0)

        let error = try await #require(throws: StoreError.self) {
            _ = try await Store(path: path, now: Clock.t0, recoverIfCorrupt: true)
        }
        #expect(error.kind == .newerDatabase(unknownMigrations: ["9-from-the-future"]))
        #expect(files.map { try? Data(contentsOf: URL(fileURLWithPath: $0)) } == before)
    }

    @Test("6-measurement-container keeps the measurements stored before, without a container")
    func measurementsWithoutContainer() throws {
        let directory = try TemporaryDirectory()
        let db = try Database(path: directory.file("db.sqlite"))
        #expect(try Schema.migrator.migrate(db, upTo: "5-images", appliedAt: 1).count == 5)
        try db.executeScript(
            """
            INSERT INTO measurements (target, element_id, fingerprint, height, reported_at)
                VALUES ('profile:phone', 'history:1', 7, 48, 1780000000);
            """
        )
        let applied = try Schema.migrator.migrate(db, upTo: "6-measurement-container", appliedAt: 2)
        #expect(applied == ["6-measurement-container"])
        #expect(try db.scalar("SELECT count(*) FROM measurements WHERE container_fingerprint IS NULL") == 1)
    }

    @Test("7-notice-dates sorts each notice by its date once that was not after a sighting, keeping rows and ids")
    func noticeDates() throws {
        let directory = try TemporaryDirectory()
        let db = try Database(path: directory.file("db.sqlite"))
        #expect(try Schema.migrator.migrate(db, upTo: "6-measurement-container", appliedAt: 1).count == 6)
        // First seen on 2000-01-01 under a clock that was behind, seen again on 2026-09-21:
        // dated 2026-09-20 (a day before that sighting), dated 2026-09-23 (after every
        // sighting), and undated.
        try db.executeScript(
            """
            INSERT INTO sources (id, url, kind, created_at) VALUES (1, 'https://example.org/feed.xml', 'notices', 946684800);
            INSERT INTO notices (id, source_id, entry_id, published_at, first_seen_at, last_seen_at, content_hash, image_url)
                VALUES (7, 1, 'dated', 1789913600, 946684800, 1790000000, 1, 'https://example.org/a.png'),
                (8, 1, 'future', 1790172800, 946684800, 1790000000, 2, NULL),
                (9, 1, 'undated', NULL, 946684800, 1790000000, 3, NULL);
            """
        )
        #expect(try db.scalar("SELECT sort_at FROM notices WHERE id = 7") == 946_684_800)
        #expect(try Schema.migrator.migrate(db, upTo: "7-notice-dates", appliedAt: 2) == ["7-notice-dates"])
        let rows = try db.fetchAll(
            "SELECT id, entry_id, sort_at, image_url FROM notices ORDER BY sort_at DESC, id DESC"
        ) {
            "\($0.column(0, or: Int64(0))) \($0.column(1, or: "")) \($0.column(2, or: Int64(0))) \($0.column(3, or: "-"))"
        }
        #expect(
            rows == [
                "7 dated 1789913600 https://example.org/a.png", "9 undated 946684800 -", "8 future 946684800 -",
            ]
        )
        #expect(try db.fetchAll("PRAGMA integrity_check") { $0.column(0, or: "") } == ["ok"])
        let indexes = try db.fetchAll(
            "SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'notices' ORDER BY name"
        ) { $0.column(0, or: "") }
        #expect(indexes == ["notices_by_source_time", "notices_by_time", "sqlite_autoindex_notices_1"])
    }

    @Test("8-history-ids keeps every event and its id, and numbers new ones above the largest")
    func historyIDs() throws {
        let directory = try TemporaryDirectory()
        let db = try Database(path: directory.file("db.sqlite"))
        #expect(try Schema.migrator.migrate(db, upTo: "7-notice-dates", appliedAt: 1).count == 7)
        try db.executeScript(
            """
            INSERT INTO history (id, at, kind, title, link) VALUES (4, 1790000000, 'open', '도서관', NULL),
                (9, 1790000060, 'service', '식단', 'https://example.org/menu');
            """
        )
        #expect(try Schema.migrator.migrate(db, appliedAt: 2) == ["8-history-ids"])
        let rows = try db.fetchAll("SELECT id, at, kind, title, link FROM history ORDER BY id") {
            "\($0.column(0, or: Int64(0))) \($0.column(1, or: Int64(0))) \($0.column(2, or: "")) "
                + "\($0.column(3, or: "")) \($0.column(4, or: "-"))"
        }
        #expect(rows == ["4 1790000000 open 도서관 -", "9 1790000060 service 식단 https://example.org/menu"])
        #expect(try db.scalar("SELECT seq FROM sqlite_sequence WHERE name = 'history'") == 9)
        try db.execute("DELETE FROM history WHERE id = 9")
        try db.execute("INSERT INTO history (at, kind, title) VALUES (1790000120, 'open', '열람실')")
        #expect(db.lastInsertRowID == 10)
        #expect(try db.fetchAll("PRAGMA integrity_check") { $0.column(0, or: "") } == ["ok"])
        #expect(try db.scalar("SELECT count(*) FROM sqlite_schema WHERE name = 'history_by_time'") == 1)
    }

    @Test("a database of another application is refused")
    func foreignFileIsRefused() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("other.sqlite")
        do {
            let db = try Database(path: path)
            try db.executeScript("PRAGMA application_id = 1234; CREATE TABLE t (v INTEGER)")
        }
        let error = try await #require(throws: StoreError.self) {
            _ = try await Store(path: path, now: Clock.t0)
        }
        #expect(error.kind == .foreignDatabase(applicationID: 1234))
    }

    @Test("a file that is not SQLite at all gives SQLITE_NOTADB")
    func notADatabase() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("text.sqlite")
        try Data(String(repeating: "not a database\n", count: 100).utf8).write(to: URL(fileURLWithPath: path))
        let error = try await #require(throws: StoreError.self) {
            _ = try await Store(path: path, now: Clock.t0)
        }
        #expect(error.resultCode == .notADatabase)
    }
}
