import Foundation
import HomeFeeds
import HomeFetch
import HomefeedVersion
import TestSupport
import Testing

/// `FeedFetcher` against the loopback fixture server: conditional GET, gzip, statuses and
/// `Retry-After`, what a document says about polling. Redirects, hostile servers and
/// cancellation have suites of their own.
@Suite(.timeLimit(.minutes(1)))
struct FeedFetcherTests {
    private func fetch(
        _ path: String,
        validators: HTTPValidators = HTTPValidators(),
        limits: FetchLimits = FetchTesting.quickLimits()
    ) async throws -> Result<FetchOutcome, FetchError> {
        try await FetchTesting.fetch(path, validators: validators, limits: limits)
    }

    private func fetchError(_ path: String, limits: FetchLimits = FetchTesting.quickLimits()) async throws -> FetchError
    {
        try await FetchTesting.fetchError(path, limits: limits)
    }

    @Test("200 with validators, then 304 when they are sent back")
    func conditionalGet() async throws {
        let key = FetchTesting.key()
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
        #expect(seen.last?.userAgent == UserAgent.homefeed)
        #expect(UserAgent.homefeed.hasPrefix("homefeed/\(homefeedVersion) (+"))
    }

    @Test("an ETag that is not UTF-8 cannot be sent back as it came: dropped; Last-Modified still revalidates")
    func unsendableETag() async throws {
        let key = FetchTesting.key()
        let first = try await fetch("/feed/\(key)?badetag=1").get()
        #expect(first.response.validators.etag == nil)
        #expect(first.response.validators.lastModified == "Sat, 01 Jan 2033 00:00:00 GMT")
        let second = try await fetch("/feed/\(key)?badetag=1", validators: first.response.validators).get()
        #expect(second.response.status == 304)
        let seen = try await FixtureServer.shared.value.requests(key)
        #expect(seen.last?.ifNoneMatch == nil)
        #expect(seen.last?.ifModifiedSince == "Sat, 01 Jan 2033 00:00:00 GMT")
    }

    @Test("gzip bodies arrive decoded and are counted after decompression")
    func gzip() async throws {
        let key = FetchTesting.key()
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

    @Test("429 carries Retry-After in seconds")
    func retryAfterSeconds() async throws {
        let error = try await fetchError("/status/\(FetchTesting.key())?code=429&retry=120")
        #expect(error.kind == .httpStatus(429))
        #expect(error.status == 429)
        #expect(error.retryAfter == .seconds(120))
        #expect(error.description.contains("HTTP 429 Too Many Requests"))
    }

    @Test("503 carries Retry-After as an HTTP date")
    func retryAfterDate() async throws {
        let date = "Wed,%2021%20Oct%202037%2007:28:00%20GMT"
        let error = try await fetchError("/status/\(FetchTesting.key())?code=503&retry=\(date)")
        #expect(error.kind == .httpStatus(503))
        #expect(error.retryAfter == .date(secondsSince1970: 2_139_722_880))
    }

    struct RetryAfterCase: Sendable, CustomTestStringConvertible {
        var header: String
        var expected: RetryAfter?
        var testDescription: String { "Retry-After: \(header)" }
    }

    @Test(
        "absurd Retry-After values are read without overflow or guessing",
        arguments: [
            RetryAfterCase(header: "0", expected: .seconds(0)),
            RetryAfterCase(header: "99999999999999999999999999", expected: .seconds(Int.max)),
            RetryAfterCase(header: "-5", expected: nil),
            RetryAfterCase(header: "soon", expected: nil),
            RetryAfterCase(header: "Thu,%2001%20Jan%201970%2000:00:00%20GMT", expected: .date(secondsSince1970: 0)),
        ]
    )
    func absurdRetryAfter(_ retry: RetryAfterCase) async throws {
        let error = try await fetchError("/status/\(FetchTesting.key())?code=429&retry=\(retry.header)")
        #expect(error.kind == .httpStatus(429))
        #expect(error.retryAfter == retry.expected)
    }

    @Test("500, 410 and 404 are errors with their status; only 410 means gone", arguments: [500, 410, 404])
    func errorStatus(_ code: Int) async throws {
        let error = try await fetchError("/status/\(FetchTesting.key())?code=\(code)")
        #expect(error.kind == .httpStatus(code))
        #expect(error.retryAfter == nil)
        #expect(error.isGone == (code == 410))
    }

    @Test("a 304 to a request that sent no validators is an HTTP error, not 'not modified'")
    func unaskedNotModified() async throws {
        let error = try await FetchTesting.fetchError("/status/\(FetchTesting.key())?code=304")
        #expect(error.kind == .httpStatus(304))
        #expect(error.description.hasSuffix(": HTTP 304 Not Modified"))
        #expect(!error.isGone)
    }

    @Test("a malformed feed is a parse error naming the URL")
    func malformed() async throws {
        let key = FetchTesting.key()
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
        let outcome = try await fetch("/feed/\(FetchTesting.key())?ttl=120&maxage=7200&noval=1").get()
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
        let outcome = try await fetch("/links/\(FetchTesting.key())").get()
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
            try await FetchTesting.fetcher.fetch(FetchRequest(url: url))
        }
    }
}
