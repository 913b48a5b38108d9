import Foundation
import HomeStore
import Testing

/// Retention: per-source count and age limits, tombstones, their expiry, and the history cap.
@Suite struct RetentionTests {
    let feed = TestStore.feedURL

    @Test("over the count limit, the oldest go to tombstones and do not come back as new")
    func countLimit() async throws {
        let test = try await TestStore().withSources(maxEntries: 3)
        let document = entries(count: 5)
        let first = try await test.store.ingestNotices(sourceURL: feed, entries: document, now: Clock.t0)
        #expect(first.inserted == 5 && first.pruned == 2)
        #expect(try await test.store.newestNotices(sourceURL: feed, limit: 10).map(\.entryID) == ["e-4", "e-3", "e-2"])
        #expect(try await test.store.counts().tombstones == 2)

        let again = try await test.store.ingestNotices(sourceURL: feed, entries: document, now: Clock.at(60))
        #expect(again.inserted == 0 && again.unchanged == 3 && again.skipped == 2 && again.pruned == 0)
        #expect(try await test.store.noticeCount(sourceURL: feed) == 3)
    }

    @Test("older than the age limit: pruned to tombstones, and not inserted in the first place")
    func ageLimit() async throws {
        let test = try await TestStore().withSources(maxAge: .seconds(7 * 86_400))
        let document = [
            NoticeInput(entryID: "fresh", published: Clock.at(-Clock.day)),
            NoticeInput(entryID: "stale", published: Clock.at(-8 * Clock.day)),
            NoticeInput(entryID: "undated"),
        ]
        let first = try await test.store.ingestNotices(sourceURL: feed, entries: document, now: Clock.t0)
        #expect(first.inserted == 2 && first.skipped == 1)

        // Five days on, "fresh" is 6 days old and "undated" 5: both stay. Three more days: both go.
        let stays = try await test.store.applyRetention(now: Clock.at(5 * Clock.day))
        #expect(stays.prunedNotices == 0)
        let goes = try await test.store.applyRetention(now: Clock.at(8 * Clock.day))
        #expect(goes.prunedNotices == 2)
        #expect(try await test.store.counts().tombstones == 2)
        let later = try await test.store.ingestNotices(sourceURL: feed, entries: document, now: Clock.at(8 * Clock.day))
        #expect(later.inserted == 0 && later.skipped == 3)
    }

    @Test("absurd limits from a configuration are clamped, not trapped")
    func hugeLimits() async throws {
        var configuration = StoreConfiguration.unlimited
        configuration.tombstoneGrace = .seconds(Int64.max)
        let test = try await TestStore(configuration).withSources(maxEntries: Int.max, maxAge: .seconds(Int64.max))
        let result = try await test.store.ingestNotices(
            sourceURL: feed,
            entries: entries(count: 3),
            now: Date(timeIntervalSince1970: -1e300)
        )
        #expect(result.inserted == 3 && result.pruned == 0)
        #expect(try await test.store.applyRetention(now: Date.distantPast).prunedNotices == 0)
    }

    @Test("the store default applies when a source sets no limit")
    func defaultLimit() async throws {
        var configuration = StoreConfiguration.unlimited
        configuration.maxEntriesPerSource = 4
        let test = try await TestStore(configuration).withSources()
        let result = try await test.store.ingestNotices(sourceURL: feed, entries: entries(count: 10), now: Clock.t0)
        #expect(result.pruned == 6)
        #expect(try await test.store.noticeCount(sourceURL: feed) == 4)
    }

    @Test("a tombstone lives while its entry is still in the feed and is forgotten after the grace period")
    func tombstoneGrace() async throws {
        var configuration = StoreConfiguration.unlimited
        configuration.tombstoneGrace = .seconds(10 * 86_400)
        let test = try await TestStore(configuration).withSources(maxEntries: 1)
        try await test.store.ingestNotices(sourceURL: feed, entries: entries(count: 2), now: Clock.t0)
        #expect(try await test.store.counts().tombstones == 1)

        // Still in the feed on day 9: the tombstone is refreshed, so day 15 keeps it.
        try await test.store.ingestNotices(sourceURL: feed, entries: entries(count: 2), now: Clock.at(9 * Clock.day))
        #expect(try await test.store.applyRetention(now: Clock.at(15 * Clock.day)).expiredTombstones == 0)
        // Gone from the feed's document of day 12 (e-0 is the tombstone): forgotten after day 19.
        try await test.store.ingestNotices(
            sourceURL: feed,
            entries: entries(count: 1, start: 1),
            now: Clock.at(12 * Clock.day)
        )
        #expect(try await test.store.applyRetention(now: Clock.at(19 * Clock.day)).expiredTombstones == 0)
        #expect(try await test.store.applyRetention(now: Clock.at(20 * Clock.day)).expiredTombstones == 1)
        #expect(try await test.store.counts().tombstones == 0)
    }

    @Test("a feed that stopped changing keeps its tombstones: its entries are still in it")
    func tombstonesOfUnchangedFeed() async throws {
        var configuration = StoreConfiguration.unlimited
        configuration.tombstoneGrace = .seconds(10 * 86_400)
        let test = try await TestStore(configuration).withSources(maxEntries: 1)
        // Undated entries: a tombstone is all that keeps one from coming back as new.
        let undated = [NoticeInput(entryID: "old"), NoticeInput(entryID: "new")]
        try await test.store.ingestNotices(sourceURL: feed, entries: [undated[0]], now: Clock.t0)
        try await test.store.ingestNotices(sourceURL: feed, entries: undated, now: Clock.at(60))
        #expect(try await test.store.counts().tombstones == 1)
        // 304s, or the same bytes, for 40 days: nothing parsed, the tombstone stays.
        for day in [11.0, 20, 40] {
            #expect(try await test.store.applyRetention(now: Clock.at(day * Clock.day)).expiredTombstones == 0)
        }
        // The feed changes on day 41, "old" still in it: not new again.
        let changed = undated + [NoticeInput(entryID: "newer")]
        let later = try await test.store.ingestNotices(sourceURL: feed, entries: changed, now: Clock.at(41 * Clock.day))
        #expect(later.inserted == 1)
        #expect(try await test.store.newestNotices(sourceURL: feed, limit: 10).map(\.entryID) == ["newer"])
    }

    @Test("history is capped on every insert, oldest first")
    func historyCap() async throws {
        var configuration = StoreConfiguration.unlimited
        configuration.historyLimit = 3
        let test = try await TestStore(configuration)
        var ids: [Int64] = []
        for index in 0..<5 {
            ids.append(
                try await test.store.recordHistory(
                    HistoryInput(
                        time: Clock.at(Double(index)),
                        title: "서비스 \(index)",
                        link: "https://s/\(index)",
                        kind: "service"
                    )
                )
            )
        }
        #expect(Set(ids).count == 5)
        let recent = try await test.store.recentHistory(limit: 10)
        #expect(recent.map(\.title) == ["서비스 4", "서비스 3", "서비스 2"])
        #expect(recent[0].time == Clock.at(4))
        #expect(recent[0].link == "https://s/4")
        #expect(recent[0].kind == "service")
        #expect(try await test.store.recentHistory(limit: 1).map(\.id) == [ids[4]])
    }

    @Test("history keeps the newest events by time, then by id, whatever order they are recorded in")
    func historyCapOrder() async throws {
        var configuration = StoreConfiguration.unlimited
        configuration.historyLimit = 3
        let test = try await TestStore(configuration)
        // The two oldest share a time (the later id is the newer: e0 goes first), and the last
        // is older than all the others, so it is trimmed as soon as it is recorded.
        for (index, time) in [5.0, 5, 9, 7, 0].enumerated() {
            try await test.store.recordHistory(
                HistoryInput(time: Clock.at(time), title: "e\(index)", link: nil, kind: "open")
            )
        }
        #expect(try await test.store.recentHistory(limit: 10).map(\.title) == ["e2", "e3", "e1"])
        #expect(try await test.store.counts().historyEvents == 3)
        // A lower limit (a reload, here a second store on the file) trims the excess at once.
        configuration.historyLimit = 1
        let lowered = try await Store(path: test.path, configuration: configuration, now: Clock.t0)
        #expect(try await lowered.applyRetention(now: Clock.at(10)).trimmedHistory == 2)
        #expect(try await lowered.recentHistory(limit: 10).map(\.title) == ["e2"])
    }
}
