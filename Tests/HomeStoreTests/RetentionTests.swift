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

        // Five days on, "fresh" is 6 days old: it stays. Three more days: it goes. "undated" has
        // no date, and its feed still lists it (its last document did): it stays.
        let stays = try await test.store.applyRetention(now: Clock.at(5 * Clock.day))
        #expect(stays.prunedNotices == 0)
        let goes = try await test.store.applyRetention(now: Clock.at(8 * Clock.day))
        #expect(goes.prunedNotices == 1)
        #expect(try await test.store.counts().tombstones == 1)
        let later = try await test.store.ingestNotices(sourceURL: feed, entries: document, now: Clock.at(8 * Clock.day))
        #expect(later.inserted == 0 && later.skipped == 2 && later.unchanged == 1)
        #expect(try await test.store.newestNotices(sourceURL: feed, limit: 10).map(\.entryID) == ["undated"])
    }

    @Test("an undated notice ages from when its feed stopped listing it, not from its first sighting")
    func undatedAge() async throws {
        let test = try await TestStore().withSources(maxAge: .seconds(10 * 86_400))
        let both = [NoticeInput(entryID: "stays"), NoticeInput(entryID: "leaves")]
        try await test.store.ingestNotices(sourceURL: feed, entries: both, now: Clock.t0)
        // Day 5: "leaves" is gone from the feed. Day 9: it was last seen 9 days ago, it stays.
        // Day 20: "stays", first seen 20 days ago but still listed, is kept; "leaves" goes.
        try await test.store.ingestNotices(sourceURL: feed, entries: [both[0]], now: Clock.at(5 * Clock.day))
        #expect(try await test.store.applyRetention(now: Clock.at(9 * Clock.day)).prunedNotices == 0)
        let later = try await test.store.ingestNotices(
            sourceURL: feed,
            entries: [both[0]],
            now: Clock.at(20 * Clock.day)
        )
        #expect(later.pruned == 1 && later.unchanged == 1)
        // The feed answers 304 for a year: it still lists "stays".
        #expect(try await test.store.applyRetention(now: Clock.at(365 * Clock.day)).prunedNotices == 0)
        #expect(try await test.store.newestNotices(sourceURL: feed, limit: 10).map(\.entryID) == ["stays"])
    }

    @Test("notices first seen under a clock that was behind keep their dates and are not pruned once it is right")
    func clockBehind() async throws {
        let test = try await TestStore().withSources(maxAge: .seconds(90 * 86_400))
        // 2000-01-01: a device without a battery-backed clock, before NTP. The entries are dated
        // a day or two before t0 (their feed's clock was right).
        let behind = Date(timeIntervalSince1970: 946_684_800)
        let document = entries(count: 3) + [NoticeInput(entryID: "undated", title: "날짜 없음")]
        let first = try await test.store.ingestNotices(sourceURL: feed, entries: document, now: behind)
        #expect(first.inserted == 4 && first.pruned == 0)
        // Dated after that sighting: ordered by it, so none floats to the top.
        let seen = try await test.store.newestNotices(sourceURL: feed, limit: 10)
        #expect(seen.allSatisfy { $0.sortDate == behind })

        // The clock is set right: the pass at the start, before any fetch, keeps them all.
        #expect(try await test.store.applyRetention(now: Clock.t0).prunedNotices == 0)
        // Seen again: each dated notice moves to its date, which orders it from now on.
        let again = try await test.store.ingestNotices(sourceURL: feed, entries: document, now: Clock.t0)
        #expect(again.inserted == 0 && again.pruned == 0 && again.updated == 3 && again.unchanged == 1)
        let sorted = try await test.store.newestNotices(sourceURL: feed, limit: 10)
        #expect(sorted.map(\.entryID) == ["e-2", "e-1", "e-0", "undated"])
        #expect(sorted.dropLast().allSatisfy { $0.sortDate == $0.published })
        // Ninety days after their dates they go, as any notice does; the undated one, still in
        // its feed, stays.
        #expect(try await test.store.applyRetention(now: Clock.at(90 * Clock.day)).prunedNotices == 3)
        #expect(try await test.store.noticeCount(sourceURL: feed) == 1)
    }

    @Test("a source at its count limit fetched while the clock is years behind keeps every notice, tombstones none")
    func countLimitClockBehind() async throws {
        let test = try await TestStore().withSources(maxEntries: 3)
        try await test.store.ingestNotices(sourceURL: feed, entries: entries(count: 3), now: Clock.t0)
        // 2000-01-01, before NTP: the two new entries, dated after it, would sort by that sighting
        // below the three kept, and the count limit would tombstone them in the same ingest.
        let behind = Date(timeIntervalSince1970: 946_684_800)
        let document = entries(count: 5)
        let fetched = FetchRecord(
            outcome: .fetched(Validators(etag: "\"v2\"")),
            attemptedAt: behind,
            nextAttempt: nil,
            permanentRedirect: nil
        )
        let latest = try #require(try await test.store.notice(sourceURL: feed, entryID: "e-2")?.sortDate)
        let refused = StoreError.Kind.clockBehind(now: behind, latest: latest)
        let ingest = await #expect(throws: StoreError.self) {
            try await test.store.ingestNotices(sourceURL: feed, entries: document, now: behind, fetch: fetched)
        }
        #expect(ingest?.kind == refused)
        let pass = await #expect(throws: StoreError.self) { try await test.store.applyRetention(now: behind) }
        #expect(pass?.kind == refused)
        #expect(try await test.store.newestNotices(sourceURL: feed, limit: 10).map(\.entryID) == ["e-2", "e-1", "e-0"])
        #expect(try await test.store.counts().tombstones == 0)
        #expect(try await test.store.source(url: feed)?.validators == Validators())

        // The clock is right again: the same fetch is stored, and the oldest by date go.
        let right = try await test.store.ingestNotices(
            sourceURL: feed,
            entries: document,
            now: Clock.at(60),
            fetch: fetched
        )
        #expect(right.inserted == 2 && right.pruned == 2)
        #expect(try await test.store.newestNotices(sourceURL: feed, limit: 10).map(\.entryID) == ["e-4", "e-3", "e-2"])
        #expect(try await test.store.source(url: feed)?.validators.etag == "\"v2\"")
    }

    @Test("a clock behind for the trust delay is taken as right, and the sightings after it move back to it for good")
    func clockBehindTrusted() async throws {
        let test = try await TestStore().withSources(maxEntries: 10)
        // First seen under a clock ten years ahead, undated: the store's latest time.
        let undated = [NoticeInput(entryID: "u-0", title: "undated")]
        try await test.store.ingestNotices(sourceURL: feed, entries: undated, now: Clock.at(3_650 * Clock.day))
        await test.store._setClockTrustDelay(.milliseconds(50))
        // A quiet feed (its newest entry a month old) confirms nothing.
        let quiet = [NoticeInput(entryID: "q-0", published: Clock.at(-30 * Clock.day))]
        await #expect(throws: StoreError.self) {
            try await test.store.ingestNotices(sourceURL: feed, entries: quiet, now: Clock.t0)
        }
        try await Task.sleep(for: .milliseconds(100))
        let stored = try await test.store.ingestNotices(sourceURL: feed, entries: quiet, now: Clock.t0)
        #expect(stored.inserted == 1)
        // The store's latest time is the clock's now, whatever the delay: a restart, which
        // counts the delay afresh, stores and prunes by this clock at once.
        #expect(try await test.store.notice(sourceURL: feed, entryID: "u-0")?.sortDate == Clock.t0)
        await test.store._setClockTrustDelay(.seconds(86_400))
        try await test.store.applyRetention(now: Clock.t0)
    }

    @Test("a stored notice dated after the clock says it is behind, whatever a feed or a day of running says")
    func clockContradictedByStore() async throws {
        let test = try await TestStore().withSources(maxEntries: 10)
        try await test.store.ingestNotices(sourceURL: feed, entries: entries(count: 3), now: Clock.t0)
        await test.store._setClockTrustDelay(.milliseconds(50))
        // 2000, before NTP, and a server on the LAN with the same wrong clock: its entry is
        // dated "now", but the stored notices are dated 2026.
        let behind = Date(timeIntervalSince1970: 946_684_800)
        let local = [NoticeInput(entryID: "lan-0", published: behind)]
        await #expect(throws: StoreError.self) {
            try await test.store.ingestNotices(sourceURL: feed, entries: local, now: behind)
        }
        try await Task.sleep(for: .milliseconds(100))
        await #expect(throws: StoreError.self) {
            try await test.store.ingestNotices(sourceURL: feed, entries: local, now: behind)
        }
        await #expect(throws: StoreError.self) { try await test.store.applyRetention(now: behind) }
        #expect(try await test.store.notice(sourceURL: feed, entryID: "e-0")?.sortDate != behind)
    }

    @Test("a stored feed with an entry dated within a day of the clock confirms it against a store time far ahead")
    func clockConfirmedByFeed() async throws {
        let test = try await TestStore().withSources(maxEntries: 10)
        // First seen under a clock ten years ahead, undated: the store's latest time.
        let ahead = Clock.at(3_650 * Clock.day)
        let undated = [NoticeInput(entryID: "u-0", title: "undated")]
        try await test.store.ingestNotices(sourceURL: feed, entries: undated, now: ahead)
        // A quiet feed (its newest entry a month old) confirms nothing: refused.
        let quiet = [NoticeInput(entryID: "q-0", published: Clock.at(-30 * Clock.day))]
        await #expect(throws: StoreError.self) {
            try await test.store.ingestNotices(sourceURL: feed, entries: quiet, now: Clock.t0)
        }
        // An entry an hour old confirms the clock: stored, and the sighting ten years ahead
        // moves back to now.
        let live = [NoticeInput(entryID: "l-0", published: Clock.at(-3_600))]
        let stored = try await test.store.ingestNotices(sourceURL: feed, entries: undated + live, now: Clock.t0)
        #expect(stored.inserted == 1)
        #expect(try await test.store.notice(sourceURL: feed, entryID: "u-0")?.sortDate == Clock.t0)
        #expect(try await test.store.newestNotices(sourceURL: feed, limit: 10).map(\.entryID) == ["u-0", "l-0"])
        try await test.store.ingestNotices(sourceURL: feed, entries: quiet, now: Clock.t0)
    }

    @Test("a future-dated entry is ordered by its first sighting until it is seen on or after its date")
    func futureDated() async throws {
        let test = try await TestStore().withSources()
        let future = NoticeInput(entryID: "future", published: Clock.at(2 * Clock.day))
        let today = NoticeInput(entryID: "today", published: Clock.at(-60))
        try await test.store.ingestNotices(sourceURL: feed, entries: [future, today], now: Clock.t0)
        let tomorrow = NoticeInput(entryID: "tomorrow", published: Clock.at(Clock.day))
        let beforeDate = try await test.store.ingestNotices(
            sourceURL: feed,
            entries: [future, today, tomorrow],
            now: Clock.at(Clock.day)
        )
        #expect(beforeDate.inserted == 1 && beforeDate.unchanged == 2)
        #expect(try await test.store.notice(sourceURL: feed, entryID: "future")?.sortDate == Clock.t0)
        #expect(
            try await test.store.newestNotices(sourceURL: feed, limit: 10).map(\.entryID) == [
                "tomorrow", "future", "today",
            ]
        )
        // Seen within the hour after its date: it moves at once (lastSeen is otherwise rewritten
        // at most hourly).
        let afterDate = try await test.store.ingestNotices(
            sourceURL: feed,
            entries: [future, today, tomorrow],
            now: Clock.at(2 * Clock.day + 60)
        )
        #expect(afterDate.updated == 1 && afterDate.unchanged == 2)
        #expect(try await test.store.notice(sourceURL: feed, entryID: "future")?.sortDate == future.published)
        #expect(
            try await test.store.newestNotices(sourceURL: feed, limit: 10).map(\.entryID) == [
                "future", "tomorrow", "today",
            ]
        )
    }

    @Test("an entry dated hours ahead (a feed's local time written as UTC) keeps its first sighting's place for good")
    func timeZoneAhead() async throws {
        let test = try await TestStore().withSources()
        // Nine hours ahead, as KST written with a Z; another feed's notice an hour later.
        let ahead = NoticeInput(entryID: "ahead", published: Clock.at(9 * 3600))
        try await test.store.ingestNotices(sourceURL: feed, entries: [ahead], now: Clock.t0)
        let between = NoticeInput(entryID: "between", published: Clock.at(3600))
        try await test.store.ingestNotices(sourceURL: feed, entries: [ahead, between], now: Clock.at(3600))
        // Seen again after its date: it does not jump above what came since.
        let after = try await test.store.ingestNotices(
            sourceURL: feed,
            entries: [ahead, between],
            now: Clock.at(10 * 3600)
        )
        #expect(after.updated == 0 && after.unchanged == 2)
        #expect(try await test.store.notice(sourceURL: feed, entryID: "ahead")?.sortDate == Clock.t0)
        #expect(try await test.store.newestNotices(sourceURL: feed, limit: 10).map(\.entryID) == ["between", "ahead"])
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

    @Test("a URL that became a list of links loses its notices and tombstones at the next pass")
    func sourceChangedKind() async throws {
        let test = try await TestStore().withSources(maxEntries: 2)
        try await test.store.ingestNotices(sourceURL: feed, entries: entries(count: 5), now: Clock.t0)
        let before = try await test.store.counts()
        #expect(before.notices == 2 && before.tombstones == 3)
        // Within every limit: a pass removes nothing while the source is a feed.
        #expect(try await test.store.applyRetention(now: Clock.at(60)) == RetentionReport())

        try await test.store.upsertSource(SourceInput(url: feed, kind: .services), now: Clock.at(60))
        let report = try await test.store.applyRetention(now: Clock.at(120))
        #expect(report.servicesSourceNotices == 2 && report.expiredTombstones == 3 && report.prunedNotices == 0)
        let counts = try await test.store.counts()
        #expect(counts.notices == 0 && counts.tombstones == 0 && counts.sources == 2)
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

    @Test("an event older than every kept one while the history is full is refused, not trimmed under its id")
    func historyTooOld() async throws {
        var configuration = StoreConfiguration.unlimited
        configuration.historyLimit = 2
        let test = try await TestStore(configuration)
        let first = try await test.store.recordHistory(HistoryInput(time: Clock.at(5), title: "e0", kind: "open"))
        // Not full yet: an older event is kept.
        try await test.store.recordHistory(HistoryInput(time: Clock.at(3), title: "e1", kind: "open"))
        let error = try await #require(throws: StoreError.self) {
            try await test.store.recordHistory(HistoryInput(time: Clock.at(2), title: "e2", kind: "open"))
        }
        #expect(error.kind == .historyEventTooOld(oldestKept: Clock.at(3)))
        #expect(
            error.message
                == "an event at 2026-09-21T14:13:22Z would be trimmed at once: the 2 events kept are all newer "
                + "(the oldest at 2026-09-21T14:13:23Z)"
        )
        #expect(try await test.store.recentHistory(limit: 10).map(\.title) == ["e0", "e1"])
        // As old as the oldest kept: that one goes (ties go by id), the new one stays.
        let tie = try await test.store.recordHistory(HistoryInput(time: Clock.at(3), title: "e3", kind: "open"))
        #expect(tie == first + 2)
        #expect(try await test.store.recentHistory(limit: 10).map(\.title) == ["e0", "e3"])
    }

    @Test("a history id is never given twice, even after the event that had the largest was trimmed")
    func historyIDsNotReused() async throws {
        var configuration = StoreConfiguration.unlimited
        configuration.historyLimit = 3
        let test = try await TestStore(configuration)
        var ids: [Int64] = []
        for time in [5.0, 9, 1] {
            ids.append(
                try await test.store.recordHistory(HistoryInput(time: Clock.at(time), title: "\(time)", kind: "open"))
            )
        }
        // A lower limit trims the oldest by time: the event with the largest id.
        configuration.historyLimit = 2
        let lowered = try await Store(path: test.path, configuration: configuration, now: Clock.t0)
        #expect(try await lowered.applyRetention(now: Clock.at(10)).trimmedHistory == 1)
        let next = try await lowered.recordHistory(HistoryInput(time: Clock.at(10), title: "10", kind: "open"))
        #expect(next == ids[2] + 1)
        #expect(try await lowered.recentHistory(limit: 10).map(\.id) == [next, ids[1]])
    }

    @Test("history keeps the newest events by time, then by id, whatever order they are recorded in")
    func historyCapOrder() async throws {
        var configuration = StoreConfiguration.unlimited
        configuration.historyLimit = 3
        let test = try await TestStore(configuration)
        // The two oldest share a time (the later id is the newer: e0 goes first).
        for (index, time) in [5.0, 5, 9, 7].enumerated() {
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
