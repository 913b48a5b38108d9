import Foundation
import HomeFeeds
import HomeFetch
import HomeStore
import LogCore
import TestSupport
import Testing

@testable import HomeDaemon

/// A directory of sources, local and over loopback HTTP, fetched on schedule into one SQLite
/// file: the whole ingestion path of issue 4 with real parts (file, HTTP server, WAL file).
@Suite(.timeLimit(.minutes(1)))
struct StoreIngestionTests {
    let scratch: TemporaryDirectory
    var directory: URL { scratch.url }
    /// One fetcher for the suite's tests, as the daemon has one.
    static let fetcher = FeedFetcher()

    init() throws {
        scratch = try TemporaryDirectory(prefix: "hf-ingest")
    }

    /// sources.opml with a local Korean RSS file, a loopback HTTP feed and a local services OPML.
    func writeConfiguration(httpFeed: String) throws -> String {
        let rss = """
            <?xml version="1.0" encoding="UTF-8"?>
            <rss version="2.0"><channel><title>공지사항</title>
            <item><title>수강신청 안내</title><guid isPermaLink="false">n-1</guid>
            <pubDate>Fri, 27 Nov 2026 09:00:00 +0900</pubDate></item>
            <item><title>도서관 개방</title><guid isPermaLink="false">n-2</guid></item>
            </channel></rss>
            """
        let services = """
            <?xml version="1.0" encoding="UTF-8"?>
            <opml version="2.0"><head><title>서비스</title></head><body>
            <outline type="link" category="/main-service" text="학사" url="https://example.test/a"/>
            <outline type="link" category="/app-service" text="지도" url="https://example.test/map"/>
            </body></opml>
            """
        let sources = """
            <?xml version="1.0" encoding="UTF-8"?>
            <opml version="2.0"><head><title>sources</title></head><body>
            <outline type="rss" text="공지사항" xmlUrl="notices.xml"/>
            <outline type="rss" text="Loopback" xmlUrl="\(httpFeed)"/>
            <outline type="link" category="/app-service" text="Services" url="services.opml"/>
            <outline type="link" category="/other-service" text="셔틀" url="https://example.test/shuttle"/>
            </body></opml>
            """
        try Data(rss.utf8).write(to: directory.appendingPathComponent("notices.xml"))
        try Data(services.utf8).write(to: directory.appendingPathComponent("services.opml"))
        try Data(sources.utf8).write(to: directory.appendingPathComponent("sources.opml"))
        return directory.appendingPathComponent("sources.opml").path
    }

    func scheduler(_ list: SourceList, states: [SourceFetchState], ingestion: StoreIngestion, clock: ManualClock)
        -> FetchScheduler
    {
        FetchScheduler(
            sources: list.sources,
            states: states,
            fetcher: Self.fetcher,
            sink: ingestion,
            persistence: ingestion,
            clock: clock,
            configuration: FetchSchedulerConfiguration(
                defaultInterval: 1800,
                minimumInterval: 300,
                maximumInterval: 86_400,
                jitter: 0,
                backoffBase: 60,
                backoffCap: 3600,
                maximumRetryAfter: 86_400,
                maxConcurrentFetches: 4,
                limits: FetchLimits(maxBodyBytes: 1 << 20, totalTimeout: 10)
            ),
            jitterSeed: 1
        )
    }

    @Test("file and loopback sources land in one SQLite file; a restart keeps validators; the schedule polls again")
    func endToEnd() async throws {
        let server = try await FixtureServer.shared.value
        let httpFeed = server.url("/feed/\(UUID().uuidString.lowercased())")
        let list = try await SourceList.load(path: try writeConfiguration(httpFeed: httpFeed))
        let databasePath = directory.appendingPathComponent("homefeed.sqlite").path

        do {
            let store = try await Store(path: databasePath)
            let ingestion = StoreIngestion(store: store)
            let states = try await ingestion.register(list)
            #expect(states.map(\.url).count == 3)
            #expect(try await ingestion.storeListLinks(list))
            let clock = ManualClock()
            let scheduler = scheduler(list, states: states, ingestion: ingestion, clock: clock)
            let summary = try await scheduler.refresh()
            #expect(summary.attempted == 3 && summary.changed == 3 && summary.failed == 0)

            let local = list.sources[0].url
            // Newest first: the undated entry sorts by when it was first seen (now), after 27 Nov.
            #expect(try await store.newestNotices(sourceURL: local, limit: 10).map(\.title) == ["도서관 개방", "수강신청 안내"])
            #expect(try await store.noticeCount(sourceURL: httpFeed) == 2)
            #expect(try await store.serviceLinks(section: "main-service").map(\.title) == ["학사"])
            #expect(try await store.serviceLinks(section: "other-service").map(\.title) == ["셔틀"])
            // A source's own section is its outline's category, recorded without the slash; the
            // links of its document go where their own categories say.
            #expect(try await store.sources().map(\.section) == [nil, nil, "app-service", nil])
            let source = try #require(try await store.source(url: httpFeed))
            #expect(source.validators.etag == "\"v1\"")
            #expect(source.lastError == nil)

            // The same documents again change nothing.
            let again = try await scheduler.refresh()
            #expect(again.changed == 0)
        }

        // Restart: a new store on the same file hands the scheduler its saved validators, so
        // the HTTP source is polled conditionally (304) on its schedule.
        let store = try await Store(path: databasePath)
        #expect(try await store.integrityCheck() == ["ok"])
        let ingestion = StoreIngestion(store: store)
        let states = try await ingestion.register(list)
        let saved = try #require(states.first { $0.url == httpFeed })
        #expect(saved.validators.etag == "\"v1\"")
        let next = try #require(saved.nextAttempt)

        let clock = ManualClock()
        let scheduler = scheduler(list, states: states, ingestion: ingestion, clock: clock)
        let run = Task { await scheduler.run() }
        defer { run.cancel() }
        clock.advance(to: next.addingTimeInterval(1))
        // Wait (bounded) for the scheduled attempt to be persisted.
        var attempted: Date?
        for _ in 0..<500 where (attempted ?? .distantPast) < next {
            try await Task.sleep(for: .milliseconds(10))
            attempted = try await store.source(url: httpFeed)?.lastAttempt
        }
        let polled = try #require(try await store.source(url: httpFeed))
        #expect(polled.lastAttempt.map { $0 >= next } == true)
        #expect(polled.validators.etag == "\"v1\"")
        #expect(try await store.noticeCount(sourceURL: httpFeed) == 2)
    }

    @Test("an rss outline whose URL serves an OPML list fails as that source, not as the store")
    func documentOfTheOtherKind() async throws {
        _ = try writeConfiguration(httpFeed: "https://example.test/unused.xml")
        let sources = """
            <?xml version="1.0" encoding="UTF-8"?>
            <opml version="2.0"><head><title>sources</title></head><body>
            <outline type="rss" text="Not a feed" xmlUrl="services.opml"/>
            </body></opml>
            """
        let path = directory.appendingPathComponent("wrong.opml").path
        try Data(sources.utf8).write(to: URL(fileURLWithPath: path))
        let list = try await SourceList.load(path: path)
        let store = try await Store(path: directory.appendingPathComponent("homefeed.sqlite").path)
        let ingestion = StoreIngestion(store: store)
        let health = StoreHealth(recovery: nil)
        let sink = PublishingSink(
            ingestion: ingestion,
            changed: ServiceSignal<Void>(),
            health: health,
            warnings: ParseWarningCounts(),
            clock: StoreClockWatch(logger: Logger(label: "test", level: .error, sink: { _ in }))
        )
        let scheduler = FetchScheduler(
            sources: list.sources,
            states: try await ingestion.register(list),
            fetcher: Self.fetcher,
            sink: sink,
            persistence: ingestion,
            clock: ManualClock(),
            configuration: FetchSchedulerConfiguration(limits: FetchLimits(maxBodyBytes: 1 << 20, totalTimeout: 10)),
            jitterSeed: 1
        )
        let summary = try await scheduler.refresh()
        #expect(summary.failed == 1)
        #expect(health.totalFailures == 0)
        let source = try #require(try await store.source(url: list.sources[0].url))
        #expect(
            source.lastError?.contains("names a feed (type=\"rss\") here, but the document is an OPML list") == true
        )
    }

    @Test(
        "a feed fetched while the clock is behind the store's latest time is left for later: no failure, no validators"
    )
    func clockBehind() async throws {
        let server = try await FixtureServer.shared.value
        let httpFeed = server.url("/feed/\(UUID().uuidString.lowercased())")
        let list = try await SourceList.load(path: try writeConfiguration(httpFeed: httpFeed))
        let store = try await Store(path: directory.appendingPathComponent("homefeed.sqlite").path)
        let ingestion = StoreIngestion(store: store)
        let states = try await ingestion.register(list)
        // Seen in 2100: the system clock is far behind that, whatever it says.
        let seen = Date(timeIntervalSince1970: 4_102_444_800)
        try await store.ingestNotices(sourceURL: list.sources[0].url, entries: [NoticeInput(entryID: "x")], now: seen)
        let log = LogRecorder()
        let health = StoreHealth(recovery: nil)
        let sink = PublishingSink(
            ingestion: ingestion,
            changed: ServiceSignal<Void>(),
            health: health,
            warnings: ParseWarningCounts(),
            clock: StoreClockWatch(logger: Logger(label: "test", level: .info, sink: log.sink))
        )
        let scheduler = FetchScheduler(
            sources: list.sources,
            states: states,
            fetcher: Self.fetcher,
            sink: sink,
            persistence: ingestion,
            clock: ManualClock(),
            configuration: FetchSchedulerConfiguration(limits: FetchLimits(maxBodyBytes: 1 << 20, totalTimeout: 10)),
            jitterSeed: 1
        )
        for _ in 0..<2 {
            let summary = try await scheduler.refresh(url: httpFeed)
            #expect(summary == RefreshSummary(attempted: 1))
        }
        #expect(health.totalFailures == 0)
        #expect(try await store.noticeCount(sourceURL: httpFeed) == 0)
        // Both fetches asked for the whole document, and the next one will too.
        let requests = try await server.requests(String(httpFeed.split(separator: "/").last ?? ""))
        #expect(requests.count == 2 && requests.allSatisfy { $0.ifNoneMatch == nil })
        let state = try #require(await scheduler.state(for: httpFeed))
        #expect(state.validators == HTTPValidators() && state.consecutiveFailures == 0 && state.lastError == nil)
        let source = try #require(try await store.source(url: httpFeed))
        #expect(source.validators == Validators() && source.lastError == nil && source.lastSuccess != nil)
        // Said once, however many fetches it refuses.
        #expect(log.lines.filter { $0.hasPrefix("<4>") && $0.contains("behind") }.count == 1)
    }

    @Test("the clock being behind is logged once while it lasts, its end once")
    func clockWatchLogsOnce() {
        let log = LogRecorder()
        let watch = StoreClockWatch(logger: Logger(label: "test", level: .info, sink: log.sink))
        let behind = StoreError(
            kind: .clockBehind(
                now: Date(timeIntervalSince1970: 946_684_800),
                latest: Date(timeIntervalSince1970: 1_790_000_000)
            ),
            message: "behind"
        )
        #expect(!watch.refused(StoreError(kind: .unknownSource(url: "x"), message: "no source")))
        watch.accepted()
        #expect(watch.refused(behind) && watch.refused(behind))
        watch.accepted()
        watch.accepted()
        #expect(watch.refused(behind))
        #expect(
            log.lines == [
                "<4>test: the system clock (2000-01-01T00:00:00Z) is more than a day behind the latest time the store "
                    + "recorded (2026-09-21T14:13:20Z): fetched notices are not stored and retention does not run "
                    + "until it is right (a fresh feed confirms it, or a day of running passes); sources are fetched again on their schedule",
                "<5>test: storing fetched notices again: the system clock has caught up with the store's latest "
                    + "time, or is taken as right (a fresh feed confirmed it, or it stayed behind for a day of running)",
                "<4>test: the system clock (2000-01-01T00:00:00Z) is more than a day behind the latest time the store "
                    + "recorded (2026-09-21T14:13:20Z): fetched notices are not stored and retention does not run "
                    + "until it is right (a fresh feed confirms it, or a day of running passes); sources are fetched again on their schedule",
            ]
        )
    }
}
