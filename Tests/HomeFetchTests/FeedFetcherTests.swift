import Foundation
import HomeFeeds
import HomeFetch
import Testing

/// `FeedFetcher` against the loopback fixture server: conditional GET, gzip, redirects,
/// statuses, timeouts and caps.
@Suite(.timeLimit(.minutes(1)))
struct FeedFetcherTests {
    private func fetch(
        _ path: String,
        validators: HTTPValidators = HTTPValidators(),
        limits: FetchLimits = TestSupport.quickLimits()
    ) async throws -> Result<FetchOutcome, FetchError> {
        let server = try await FixtureServer.shared.value
        do {
            return .success(
                try await TestSupport.fetcher.fetch(
                    FetchRequest(url: server.url(path), validators: validators, limits: limits)
                )
            )
        } catch {
            return .failure(error)
        }
    }

    private func fetchError(
        _ path: String,
        limits: FetchLimits = TestSupport.quickLimits()
    ) async throws -> FetchError {
        switch try await fetch(path, limits: limits) {
        case .success(let outcome):
            Issue.record("expected an error, got \(outcome)")
            throw FixtureError("no error")
        case .failure(let error):
            return error
        }
    }

    @Test("200 with validators, then 304 when they are sent back")
    func conditionalGet() async throws {
        let key = TestSupport.key()
        let first = try await fetch("/feed/\(key)").get()
        guard case .fetched(let document) = first, case .feed(let feed) = document.document else {
            Issue.record("expected a feed, got \(first)")
            return
        }
        #expect(feed.entries.map(\.id) == ["first", "second"])
        #expect(feed.entries.first?.link?.hasSuffix("/first") == true)
        #expect(document.response.status == 200)
        #expect(document.response.validators.etag == "\"v1\"")
        #expect(document.response.validators.lastModified == "Sat, 01 Jan 2033 00:00:00 GMT")

        let second = try await fetch("/feed/\(key)", validators: document.response.validators).get()
        guard case .notModified(let info) = second else {
            Issue.record("expected 304, got \(second)")
            return
        }
        #expect(info.status == 304)
        #expect(info.validators == document.response.validators)

        let seen = try await FixtureServer.shared.value.requests(key)
        #expect(seen.count == 2)
        #expect(seen.first?.ifNoneMatch == nil)
        #expect(seen.last?.ifNoneMatch == "\"v1\"")
        #expect(seen.last?.ifModifiedSince == "Sat, 01 Jan 2033 00:00:00 GMT")
        #expect(seen.last?.userAgent == HomeFetch.defaultUserAgent)
        #expect(HomeFetch.defaultUserAgent.hasPrefix("homefeed/\(HomeFetch.version) (+"))
    }

    @Test("gzip bodies arrive decoded and are counted after decompression")
    func gzip() async throws {
        let key = TestSupport.key()
        let outcome = try await fetch("/gzip/\(key)").get()
        guard case .fetched(let document) = outcome, case .feed(let feed) = document.document else {
            Issue.record("expected a feed, got \(outcome)")
            return
        }
        #expect(feed.entries.count == 2)
        #expect(feed.title?.hasPrefix("Compressed Compressed") == true)
        #expect(document.response.bodyBytes > 2000)
        let seen = try await FixtureServer.shared.value.requests(key)
        #expect(seen.first?.acceptEncoding?.contains("gzip") == true)
    }

    struct RedirectCase: Sendable, CustomTestStringConvertible {
        var code: Int
        var isPermanent: Bool
        var testDescription: String { "\(code)" }
    }

    @Test(
        "301 and 308 report the new URL as permanent, 302 and 307 do not",
        arguments: [
            RedirectCase(code: 301, isPermanent: true), RedirectCase(code: 308, isPermanent: true),
            RedirectCase(code: 302, isPermanent: false), RedirectCase(code: 307, isPermanent: false),
        ]
    )
    func redirect(_ redirect: RedirectCase) async throws {
        let key = TestSupport.key()
        let server = try await FixtureServer.shared.value
        let outcome = try await fetch("/redirect/\(key)?code=\(redirect.code)&to=/feed/\(key)").get()
        let response = outcome.response
        #expect(response.redirects == 1)
        #expect(response.finalURL == server.url("/feed/\(key)"))
        #expect(response.permanentRedirectURL == (redirect.isPermanent ? server.url("/feed/\(key)") : nil))
    }

    @Test("a permanent redirect after a temporary one is not permanent")
    func temporaryThenPermanent() async throws {
        let key = TestSupport.key()
        let inner = "/redirect/\(key)?code=301%26to=/feed/\(key)"
        let outcome = try await fetch("/redirect/\(key)?code=302&to=\(inner)").get()
        #expect(outcome.response.redirects == 2)
        #expect(outcome.response.permanentRedirectURL == nil)
    }

    @Test("a redirect loop stops at the limit")
    func redirectLoop() async throws {
        let error = try await fetchError("/loop/\(TestSupport.key())", limits: TestSupport.quickLimits(maxRedirects: 3))
        #expect(error.kind == .tooManyRedirects)
        #expect(error.redirects == 3)
        #expect(error.description.contains("too many redirects after 3 redirects"))
    }

    @Test("429 carries Retry-After in seconds")
    func retryAfterSeconds() async throws {
        let error = try await fetchError("/status/\(TestSupport.key())?code=429&retry=120")
        #expect(error.kind == .httpStatus(429))
        #expect(error.status == 429)
        #expect(error.retryAfter == .seconds(120))
        #expect(error.description.contains("HTTP 429 Too Many Requests"))
    }

    @Test("503 carries Retry-After as an HTTP date")
    func retryAfterDate() async throws {
        let date = "Wed,%2021%20Oct%202037%2007:28:00%20GMT"
        let error = try await fetchError("/status/\(TestSupport.key())?code=503&retry=\(date)")
        #expect(error.kind == .httpStatus(503))
        #expect(error.retryAfter == .date(secondsSince1970: 2_139_722_880))
    }

    @Test("500 and 410 are errors with their status", arguments: [500, 410, 404])
    func errorStatus(_ code: Int) async throws {
        let error = try await fetchError("/status/\(TestSupport.key())?code=\(code)")
        #expect(error.kind == .httpStatus(code))
        #expect(error.retryAfter == nil)
        #expect(error.isGone == (code == 410))
    }

    @Test("a server that stalls mid-body hits the total timeout")
    func stallMidBody() async throws {
        let error = try await fetchError(
            "/stall/\(TestSupport.key())",
            limits: TestSupport.quickLimits(totalTimeout: 2)
        )
        #expect(error.kind == .timedOut)
        #expect(error.status == 200)
        #expect(error.bytesReceived > 0)
    }

    @Test("a server that never answers hits the total timeout")
    func stallBeforeHeaders() async throws {
        let error = try await fetchError(
            "/stallhead/\(TestSupport.key())",
            limits: TestSupport.quickLimits(totalTimeout: 1)
        )
        #expect(error.kind == .timedOut)
        #expect(error.status == nil)
    }

    @Test("the idle (connect) timeout ends a silent server before the total deadline")
    func idleTimeout() async throws {
        var limits = TestSupport.quickLimits(totalTimeout: 20)
        limits.connectTimeout = 1
        let error = try await fetchError("/stallhead/\(TestSupport.key())", limits: limits)
        #expect(error.kind == .transport(code: -1001))
        #expect(error.description.hasSuffix("URLError -1001 (timed out)"))
    }

    @Test("an endless body is cut at the cap")
    func endlessBody() async throws {
        let cap = 256 << 10
        let error = try await fetchError(
            "/endless/\(TestSupport.key())",
            limits: TestSupport.quickLimits(maxBodyBytes: cap)
        )
        #expect(error.kind == .bodyTooLarge)
        #expect(error.bytesReceived > cap)
        #expect(error.byteCap == cap)
    }

    @Test("a gzip bomb is cut at the cap after decompression")
    func gzipBomb() async throws {
        let cap = 1 << 20
        let error = try await fetchError(
            "/bomb/\(TestSupport.key())",
            limits: TestSupport.quickLimits(maxBodyBytes: cap)
        )
        #expect(error.kind == .bodyTooLarge)
        #expect(error.bytesReceived > cap)
        #expect(error.bytesReceived < 16 << 20)
        #expect(error.description.contains("body too large"))
    }

    @Test("a malformed feed is a parse error naming the URL")
    func malformed() async throws {
        let key = TestSupport.key()
        let error = try await fetchError("/malformed/\(key)")
        guard case .parse(let parseError) = error.kind else {
            Issue.record("expected a parse error, got \(error)")
            return
        }
        #expect(parseError.kind == .unsupportedFormat)
        #expect(error.description.hasPrefix(try await FixtureServer.shared.value.url("/malformed/\(key)") + ": "))
        #expect(error.description.contains("not a readable feed"))
    }

    @Test("RSS ttl and Cache-Control max-age are reported")
    func hints() async throws {
        let outcome = try await fetch("/feed/\(TestSupport.key())?ttl=120&maxage=7200&noval=1").get()
        guard case .fetched(let document) = outcome else {
            Issue.record("expected a document, got \(outcome)")
            return
        }
        #expect(document.ttl == 7200)
        #expect(document.response.maxAge == 7200)
        #expect(document.response.validators.isEmpty)
    }

    @Test("an OPML document of service links parses as OPML")
    func linksDocument() async throws {
        let server = try await FixtureServer.shared.value
        let outcome = try await fetch("/links/\(TestSupport.key())").get()
        guard case .fetched(let document) = outcome, case .opml(let opml) = document.document else {
            Issue.record("expected OPML, got \(outcome)")
            return
        }
        let list = SourceList(opml: opml)
        #expect(list.sources.isEmpty)
        #expect(list.serviceLinks.map(\.url) == [server.url("/mail"), "https://maps.example/"])
        #expect(list.serviceLinks.map(\.section) == [.mainService, .otherService])
    }

    @Test("unsupported schemes are refused without I/O", arguments: ["ftp://127.0.0.1/feed", "gopher:x", "no-scheme"])
    func unsupportedScheme(_ url: String) async throws {
        await #expect(throws: FetchError(url: url, kind: .unsupportedURL)) {
            try await TestSupport.fetcher.fetch(FetchRequest(url: url))
        }
    }
}
