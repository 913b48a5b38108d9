import Foundation
import HomeFeeds
import HomeFetch
import Synchronization
import TestSupport
import Testing

/// `FetchScheduler` with a manual clock against the loopback server: every network call is
/// real, every scheduling decision is checked against exact instants.
@Suite(.timeLimit(.minutes(1)))
struct FetchSchedulerTests {
    /// No jitter, so instants are exact; a short backoff base makes the arithmetic readable.
    private static func configuration(maxConcurrent: Int = 4, totalTimeout: Double = 10) -> FetchSchedulerConfiguration
    {
        FetchSchedulerConfiguration(
            defaultInterval: 1800,
            minimumInterval: 300,
            maximumInterval: 86_400,
            jitter: 0,
            backoffBase: 60,
            backoffCap: 3600,
            maximumRetryAfter: 86_400,
            maxConcurrentFetches: maxConcurrent,
            limits: FetchTesting.quickLimits(maxBodyBytes: 1 << 20, totalTimeout: totalTimeout)
        )
    }

    private func scheduler(
        _ urls: [String],
        clock: ManualClock,
        recorder: Recorder,
        fetcher: any SourceFetching = FetchTesting.fetcher,
        configuration: FetchSchedulerConfiguration = configuration()
    ) -> FetchScheduler {
        FetchScheduler(
            sources: urls.map { FeedSource(url: $0, kind: .notices) },
            fetcher: fetcher,
            sink: recorder,
            persistence: recorder,
            clock: clock,
            configuration: configuration,
            jitterSeed: 1
        )
    }

    @Test("a malformed feed and a 500 fail on their own; the good source is unaffected")
    func isolation() async throws {
        let server = try await FixtureServer.shared.value
        let key = FetchTesting.key()
        let good = server.url("/feed/\(key)")
        let bad = server.url("/malformed/\(key)")
        let broken = server.url("/status/\(key)?code=500")
        let clock = ManualClock()
        let recorder = Recorder()
        let scheduler = scheduler([bad, good, broken], clock: clock, recorder: recorder)

        let summary = try await scheduler.refresh()
        #expect(summary == RefreshSummary(attempted: 3, changed: 1, notModified: 0, failed: 2))
        #expect(await recorder.documentCount(of: good) == 1)
        #expect(await recorder.documentCount(of: bad) == 0)

        let goodStatus = try #require(await scheduler.state(for: good))
        #expect(goodStatus.lastError == nil)
        #expect(goodStatus.consecutiveFailures == 0)
        #expect(goodStatus.lastSuccess == FetchTesting.start)
        #expect(goodStatus.nextAttempt == FetchTesting.start.addingTimeInterval(1800))

        let badStatus = try #require(await scheduler.state(for: bad))
        #expect(badStatus.consecutiveFailures == 1)
        #expect(badStatus.lastError?.hasPrefix("\(bad): not a readable feed") == true)
        #expect(badStatus.lastSuccess == nil)
        #expect(badStatus.nextAttempt == FetchTesting.start.addingTimeInterval(60))

        let brokenStatus = try #require(await scheduler.state(for: broken))
        #expect(brokenStatus.lastError == "\(broken): HTTP 500 Internal Server Error")
        #expect(await recorder.states.count == 3)
    }

    @Test("200 then 304 through the scheduler: the sink sees the document once, validators persist")
    func notModified() async throws {
        let server = try await FixtureServer.shared.value
        let url = server.url("/feed/\(FetchTesting.key())")
        let recorder = Recorder()
        let scheduler = scheduler([url], clock: ManualClock(), recorder: recorder)
        #expect(try await scheduler.refresh(url: url) == RefreshSummary(attempted: 1, changed: 1))
        #expect(try await scheduler.refresh(url: url) == RefreshSummary(attempted: 1, notModified: 1))
        #expect(await recorder.documentCount(of: url) == 1)
        let persisted = await recorder.states(of: url)
        #expect(persisted.count == 2)
        #expect(persisted.last?.validators.etag == "\"v1\"")
        #expect(persisted.last?.validators.lastModified == "Sat, 01 Jan 2033 00:00:00 GMT")
        #expect(persisted.last?.validators.contentDigest == persisted.first?.validators.contentDigest)
        #expect(persisted.last?.validators.contentDigest != nil)
        #expect(persisted.last?.lastSuccess == FetchTesting.start)
    }

    @Test(
        "the next poll honours max-age and ttl within bounds",
        arguments: [
            ("maxage=7200", 7200.0), ("ttl=180", 10_800), ("maxage=60", 1800), ("ttl=100000", 86_400),
            ("maxage=7200&ttl=60", 7200),
        ]
    )
    func hints(_ query: String, _ interval: Double) async throws {
        let server = try await FixtureServer.shared.value
        let url = server.url("/feed/\(FetchTesting.key())?noval=1&\(query)")
        let scheduler = scheduler([url], clock: ManualClock(), recorder: Recorder())
        _ = try await scheduler.refresh()
        #expect(await scheduler.state(for: url)?.nextAttempt == FetchTesting.start.addingTimeInterval(interval))
    }

    @Test("500 backs off exponentially while run() polls on the manual clock")
    func backoff() async throws {
        let server = try await FixtureServer.shared.value
        let key = FetchTesting.key()
        let url = server.url("/status/\(key)?code=500")
        let clock = ManualClock()
        let recorder = Recorder()
        let scheduler = scheduler([url], clock: clock, recorder: recorder)
        let runner = Task { await scheduler.run() }
        defer { runner.cancel() }

        var expected = FetchTesting.start
        for (attempt, delay) in [60.0, 120, 240, 480].enumerated() {
            await recorder.waitForStates(attempt + 1)
            let state = try #require(await recorder.states(of: url).last)
            #expect(state.consecutiveFailures == attempt + 1)
            #expect(state.lastAttempt == expected)
            expected = expected.addingTimeInterval(delay)
            #expect(state.nextAttempt == expected)
            clock.advance(by: delay - 1)
            #expect(await recorder.states.count == attempt + 1)
            clock.advance(to: expected)
        }
        await recorder.waitForStates(5)
        #expect(try await server.requests(key).count == 5)
    }

    @Test(
        "429 and 503 wait as long as Retry-After says",
        arguments: [
            ("code=429&retry=600", 600.0), ("code=503&retry=10", 60),
            ("code=503&retry=Wed,%2018%20May%202033%2004:33:20%20GMT", 3600),
        ]
    )
    func retryAfter(_ query: String, _ delay: Double) async throws {
        let server = try await FixtureServer.shared.value
        let url = server.url("/status/\(FetchTesting.key())?\(query)")
        let scheduler = scheduler([url], clock: ManualClock(), recorder: Recorder())
        _ = try await scheduler.refresh()
        let status = try #require(await scheduler.state(for: url))
        #expect(status.nextAttempt == FetchTesting.start.addingTimeInterval(delay))
        #expect(status.lastError?.contains("retry after") == true)
    }

    @Test("410 Gone stops polling and says so")
    func gone() async throws {
        let server = try await FixtureServer.shared.value
        let key = FetchTesting.key()
        let url = server.url("/status/\(key)?code=410")
        let other = server.url("/feed/\(key)")
        let scheduler = scheduler([url, other], clock: ManualClock(), recorder: Recorder())
        _ = try await scheduler.refresh()
        let status = try #require(await scheduler.state(for: url))
        #expect(status.isGone)
        #expect(status.nextAttempt == nil)
        #expect(status.lastError == "\(url): HTTP 410 Gone; polling stopped")
        #expect(await scheduler.nextWake() == FetchTesting.start.addingTimeInterval(1800))
        #expect(try await scheduler.refresh() == RefreshSummary(attempted: 1, notModified: 1))
        #expect(try await server.requests(key).filter { $0.path.hasPrefix("/status") }.count == 1)
    }

    @Test(
        "410 after redirects ends polling only when every hop was permanent; else it backs off",
        arguments: [(301, true), (308, true), (302, false), (307, false)]
    )
    func goneAfterRedirect(_ code: Int, _ isGone: Bool) async throws {
        let server = try await FixtureServer.shared.value
        let key = FetchTesting.key()
        let url = server.url("/redirect/\(key)?code=\(code)&to=/status/\(key)%3Fcode=410")
        let scheduler = scheduler([url], clock: ManualClock(), recorder: Recorder())
        #expect(try await scheduler.refresh() == RefreshSummary(attempted: 1, failed: 1))
        let state = try #require(await scheduler.state(for: url))
        #expect(state.isGone == isGone)
        #expect(state.nextAttempt == (isGone ? nil : FetchTesting.start.addingTimeInterval(60)))
        #expect(state.lastError?.hasPrefix("\(url): HTTP 410 Gone after 1 redirect") == true)
    }

    @Test("301 moves the source for later fetches; 302 does not", arguments: [301, 302])
    func permanentRedirect(_ code: Int) async throws {
        let server = try await FixtureServer.shared.value
        let key = FetchTesting.key()
        let url = server.url("/redirect/\(key)?code=\(code)&to=/feed/\(key)")
        let scheduler = scheduler([url], clock: ManualClock(), recorder: Recorder())
        _ = try await scheduler.refresh()
        let state = try #require(await scheduler.state(for: url))
        #expect(state.permanentRedirectURL == (code == 301 ? server.url("/feed/\(key)") : nil))
        #expect(try await scheduler.refresh(url: url) == RefreshSummary(attempted: 1, notModified: 1))
        let redirects = try await server.requests(key).filter { $0.path.hasPrefix("/redirect") }.count
        #expect(redirects == (code == 301 ? 1 : 2))
        #expect(await scheduler.state(for: url)?.fetchURL == state.fetchURL)
    }

    @Test(
        "a permanent move from https to http is followed but not saved, and the log says why",
        arguments: [
            ("http://intra.example/feed.xml", false), ("https://new.example/feed.xml", true),
            ("HTTP://intra.example/feed.xml", false),
        ]
    )
    func noDowngradeSaved(_ target: String, _ isSaved: Bool) async throws {
        let url = "https://intra.example/feed.xml"
        let log = LogRecorder()
        let scheduler = FetchScheduler(
            sources: [FeedSource(url: url, kind: .notices)],
            fetcher: MovedFetcher(target: target),
            sink: Recorder(),
            persistence: Recorder(),
            clock: ManualClock(),
            configuration: Self.configuration(),
            jitterSeed: 1,
            log: { _, message in log.sink(message()) }
        )
        #expect(try await scheduler.refresh() == RefreshSummary(attempted: 1, notModified: 1))
        #expect(await scheduler.state(for: url)?.permanentRedirectURL == (isSaved ? target : nil))
        let notice =
            isSaved
            ? "\(url): moved permanently to \(target)"
            : "\(url): moved permanently to \(target); not saved: the source would be fetched over plain http "
                + "from now on, so this move is followed at each fetch instead"
        #expect(log.lines.contains(notice), "\(log.lines)")
    }

    @Test(
        "a permanent move from https that passed through plain http is followed but not saved, even to https",
        arguments: [("https://intra.example/feed.xml", false), ("http://intra.example/feed.xml", true)]
    )
    func noMoveThroughHTTPSaved(_ url: String, _ isSaved: Bool) async throws {
        let target = "https://new.example/feed.xml"
        let log = LogRecorder()
        let scheduler = FetchScheduler(
            sources: [FeedSource(url: url, kind: .notices)],
            fetcher: MovedFetcher(target: target, passedHTTP: true),
            sink: Recorder(),
            persistence: Recorder(),
            clock: ManualClock(),
            configuration: Self.configuration(),
            jitterSeed: 1,
            log: { _, message in log.sink(message()) }
        )
        #expect(try await scheduler.refresh() == RefreshSummary(attempted: 1, notModified: 1))
        #expect(await scheduler.state(for: url)?.permanentRedirectURL == (isSaved ? target : nil))
        let notice =
            isSaved
            ? "\(url): moved permanently to \(target)"
            : "\(url): moved permanently to \(target); not saved: the move passed through plain http, where anyone "
                + "on the path could have chosen where it led, so this move is followed at each fetch instead"
        #expect(log.lines.contains(notice), "\(log.lines)")
    }

    @Test("a move that is not saved is logged once per target, however many fetches follow it")
    func unsavedMoveLoggedOnce() async throws {
        let url = "https://intra.example/feed.xml"
        let log = LogRecorder()
        let fetcher = RelocatingFetcher(target: "http://intra.example/feed.xml")
        let scheduler = FetchScheduler(
            sources: [FeedSource(url: url, kind: .notices)],
            fetcher: fetcher,
            sink: Recorder(),
            persistence: Recorder(),
            clock: ManualClock(),
            configuration: Self.configuration(),
            jitterSeed: 1,
            log: { _, message in log.sink(message()) }
        )
        func moves() -> [String] { log.lines.filter { $0.contains("moved permanently") } }
        for _ in 0..<3 { _ = try await scheduler.refresh() }
        #expect(moves().count == 1, "\(moves())")
        // Somewhere else: told again, once.
        fetcher.move(to: "http://other.example/feed.xml")
        for _ in 0..<3 { _ = try await scheduler.refresh() }
        #expect(moves().count == 2, "\(moves())")
        let moved = "\(url): moved permanently to http://other.example/feed.xml; not saved"
        #expect(moves().last?.hasPrefix(moved) == true)
    }

    @Test("a permanent move to a URL with a user name and password is followed but not saved, nor logged with them")
    func noUserinfoSaved() async throws {
        let server = try await FixtureServer.shared.value
        let key = FetchTesting.key()
        let target = "http://reader:secret@127.0.0.1:\(server.port)/feed/\(key)"
        let url = server.url("/redirect/\(key)?code=301&to=\(target)")
        let log = LogRecorder()
        let recorder = Recorder()
        let scheduler = FetchScheduler(
            sources: [FeedSource(url: url, kind: .notices)],
            fetcher: FetchTesting.fetcher,
            sink: recorder,
            persistence: recorder,
            clock: ManualClock(),
            configuration: Self.configuration(),
            jitterSeed: 1,
            log: { _, message in log.sink(message()) }
        )
        #expect(try await scheduler.refresh() == RefreshSummary(attempted: 1, changed: 1))
        #expect(await scheduler.state(for: url)?.permanentRedirectURL == nil)
        #expect(await recorder.states.last?.permanentRedirectURL == nil)
        let notice =
            "\(url): moved permanently to \(server.url("/feed/\(key)")); not saved: its URL carries a user name or "
            + "password (not shown), which would be stored and shown, so this move is followed at each fetch instead"
        #expect(log.lines.contains(notice), "\(log.lines)")
        #expect(!log.lines.contains { $0.replacingOccurrences(of: url, with: "").contains("secret") }, "\(log.lines)")
    }

    @Test("a saved move to a URL with a user name and password is dropped at start-up without showing them")
    func savedUserinfoDropped() async throws {
        let url = "https://intra.example/feed.xml"
        let log = LogRecorder()
        let clock = ManualClock()
        let persistence = Recorder()
        let scheduler = FetchScheduler(
            sources: [FeedSource(url: url, kind: .notices)],
            // Due in an hour: nothing is fetched while the test runs.
            states: [
                SourceFetchState(
                    url: url,
                    nextAttempt: clock.now().addingTimeInterval(3600),
                    permanentRedirectURL: "https://reader:secret@new.example/feed.xml"
                )
            ],
            fetcher: FetchTesting.fetcher,
            sink: Recorder(),
            persistence: persistence,
            clock: clock,
            configuration: Self.configuration(),
            log: { _, message in log.sink(message()) }
        )
        #expect(await scheduler.state(for: url)?.fetchURL == url)
        #expect(log.lines.count == 1)
        #expect(log.lines.first?.contains("https://new.example/feed.xml") == true, "\(log.lines)")
        #expect(!log.lines.contains { $0.contains("secret") }, "\(log.lines)")
        // And from the store, as soon as the scheduler runs, not at the source's next fetch.
        let running = Task { await scheduler.run() }
        await persistence.waitForStates(1)
        running.cancel()
        await running.value
        #expect(await persistence.states.map(\.permanentRedirectURL) == [nil])
    }

    @Test("a stalled source times out without holding up the others")
    func stalled() async throws {
        let slowServer = try await FixtureServer.start()
        let server = try await FixtureServer.shared.value
        let key = FetchTesting.key()
        let stalled = slowServer.url("/stallhead/\(key)")
        let good = server.url("/feed/\(key)")
        let recorder = Recorder()
        let scheduler = scheduler(
            [stalled, good],
            clock: ManualClock(),
            recorder: recorder,
            // Long enough for the good source on a machine busy with the whole suite: both
            // sources share the limit, and a good fetch that took this long would fail too.
            configuration: Self.configuration(totalTimeout: 10)
        )
        let refresh = Task { try await scheduler.refresh() }
        await recorder.waitForStates(1)
        #expect(await recorder.states.first?.url == good)
        let summary = try await refresh.value
        let goodError = await scheduler.state(for: good)?.lastError
        #expect(
            summary == RefreshSummary(attempted: 2, changed: 1, failed: 1),
            "\(summary); the good source's error: \(goodError ?? "none")"
        )
        #expect(await scheduler.state(for: stalled)?.lastError == "\(stalled): timed out")
    }

    @Test("one fetch per host at a time")
    func perHost() async throws {
        let server = try await FixtureServer.start()
        let urls = (0..<4).map { server.url("/slow/\($0)?ms=150") }
        let scheduler = scheduler(urls, clock: ManualClock(), recorder: Recorder())
        #expect(try await scheduler.refresh().attempted == 4)
        #expect(try await server.maxActive() == 1)
    }

    @Test("at most N fetches at once over all hosts")
    func globalLimit() async throws {
        var servers: [FixtureServer] = []
        for _ in 0..<3 { servers.append(try await FixtureServer.start()) }
        let urls = servers.flatMap { server in (0..<2).map { server.url("/slow/\($0)?ms=150") } }
        let counting = CountingFetcher()
        let scheduler = scheduler(
            urls,
            clock: ManualClock(),
            recorder: Recorder(),
            fetcher: counting,
            configuration: Self.configuration(maxConcurrent: 2)
        )
        #expect(try await scheduler.refresh().attempted == 6)
        #expect(counting.maxActive <= 2)
        for server in servers { #expect(try await server.maxActive() == 1) }
    }

    @Test("a failed ingest keeps the old validators, so the next fetch is a full one")
    func ingestFailure() async throws {
        let server = try await FixtureServer.shared.value
        let url = server.url("/feed/\(FetchTesting.key())")
        let recorder = Recorder()
        await recorder.failIngest(of: url)
        let scheduler = scheduler([url], clock: ManualClock(), recorder: recorder)
        #expect(try await scheduler.refresh() == RefreshSummary(attempted: 1, failed: 1))
        let state = try #require(await scheduler.state(for: url))
        #expect(state.validators.isEmpty)
        #expect(state.lastError == "\(url): ingest failed: disk full")
        #expect(state.nextAttempt == FetchTesting.start.addingTimeInterval(60))
    }

    @Test("persisted state is honoured at start-up, and unknown URLs are refused")
    func restoredState() async throws {
        let server = try await FixtureServer.shared.value
        let key = FetchTesting.key()
        let url = server.url("/feed/\(key)")
        let later = FetchTesting.start.addingTimeInterval(900)
        let restored = SourceFetchState(
            url: url,
            validators: HTTPValidators(etag: "\"v1\""),
            nextAttempt: later
        )
        let clock = ManualClock()
        let recorder = Recorder()
        let scheduler = FetchScheduler(
            sources: [FeedSource(url: url, kind: .notices)],
            states: [restored],
            fetcher: FetchTesting.fetcher,
            sink: recorder,
            persistence: recorder,
            clock: clock,
            configuration: Self.configuration(),
            jitterSeed: 1
        )
        #expect(await scheduler.nextWake() == later)
        let runner = Task { await scheduler.run() }
        defer { runner.cancel() }
        clock.advance(to: later)
        await recorder.waitForStates(1)
        #expect(await recorder.states.first?.lastSuccess == later)
        #expect(await recorder.documentCount(of: url) == 0)
        #expect(try await server.requests(key).first?.ifNoneMatch == "\"v1\"")
        await #expect(throws: FetchSchedulerError.sourceNotFound("http://elsewhere/")) {
            try await scheduler.refresh(url: "http://elsewhere/")
        }
    }

    @Test("at start-up a next attempt a success set under a longer interval is pulled in; a failure's stays")
    func lowerIntervalAppliesAtStart() async throws {
        let start = FetchTesting.start
        func at(_ seconds: Double) -> Date { start.addingTimeInterval(seconds) }
        // Saved by a daemon that polled once a day; this one polls every 1800 s, timeout 10 s.
        let overdue = SourceFetchState(
            url: "https://overdue.example/feed",
            lastAttempt: at(-3600),
            lastSuccess: at(-3600),
            nextAttempt: at(-3600 + 86_400)
        )
        let recent = SourceFetchState(
            url: "https://recent.example/feed",
            lastAttempt: at(-600),
            lastSuccess: at(-600),
            nextAttempt: at(-600 + 86_400)
        )
        // Set by this interval after a fetch that took the whole timeout, and a store that
        // waited a minute for a lock before it took the document.
        let slow = SourceFetchState(
            url: "https://slow.example/feed",
            lastAttempt: at(-100),
            lastSuccess: at(-100),
            nextAttempt: at(-100 + 10 + 60 + 1800)
        )
        let backedOff = SourceFetchState(
            url: "https://busy.example/feed",
            lastAttempt: at(-600),
            lastSuccess: at(-90_000),
            nextAttempt: at(-600 + 50_000),
            consecutiveFailures: 3,
            lastError: "https://busy.example/feed: HTTP 503 Service Unavailable, retry after 50000 s"
        )
        let states = [overdue, recent, slow, backedOff]
        let log = LogRecorder()
        let scheduler = FetchScheduler(
            sources: states.map { FeedSource(url: $0.url, kind: .notices) },
            states: states,
            fetcher: FetchTesting.fetcher,
            sink: Recorder(),
            persistence: Recorder(),
            clock: ManualClock(),
            configuration: Self.configuration(),
            jitterSeed: 1,
            log: { _, message in log.sink(message()) }
        )
        #expect(await scheduler.state(for: overdue.url)?.nextAttempt == start)
        #expect(await scheduler.state(for: recent.url)?.nextAttempt == at(-600 + 10 + 300 + 1800))
        #expect(await scheduler.state(for: slow.url)?.nextAttempt == slow.nextAttempt)
        #expect(await scheduler.state(for: backedOff.url)?.nextAttempt == backedOff.nextAttempt)
        #expect(await scheduler.nextWake() == start)
        #expect(log.lines.count == 2, "\(log.lines)")
        let notice = log.lines.first { $0.hasPrefix("\(recent.url): next attempt was ") }
        #expect(notice?.hasSuffix("moved to \(at(1510))") == true, "\(log.lines)")
    }

    @Test("a service-link document reaches the sink as OPML; a file source comes back not modified")
    func servicesAndFiles() async throws {
        let server = try await FixtureServer.shared.value
        let scratch = try TemporaryDirectory(prefix: "hf-fetch")
        let directory = scratch.url
        let file = directory.appendingPathComponent("notices.xml")
        try Data(
            "<rss version=\"2.0\"><channel><title>Local</title><item><guid>a</guid><title>A</title></item></channel></rss>"
                .utf8
        ).write(to: file)
        let links = server.url("/links/\(FetchTesting.key())")
        let recorder = Recorder()
        let scheduler = FetchScheduler(
            sources: [
                FeedSource(url: links, kind: .services, section: .mainService),
                FeedSource(url: file.absoluteString, kind: .notices),
            ],
            fetcher: FetchTesting.fetcher,
            sink: recorder,
            persistence: recorder,
            clock: ManualClock(),
            configuration: Self.configuration(),
            jitterSeed: 1
        )
        #expect(try await scheduler.refresh() == RefreshSummary(attempted: 2, changed: 2))
        let documents = await recorder.documents
        let opml = documents.first { $0.url == links }.map(\.document.document)
        guard case .opml(let list)? = opml else {
            Issue.record("expected OPML, got \(String(describing: opml))")
            return
        }
        #expect(list.outlines.map(\.text) == ["Mail", "Maps"])
        let local = await recorder.documents.first { $0.url == file.absoluteString }.map(\.document.document)
        guard case .feed(let feed)? = local else {
            Issue.record("expected the local feed, got \(String(describing: local))")
            return
        }
        #expect(feed.title == "Local")
        // The links document has no validators, but the same bytes again are recognised by
        // their digest; the file by its size and modification time.
        #expect(try await scheduler.refresh() == RefreshSummary(attempted: 2, notModified: 2))
        #expect(await recorder.documents.count == 2)
    }

    @Test("replaced sources keep their state; run() returns once cancelled")
    func replaceAndStop() async throws {
        let server = try await FixtureServer.shared.value
        let key = FetchTesting.key()
        let kept = server.url("/feed/\(key)")
        let added = server.url("/feed/\(key)?noval=1")
        let clock = ManualClock()
        let recorder = Recorder()
        let scheduler = scheduler([kept], clock: clock, recorder: recorder)
        let runner = Task { await scheduler.run() }
        await recorder.waitForStates(1)
        let before = try #require(await scheduler.state(for: kept))
        await scheduler.replaceSources([
            FeedSource(url: kept, kind: .notices), FeedSource(url: added, kind: .notices),
        ])
        await recorder.waitForStates(2)
        #expect(await recorder.states.last?.url == added)
        #expect(await scheduler.state(for: kept) == before)
        #expect(await scheduler.sourceURLs == [kept, added])
        runner.cancel()
        await runner.value
        #expect(await !scheduler._isFetching(kept))
        #expect(await !scheduler._isFetching(added))
    }

    @Test("a reload that drops a source cancels its transfer; nothing is reported for it")
    func droppedSourceIsCancelled() async throws {
        let server = try await FixtureServer.shared.value
        let key = FetchTesting.key()
        let stalled = server.url("/stallhead/\(key)")
        let recorder = Recorder()
        let scheduler = scheduler([stalled], clock: ManualClock(), recorder: recorder)
        let refresh = Task { try await scheduler.refresh(url: stalled) }
        try await server.waitForRequest(stalled)
        #expect(await scheduler._isFetching(stalled))
        await scheduler.replaceSources([])
        // The fetch ends as cancelled (not after the stall's 30 s as timed out), and a
        // cancelled attempt is neither counted nor persisted.
        let summary = try await refresh.value
        #expect(summary.attempted == 0)
        #expect(await recorder.states(of: stalled).isEmpty)
        #expect(await scheduler.sourceURLs.isEmpty)
    }

    @Test("jitter is seeded: the same seed gives the same schedule")
    func seededJitter() async throws {
        let server = try await FixtureServer.shared.value
        var configuration = Self.configuration()
        configuration.jitter = 0.1
        var nextAttempts: [Date?] = []
        for _ in 0..<2 {
            let url = server.url("/feed/\(FetchTesting.key())?noval=1")
            let scheduler = FetchScheduler(
                sources: [FeedSource(url: url, kind: .notices)],
                fetcher: FetchTesting.fetcher,
                sink: Recorder(),
                persistence: Recorder(),
                clock: ManualClock(),
                configuration: configuration,
                jitterSeed: 42
            )
            _ = try await scheduler.refresh()
            nextAttempts.append(await scheduler.state(for: url)?.nextAttempt)
        }
        let first = try #require(nextAttempts[0])
        #expect(nextAttempts[0] == nextAttempts[1])
        #expect(abs(first.timeIntervalSince(FetchTesting.start) - 1800) <= 180)
        #expect(first != FetchTesting.start.addingTimeInterval(1800))
    }
}

/// Answers every fetch as not modified after a permanent redirect to `target`.
struct MovedFetcher: SourceFetching {
    var target: String
    /// The chain had a plain http hop before `target`.
    var passedHTTP = false

    func fetch(_ request: FetchRequest) async throws(FetchError) -> FetchOutcome {
        .notModified(
            FetchResponseInfo(
                requestedURL: request.url,
                finalURL: target,
                permanentRedirectURL: target,
                permanentRedirectPassedHTTP: passedHTTP || target.lowercased().hasPrefix("http:"),
                redirects: passedHTTP ? 2 : 1,
                status: 304
            )
        )
    }
}

/// A ``MovedFetcher`` whose target the test moves.
final class RelocatingFetcher: SourceFetching {
    private let target: Mutex<String>

    init(target: String) {
        self.target = Mutex(target)
    }

    func move(to url: String) { target.withLock { $0 = url } }

    func fetch(_ request: FetchRequest) async throws(FetchError) -> FetchOutcome {
        try await MovedFetcher(target: target.withLock { $0 }).fetch(request)
    }
}

/// Wraps the shared fetcher and records the most fetches in flight at once.
final class CountingFetcher: SourceFetching {
    private let counts = Mutex((active: 0, max: 0))

    var maxActive: Int { counts.withLock { $0.max } }

    func fetch(_ request: FetchRequest) async throws(FetchError) -> FetchOutcome {
        counts.withLock { counts in
            counts.active += 1
            counts.max = max(counts.max, counts.active)
        }
        defer { counts.withLock { $0.active -= 1 } }
        return try await FetchTesting.fetcher.fetch(request)
    }
}
