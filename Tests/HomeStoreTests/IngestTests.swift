import Foundation
import HomeStore
import Testing

/// `ingestNotices`: new, changed, unchanged, duplicated and invalid entries, and the queries.
@Suite struct IngestTests {
    let feed = TestStore.feedURL

    @Test("a first ingest inserts every entry; the same document again changes nothing but lastSeen")
    func firstAndUnchanged() async throws {
        let test = try await TestStore().withSources()
        let document = entries(count: 50)
        let first = try await test.store.ingestNotices(sourceURL: feed, entries: document, now: Clock.t0)
        #expect(first.inserted == 50 && first.updated == 0 && first.unchanged == 0)

        let later = Clock.at(3_600)
        let second = try await test.store.ingestNotices(sourceURL: feed, entries: document, now: later)
        #expect(second.inserted == 0 && second.updated == 0 && second.unchanged == 50)
        #expect(try await test.store.noticeCount(sourceURL: feed) == 50)

        let notice = try #require(try await test.store.notice(sourceURL: feed, entryID: "e-7"))
        #expect(notice.firstSeen == Clock.t0)
        #expect(notice.lastSeen == later)
        #expect(notice.title == "제목 7")
        #expect(notice.sourceTitle == "공지")
        #expect(notice.published == Clock.at(-Clock.day + 7 * 60))
    }

    @Test("an unchanged entry's lastSeen moves on at most once an hour, so quick re-polls write nothing")
    func lastSeenResolution() async throws {
        let test = try await TestStore().withSources()
        try await test.store.ingestNotices(sourceURL: feed, entries: entries(count: 1), now: Clock.t0)
        try await test.store.ingestNotices(sourceURL: feed, entries: entries(count: 1), now: Clock.at(3_599))
        #expect(try await test.store.notice(sourceURL: feed, entryID: "e-0")?.lastSeen == Clock.t0)
        let result = try await test.store.ingestNotices(
            sourceURL: feed,
            entries: entries(count: 1),
            now: Clock.at(3_600)
        )
        #expect(result.unchanged == 1)
        #expect(try await test.store.notice(sourceURL: feed, entryID: "e-0")?.lastSeen == Clock.at(3_600))
    }

    @Test("a changed title, link, date or summary is an update; first seen stays")
    func updates() async throws {
        let test = try await TestStore().withSources()
        var document = entries(count: 4)
        try await test.store.ingestNotices(sourceURL: feed, entries: document, now: Clock.t0)
        document[0].title = "고친 제목"
        document[1].link = nil
        document[2].published = nil
        document[3].summary = "요약 (수정)"
        let result = try await test.store.ingestNotices(sourceURL: feed, entries: document, now: Clock.at(60))
        #expect(result.updated == 4 && result.unchanged == 0 && result.inserted == 0)
        let first = try #require(try await test.store.notice(sourceURL: feed, entryID: "e-0"))
        #expect(first.title == "고친 제목")
        #expect(first.firstSeen == Clock.t0)
        #expect(first.lastSeen == Clock.at(60))
        #expect(try await test.store.notice(sourceURL: feed, entryID: "e-1")?.link == nil)
        let undated = try #require(try await test.store.notice(sourceURL: feed, entryID: "e-2"))
        #expect(undated.published == nil)
        #expect(undated.sortDate == Clock.t0)
    }

    @Test("repeated entry IDs in one document are stored once (the first wins); empty IDs are skipped")
    func dedupe() async throws {
        let test = try await TestStore().withSources()
        var document = entries(count: 3)
        document.append(NoticeInput(entryID: "e-1", title: "중복"))
        document.append(NoticeInput(entryID: "", title: "ID 없음"))
        let result = try await test.store.ingestNotices(sourceURL: feed, entries: document, now: Clock.t0)
        #expect(result.inserted == 3 && result.duplicates == 1 && result.skipped == 1)
        #expect(try await test.store.notice(sourceURL: feed, entryID: "e-1")?.title == "제목 1")
        #expect(try await test.store.counts().notices == 3)
    }

    @Test("ids that differ in their bytes are two notices, even when Swift's String calls them equal")
    func idsByBytes() async throws {
        let test = try await TestStore().withSources()
        // "café" precomposed (U+00E9) and decomposed (e + U+0301): equal as Strings, not as bytes.
        let precomposed = "caf\u{E9}"
        let decomposed = "cafe\u{301}"
        #expect(precomposed == decomposed)
        let document = [
            NoticeInput(entryID: precomposed, title: "하나"), NoticeInput(entryID: decomposed, title: "둘"),
        ]
        let result = try await test.store.ingestNotices(sourceURL: feed, entries: document, now: Clock.t0)
        #expect(result.inserted == 2 && result.duplicates == 0)
        #expect(try await test.store.counts().notices == 2)
    }

    @Test("the same entry ID in two sources is two notices")
    func keyedBySource() async throws {
        let test = try await TestStore().withSources()
        let other = "https://example.com/other.xml"
        try await test.store.upsertSource(SourceInput(url: other, kind: .notices), now: Clock.t0)
        try await test.store.ingestNotices(sourceURL: feed, entries: entries(count: 2), now: Clock.t0)
        let result = try await test.store.ingestNotices(sourceURL: other, entries: entries(count: 2), now: Clock.t0)
        #expect(result.inserted == 2)
        #expect(try await test.store.counts().notices == 4)
    }

    @Test("entries that leave the feed stay until retention removes them")
    func leftEntriesStay() async throws {
        let test = try await TestStore().withSources()
        try await test.store.ingestNotices(sourceURL: feed, entries: entries(count: 10), now: Clock.t0)
        let result = try await test.store.ingestNotices(
            sourceURL: feed,
            entries: entries(count: 3, start: 10),
            now: Clock.at(60)
        )
        #expect(result.inserted == 3)
        #expect(try await test.store.noticeCount(sourceURL: feed) == 13)
    }

    @Test("newest notices: newest first overall and per source; future dates sort at first sight")
    func newest() async throws {
        let test = try await TestStore().withSources()
        let other = "https://example.com/other.xml"
        try await test.store.upsertSource(SourceInput(url: other, kind: .notices, title: "기타"), now: Clock.t0)
        try await test.store.ingestNotices(sourceURL: feed, entries: entries(count: 5), now: Clock.t0)
        try await test.store.ingestNotices(
            sourceURL: other,
            entries: [
                NoticeInput(entryID: "future", title: "미래", published: Clock.at(365 * Clock.day)),
                NoticeInput(entryID: "x", title: "예전", published: Clock.at(-10 * Clock.day)),
            ],
            now: Clock.at(-Clock.day + 150)
        )
        let newest = try await test.store.newestNotices(limit: 3)
        #expect(newest.map(\.entryID) == ["e-4", "e-3", "future"])
        #expect(newest[2].sortDate == Clock.at(-Clock.day + 150))
        #expect(newest[2].sourceTitle == "기타")
        #expect(try await test.store.newestNotices(sourceURL: other, limit: 10).map(\.entryID) == ["future", "x"])
        #expect(try await test.store.newestNotices(limit: 0).isEmpty)
    }

    @Test("newest notices of a set of sources: the others take no place among them, whatever the URLs hold")
    func newestOfSources() async throws {
        let test = try await TestStore().withSources()
        // JSON's special characters in a URL: the set goes to SQLite as one JSON array.
        let quoted = "https://example.com/\"quoted\"\\feed.xml?a=1\t&b=\u{1}한"
        try await test.store.upsertSource(SourceInput(url: quoted, kind: .notices, title: "따옴표"), now: Clock.t0)
        try await test.store.ingestNotices(sourceURL: feed, entries: entries(count: 5), now: Clock.t0)
        try await test.store.ingestNotices(sourceURL: quoted, entries: entries("q", count: 2), now: Clock.t0)
        // The feed's five are the newest overall; of the quoted source's alone, its own two.
        #expect(try await test.store.newestNotices(limit: 2).map(\.entryID) == ["e-4", "e-3"])
        #expect(
            try await test.store.newestNotices(of: [quoted], limit: 5).map(\.entryID) == ["q-1", "q-0"]
        )
        #expect(
            try await test.store.newestNotices(of: [quoted, feed], limit: 3).map(\.entryID) == [
                "e-4", "e-3", "e-2",
            ]
        )
        #expect(try await test.store.newestNotices(of: ["https://example.com/unknown"], limit: 5).isEmpty)
        #expect(try await test.store.newestNotices(of: [], limit: 5).isEmpty)
        let rows = try await test.store.homeRows(
            historyLimit: 0,
            noticeLimit: 1,
            noticeSources: [quoted]
        )
        #expect(rows.notices.map(\.entryID) == ["q-1"])
    }

    @Test("newest notices of a set of sources: exact however many newer notices the other sources hold")
    func newestOfSourcesPastOthers() async throws {
        let test = try await TestStore().withSources()
        let removed = "https://example.com/removed.xml"
        let twin = "https://example.com/twin.xml"
        for url in [removed, twin] {
            try await test.store.upsertSource(SourceInput(url: url, kind: .notices, title: nil), now: Clock.t0)
        }
        try await test.store.ingestNotices(sourceURL: feed, entries: entries(count: 5), now: Clock.t0)
        // The twin's notices have the feed's times, one for one: ties, ordered by id (the twin's last).
        try await test.store.ingestNotices(sourceURL: twin, entries: entries("t", count: 5), now: Clock.t0)
        // Sixty newer notices of a source the configuration no longer names: more than the walk
        // of every source's newest reads for three, five or ten notices (five times as many).
        try await test.store.ingestNotices(
            sourceURL: removed,
            entries: entries("r", count: 60, start: 100),
            now: Clock.t0
        )
        #expect(try await test.store.newestNotices(limit: 2).map(\.entryID) == ["r-159", "r-158"])
        #expect(try await test.store.newestNotices(of: [feed], limit: 3).map(\.entryID) == ["e-4", "e-3", "e-2"])
        #expect(
            try await test.store.newestNotices(of: [feed, twin], limit: 5).map(\.entryID) == [
                "t-4", "e-4", "t-3", "e-3", "t-2",
            ]
        )
        // Ten, of a source that holds five: read past the walk all the same.
        #expect(
            try await test.store.newestNotices(of: [feed], limit: 10).map(\.entryID) == [
                "e-4", "e-3", "e-2", "e-1", "e-0",
            ]
        )
        // Twenty: the walk of a hundred reads every notice, and holds the answer although it is short.
        #expect(
            try await test.store.newestNotices(of: [feed], limit: 20).map(\.entryID) == [
                "e-4", "e-3", "e-2", "e-1", "e-0",
            ]
        )
        #expect(try await test.store.newestNotices(of: [feed, twin], limit: 0).isEmpty)
        let rows = try await test.store.homeRows(historyLimit: 0, noticeLimit: 2, noticeSources: [twin, feed])
        #expect(rows.notices.map(\.entryID) == ["t-4", "e-4"])
        #expect(rows.notices.map(\.sourceURL) == [twin, feed])
        #expect(rows.sourceNotices.isEmpty)
        // One source's own newest, read apart in the same snapshot; none of a source not stored.
        let unknown = "https://example.com/unknown"
        let apart = try await test.store.homeRows(
            historyLimit: 0,
            noticeLimit: 1,
            noticeSources: [twin, feed, removed],
            sourceNoticeLimits: [feed: 2, unknown: 3]
        )
        #expect(apart.notices.map(\.entryID) == ["r-159"])
        #expect(apart.sourceNotices[feed]?.map(\.entryID) == ["e-4", "e-3"])
        #expect(apart.sourceNotices[unknown]?.isEmpty == true)
        #expect(try await test.store.newestNotices(sourceURL: unknown, limit: 3).isEmpty)
    }

    @Test("an ingest can record its fetch in the same transaction; validators are stored with the document")
    func ingestWithFetchRecord() async throws {
        let test = try await TestStore().withSources()
        let record = FetchRecord(
            outcome: .fetched(Validators(etag: "\"abc\"", lastModified: nil)),
            attemptedAt: Clock.t0,
            nextAttempt: Clock.at(900),
            permanentRedirect: nil
        )
        try await test.store.ingestNotices(sourceURL: feed, entries: entries(count: 2), now: Clock.t0, fetch: record)
        let source = try #require(try await test.store.source(url: feed))
        #expect(source.validators == Validators(etag: "\"abc\""))
        #expect(source.lastSuccess == Clock.t0)
        #expect(source.nextAttempt == Clock.at(900))
    }

    @Test("ingesting into an unknown or a services source throws and writes nothing")
    func wrongSource() async throws {
        let test = try await TestStore().withSources()
        let unknown = try await #require(throws: StoreError.self) {
            try await test.store.ingestNotices(sourceURL: "https://nowhere/", entries: entries(count: 1), now: Clock.t0)
        }
        #expect(unknown.kind == .unknownSource(url: "https://nowhere/"))
        let wrongKind = try await #require(throws: StoreError.self) {
            try await test.store.ingestNotices(sourceURL: TestStore.linksURL, entries: entries(count: 1), now: Clock.t0)
        }
        #expect(wrongKind.kind == .wrongSourceKind(url: TestStore.linksURL, kind: .services))
        #expect(try await test.store.counts().notices == 0)
    }

    @Test("removing a source removes its notices and tombstones")
    func removeSource() async throws {
        let test = try await TestStore().withSources(maxEntries: 2)
        try await test.store.ingestNotices(sourceURL: feed, entries: entries(count: 5), now: Clock.t0)
        #expect(try await test.store.counts().tombstones == 3)
        #expect(try await test.store.removeSource(url: feed))
        let counts = try await test.store.counts()
        #expect(counts.notices == 0 && counts.tombstones == 0 && counts.sources == 1)
        #expect(try await !test.store.removeSource(url: feed))
    }
}
