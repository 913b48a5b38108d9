import Foundation
import TestSupport
import Testing

@testable import HomeStore

/// Damaged files: quick_check and integrity_check find them, opening with `recoverIfCorrupt`
/// moves them aside and salvages what can still be read; a lock held elsewhere fails the probe.
@Suite(.timeLimit(.minutes(1)))
struct RecoveryTests {
    /// A store with one source, three notices, two history events and one manifest, closed
    /// and checkpointed so that everything is in the main file.
    static func filledStore(at path: String) async throws {
        do {
            let store = try await Store(path: path, configuration: .unlimited, now: Clock.t0)
            try await store.upsertSource(
                SourceInput(url: "https://example.org/feed.xml", kind: .notices),
                now: Clock.t0
            )
            _ = try await store.ingestNotices(
                sourceURL: "https://example.org/feed.xml",
                entries: entries(count: 3),
                now: Clock.t0
            )
            try await store.recordHistory(HistoryInput(time: Clock.t0, title: "도서관", kind: "service"))
            try await store.recordHistory(HistoryInput(time: Clock.at(60), title: "식단", kind: "service"))
            try await store.saveManifest(
                StoredManifest(
                    profile: "phone",
                    version: 7,
                    etag: "\"v7\"",
                    bytes: Array("{}".utf8),
                    generatedAt: Clock.t0
                )
            )
        }
        let db = try Database(path: path)
        try db.executeScript("PRAGMA wal_checkpoint(TRUNCATE)")
    }

    /// Overwrites page `number` (from 1; 4 096-byte pages) with a fixed non-page pattern.
    static func overwrite(page number: Int, of path: String, count: Int = 4096) throws {
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
        try handle.seek(toOffset: UInt64((number - 1) * 4096))
        handle.write(Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 151 &+ 7) }))
        try handle.close()
    }

    static func rootPage(of table: String, in path: String) throws -> Int {
        let db = try Database(path: path)
        return Int(try db.scalar("SELECT rootpage FROM sqlite_schema WHERE name = ?", [table]))
    }

    @Test("a sound file passes quick_check, integrity_check and the write probe")
    func soundFile() async throws {
        let test = try await TestStore()
        #expect(try await test.store.quickCheck() == ["ok"])
        #expect(try await test.store.integrityCheck() == ["ok"])
        try await test.store.checkWritable()
        #expect(test.store.recovery == nil)
    }

    @Test(
        "a damaged notices table: integrity_check reports it; opening with recovery moves the file aside and keeps manifests and history"
    )
    func damagedTable() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("store.sqlite")
        try await Self.filledStore(at: path)
        try Self.overwrite(page: try Self.rootPage(of: "notices", in: path), of: path)

        // Without recovery the file opens (only its header and migrations are read) and the
        // on-demand check finds the damage: SQLite fails on the page itself.
        do {
            let damaged = try await Store(path: path, now: Clock.t0)
            let findings = try await damaged.integrityCheck(maxProblems: 5)
            #expect(findings.first?.hasPrefix("SQLITE_CORRUPT") == true, "\(findings)")
        }

        let store = try await Store(path: path, configuration: .unlimited, now: Clock.t0, recoverIfCorrupt: true)
        let recovery = try #require(store.recovery)
        // Clock.t0 is 1 790 000 000 s after the epoch: 20 717 days (2026-09-21) and 51 200 s
        // (14:13:20) UTC.
        #expect(recovery.movedTo == path + ".corrupt-20260921T141320Z")
        #expect(FileManager.default.fileExists(atPath: recovery.movedTo))
        #expect(recovery.salvagedManifests == 1)
        #expect(recovery.salvagedHistory == 2)
        #expect(!recovery.reason.isEmpty)
        let counts = try await store.counts()
        #expect(counts.notices == 0)
        #expect(counts.sources == 0)
        #expect(counts.historyEvents == 2)
        #expect(try await store.loadManifest(profile: "phone")?.etag == "\"v7\"")
        #expect(try await store.recentHistory(limit: 5).map(\.title) == ["식단", "도서관"])
        #expect(try await store.quickCheck() == ["ok"])
    }

    @Test("a recovery keeps the history's ids and never gives one again")
    func recoveredHistoryIDs() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("store.sqlite")
        try await Self.filledStore(at: path)
        var ids: [Int64] = []
        do {
            // A third event, the oldest, so that a lower limit trims the largest id.
            let store = try await Store(path: path, configuration: .unlimited, now: Clock.t0)
            try await store.recordHistory(HistoryInput(time: Clock.at(-60), title: "열람실", kind: "service"))
            var configuration = StoreConfiguration.unlimited
            configuration.historyLimit = 2
            let lowered = try await Store(path: path, configuration: configuration, now: Clock.t0)
            #expect(try await lowered.applyRetention(now: Clock.t0).trimmedHistory == 1)
            ids = try await lowered.recentHistory(limit: 5).map(\.id)
        }
        try Database(path: path).executeScript("PRAGMA wal_checkpoint(TRUNCATE)")
        try Self.overwrite(page: try Self.rootPage(of: "notices", in: path), of: path)

        let store = try await Store(path: path, configuration: .unlimited, now: Clock.t0, recoverIfCorrupt: true)
        #expect(store.recovery?.salvagedHistory == 2)
        #expect(try await store.recentHistory(limit: 5).map(\.id) == ids)
        let next = try await store.recordHistory(HistoryInput(time: Clock.at(120), title: "도서관", kind: "service"))
        #expect(next == 4)
    }

    @Test("a damaged page in the middle of the history keeps the events read before it")
    func partlyReadableHistory() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("store.sqlite")
        let total = 400
        do {
            let store = try await Store(path: path, configuration: .unlimited, now: Clock.t0)
            for index in 0..<total {
                let title = "\(index) " + String(repeating: "기록", count: 40)
                try await store.recordHistory(HistoryInput(time: Clock.at(Double(index)), title: title, kind: "open"))
            }
        }
        let leaves: [Int]
        do {
            let db = try Database(path: path)
            try db.executeScript("PRAGMA wal_checkpoint(TRUNCATE)")
            // 400 events of ~250 bytes fill some thirty leaf pages (SQLite's dbstat table says
            // which): the middle one goes.
            leaves = try db.fetchAll(
                "SELECT pageno FROM dbstat WHERE name = 'history' AND pagetype = 'leaf' ORDER BY pageno"
            ) { Int($0.column(0, or: Int64(0))) }
        }
        #expect(leaves.count > 10)
        try Self.overwrite(page: leaves[leaves.count / 2], of: path)

        let store = try await Store(path: path, configuration: .unlimited, now: Clock.t0, recoverIfCorrupt: true)
        let recovery = try #require(store.recovery)
        #expect(recovery.salvagedHistory > 0 && recovery.salvagedHistory < total, "\(recovery.salvagedHistory)")
        let oldest = try await store.recentHistory(limit: total).last
        #expect(oldest?.title.hasPrefix("0 ") == true)
    }

    @Test("a damaged header (SQLITE_NOTADB) is recovered too; a second recovery in the same second gets its own name")
    func damagedHeader() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("store.sqlite")
        for attempt in 1...2 {
            try await Self.filledStore(at: path)
            try Self.overwrite(page: 1, of: path, count: 100)
            let store = try await Store(path: path, now: Clock.t0, recoverIfCorrupt: true)
            let recovery = try #require(store.recovery)
            #expect(recovery.reason.contains("SQLITE_NOTADB"), "\(recovery.reason)")
            #expect(recovery.salvagedManifests == 0)
            let suffix = attempt == 1 ? "" : ".2"
            #expect(recovery.movedTo == path + ".corrupt-20260921T141320Z" + suffix)
        }
    }

    @Test("an index that disagrees with its table passes quick_check; the full check rebuilds it and keeps every row")
    func damagedIndex() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("store.sqlite")
        try await Self.filledStore(at: path)
        try IndexDamage.shiftFirstKey(onLeafPage: try Self.rootPage(of: "history_by_time", in: path), of: path)

        var configuration = StoreConfiguration.unlimited
        configuration.historyLimit = 2
        do {
            let store = try await Store(path: path, configuration: configuration, now: Clock.t0, recoverIfCorrupt: true)
            #expect(store.recovery == nil && store.indexRepair == nil)
            #expect(try await store.quickCheck() == ["ok"])
            #expect(try await store.integrityCheck() == ["row 1 missing from index history_by_time"])
            // The trim deletes the oldest event, whose index entry is not where its row says.
            let error = try await #require(throws: StoreError.self) {
                try await store.recordHistory(HistoryInput(time: Clock.at(120), title: "열람실", kind: "service"))
            }
            #expect(error.resultCode == .corruptIndex)
        }

        let store = try await Store(
            path: path,
            configuration: configuration,
            now: Clock.t0,
            recoverIfCorrupt: true,
            fullCheck: true
        )
        #expect(store.recovery == nil)
        #expect(store.indexRepair == "integrity_check: row 1 missing from index history_by_time")
        #expect(try await store.integrityCheck() == ["ok"])
        #expect(try await store.counts().notices == 3)
        try await store.recordHistory(HistoryInput(time: Clock.at(120), title: "열람실", kind: "service"))
        #expect(try await store.recentHistory(limit: 5).map(\.title) == ["열람실", "식단"])
    }

    @Test("rows a damaged unique index let in with a repeated key are removed, the first kept, and the file is kept")
    func repeatedUniqueKey() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("store.sqlite")
        let feed = "https://example.org/feed.xml"
        do {
            let store = try await Store(path: path, configuration: .unlimited, now: Clock.t0)
            // The feed's id is 2: a key's first column of 1 takes no byte in the record, and
            // IndexDamage needs one to shift.
            try await store.upsertSource(
                SourceInput(url: "https://example.org/first.xml", kind: .notices),
                now: Clock.t0
            )
            try await store.upsertSource(SourceInput(url: feed, kind: .notices), now: Clock.t0)
            try await store.ingestNotices(sourceURL: feed, entries: entries(count: 3), now: Clock.t0)
        }
        do {
            let db = try Database(path: path)
            try db.executeScript("PRAGMA wal_checkpoint(TRUNCATE)")
        }
        // The index entry of (2, e-0) now says (3, e-0): the UNIQUE check of a second e-0 finds
        // nothing, and the row goes in.
        try IndexDamage.shiftFirstKey(
            onLeafPage: try Self.rootPage(of: "sqlite_autoindex_notices_1", in: path),
            of: path
        )
        do {
            let db = try Database(path: path)
            try db.executeScript(
                """
                INSERT INTO notices (source_id, entry_id, title, first_seen_at, last_seen_at, content_hash)
                VALUES (2, 'e-0', 'again', 0, 0, 0);
                PRAGMA foreign_keys = OFF;
                INSERT INTO notices (source_id, entry_id, title, first_seen_at, last_seen_at, content_hash)
                VALUES (99, 'orphan', 'a cascade missed it', 0, 0, 0);
                INSERT INTO notice_tombstones (source_id, entry_id, removed_at, last_seen_at)
                VALUES (99, 'orphan', 0, 0);
                PRAGMA wal_checkpoint(TRUNCATE);
                """
            )
            #expect(try db.scalar("SELECT count(*) FROM notices NOT INDEXED WHERE entry_id = 'e-0'") == 2)
        }

        let store = try await Store(path: path, now: Clock.t0, recoverIfCorrupt: true, fullCheck: true)
        #expect(store.recovery == nil)
        #expect(store.indexRepair?.hasPrefix("integrity_check: ") == true)
        #expect(store.removedDuplicates == ["notices": 2, "notice_tombstones": 1], "the repeat and the orphans")
        #expect(try await store.counts().notices == 3)
        #expect(try await store.integrityCheck() == ["ok"])
        #expect(try await store.newestNotices(sourceURL: feed, limit: 10).map(\.entryID) == ["e-2", "e-1", "e-0"])
        #expect(try await store.notice(sourceURL: feed, entryID: "e-0")?.title == "제목 0")
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
        #expect(!names.contains { $0.contains(".corrupt-") })
    }

    @Test("the full check moves a file damaged beyond its indexes aside, as the quick one does")
    func fullCheckOfDamagedTable() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("store.sqlite")
        try await Self.filledStore(at: path)
        try Self.overwrite(page: try Self.rootPage(of: "notices", in: path), of: path)
        let store = try await Store(path: path, now: Clock.t0, recoverIfCorrupt: true, fullCheck: true)
        let recovery = try #require(store.recovery)
        #expect(store.indexRepair == nil)
        #expect(recovery.salvagedManifests == 1 && recovery.salvagedHistory == 2)
        #expect(try await store.integrityCheck() == ["ok"])
    }

    @Test("another program's file is refused, never moved aside")
    func foreignFileStays() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("other.sqlite")
        do {
            let db = try Database(path: path)
            try db.executeScript("PRAGMA application_id = 1234; CREATE TABLE t (v INTEGER)")
        }
        let error = try await #require(throws: StoreError.self) {
            _ = try await Store(path: path, now: Clock.t0, recoverIfCorrupt: true)
        }
        #expect(error.kind == .foreignDatabase(applicationID: 1234))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["other.sqlite"])
    }

    @Test("the write probe fails with SQLITE_BUSY while another connection holds the write lock")
    func lockedProbe() async throws {
        var configuration = StoreConfiguration.unlimited
        configuration.busyTimeout = .milliseconds(50)
        let test = try await TestStore(configuration)
        let other = try Database(path: test.path)
        try other.executeScript("BEGIN EXCLUSIVE")
        let error = try await #require(throws: StoreError.self) { try await test.store.checkWritable() }
        #expect(error.resultCode?.primary == .busy)
        #expect(error.summary.hasPrefix("SQLITE_BUSY"))
        try other.executeScript("ROLLBACK")
        try await test.store.checkWritable()
    }
}
