import Foundation
import HomeStore
import Testing

/// Sources and their fetch state.
@Suite struct SourceTests {
    let feed = TestStore.feedURL

    @Test("upsert adds, then updates configuration but keeps fetch state")
    func upsertKeepsFetchState() async throws {
        let test = try await TestStore().withSources()
        try await test.store.recordFetch(
            sourceURL: feed,
            FetchRecord(
                outcome: .fetched(Validators(etag: "\"1\"", lastModified: "Sun, 20 Sep 2026 12:00:00 GMT")),
                attemptedAt: Clock.t0,
                nextAttempt: Clock.at(600),
                permanentRedirect: nil
            )
        )
        let updated = try await test.store.upsertSource(
            SourceInput(
                url: feed,
                kind: .notices,
                title: "새 이름",
                section: "/notices",
                maxEntries: 10,
                maxAge: .seconds(3_600)
            ),
            now: Clock.at(1)
        )
        #expect(updated.title == "새 이름")
        #expect(updated.section == "/notices")
        #expect(updated.maxEntries == 10)
        #expect(updated.maxAge == .seconds(3_600))
        #expect(updated.validators.etag == "\"1\"")
        #expect(updated.nextAttempt == Clock.at(600))
        let all = try await test.store.sources()
        #expect(all.map(\.url) == [feed, TestStore.linksURL])
        #expect(all.map(\.kind) == [.notices, .services])
    }

    @Test("upserting a whole configuration is one call; unknown URLs are reported")
    func upsertMany() async throws {
        let test = try await TestStore()
        let stored = try await test.store.upsertSources(
            [SourceInput(url: "file:///a.xml", kind: .notices), SourceInput(url: "b.opml", kind: .services)],
            now: Clock.t0
        )
        #expect(stored.map(\.url) == ["file:///a.xml", "b.opml"])
        #expect(try await test.store.source(url: "c") == nil)
        let error = try await #require(throws: StoreError.self) {
            try await test.store.recordFetch(
                sourceURL: "c",
                FetchRecord(outcome: .notModified, attemptedAt: Clock.t0, nextAttempt: nil, permanentRedirect: nil)
            )
        }
        #expect(error.kind == .unknownSource(url: "c"))
    }

    @Test("fetch outcomes: 200 replaces the validator pair, 304 keeps it, failures count up, success resets")
    func outcomes() async throws {
        let test = try await TestStore().withSources()
        var source = try await test.store.recordFetch(
            sourceURL: feed,
            FetchRecord(
                outcome: .fetched(Validators(etag: "\"1\"", lastModified: "Sun, 20 Sep 2026 12:00:00 GMT")),
                attemptedAt: Clock.t0,
                nextAttempt: Clock.at(600),
                permanentRedirect: nil
            )
        )
        #expect(source.validators == Validators(etag: "\"1\"", lastModified: "Sun, 20 Sep 2026 12:00:00 GMT"))

        // The pair is replaced as a whole: a response with only an ETag clears Last-Modified.
        source = try await test.store.recordFetch(
            sourceURL: feed,
            FetchRecord(
                outcome: .fetched(Validators(etag: "\"2\"")),
                attemptedAt: Clock.at(600),
                nextAttempt: Clock.at(1_200),
                permanentRedirect: nil
            )
        )
        #expect(source.validators == Validators(etag: "\"2\"", lastModified: nil))

        for attempt in 1...2 {
            source = try await test.store.recordFetch(
                sourceURL: feed,
                FetchRecord(
                    outcome: .failed(error: "HTTP 503"),
                    attemptedAt: Clock.at(1_200 * Double(attempt + 1)),
                    nextAttempt: Clock.at(9_999),
                    permanentRedirect: nil
                )
            )
        }
        #expect(source.consecutiveFailures == 2)
        #expect(source.lastError == "HTTP 503")
        #expect(source.lastSuccess == Clock.at(600))
        #expect(source.lastAttempt == Clock.at(3_600))
        #expect(source.validators.etag == "\"2\"")

        source = try await test.store.recordFetch(
            sourceURL: feed,
            FetchRecord(
                outcome: .notModified,
                attemptedAt: Clock.at(10_000),
                nextAttempt: Clock.at(10_600),
                permanentRedirect: nil
            )
        )
        #expect(source.consecutiveFailures == 0)
        #expect(source.lastError == nil)
        #expect(source.lastSuccess == Clock.at(10_000))
        #expect(source.validators.etag == "\"2\"")
    }

    @Test("410 Gone stops polling until the fetch state is reset")
    func gone() async throws {
        let test = try await TestStore().withSources()
        let source = try await test.store.recordFetch(
            sourceURL: feed,
            FetchRecord(
                outcome: .gone(message: "HTTP 410 Gone"),
                attemptedAt: Clock.t0,
                nextAttempt: Clock.at(60),
                permanentRedirect: nil
            )
        )
        #expect(source.isGone)
        #expect(source.nextAttempt == nil)
        #expect(source.lastError == "HTTP 410 Gone")
        #expect(try await test.store.dueSources(now: Clock.at(Clock.day)).map(\.url) == [TestStore.linksURL])
        // Re-reading the configuration does not revive it; a reset does.
        try await test.store.upsertSource(SourceInput(url: feed, kind: .notices), now: Clock.at(1))
        #expect(try await test.store.source(url: feed)?.isGone == true)
        try await test.store.resetFetchState(sourceURL: feed)
        let reset = try #require(try await test.store.source(url: feed))
        #expect(!reset.isGone && reset.lastError == nil && reset.validators.isEmpty && reset.consecutiveFailures == 0)
    }

    @Test("a permanent redirect is stored next to the configured URL and becomes the fetch URL")
    func permanentRedirect() async throws {
        let test = try await TestStore().withSources()
        let source = try await test.store.recordFetch(
            sourceURL: feed,
            FetchRecord(
                outcome: .fetched(Validators()),
                attemptedAt: Clock.t0,
                nextAttempt: nil,
                permanentRedirect: "https://example.org/new-feed.xml"
            )
        )
        #expect(source.url == feed)
        #expect(source.fetchURL == "https://example.org/new-feed.xml")
        try await test.store.setPermanentRedirect(sourceURL: feed, to: nil)
        #expect(try await test.store.source(url: feed)?.fetchURL == feed)
    }

    @Test("an attempt after which the source is fetched from its own URL again clears a stored redirect")
    func redirectCleared() async throws {
        let test = try await TestStore().withSources()
        let moved = FetchRecord(
            outcome: .fetched(Validators()),
            attemptedAt: Clock.t0,
            nextAttempt: nil,
            permanentRedirect: "https://example.org/new-feed.xml"
        )
        try await test.store.recordFetch(sourceURL: feed, moved)
        // The new URL answered 301 back to the configured one: the scheduler's state has no
        // redirect, and neither has the store, so a restart fetches the configured URL.
        let back = FetchRecord(
            outcome: .fetched(Validators()),
            attemptedAt: Clock.at(60),
            nextAttempt: nil,
            permanentRedirect: nil
        )
        let source = try await test.store.recordFetch(sourceURL: feed, back)
        #expect(source.permanentRedirect == nil)
        #expect(try await test.store.source(url: feed)?.fetchURL == feed)
    }

    @Test("due sources: never fetched first, then by next attempt; later ones wait")
    func due() async throws {
        let test = try await TestStore().withSources()
        try await test.store.recordFetch(
            sourceURL: feed,
            FetchRecord(
                outcome: .notModified,
                attemptedAt: Clock.t0,
                nextAttempt: Clock.at(600),
                permanentRedirect: nil
            )
        )
        #expect(try await test.store.dueSources(now: Clock.at(599)).map(\.url) == [TestStore.linksURL])
        #expect(try await test.store.dueSources(now: Clock.at(600)).map(\.url) == [TestStore.linksURL, feed])
    }
}
