import HomeFeeds
import HomeFetch
import TestSupport
import Testing

/// Servers that try to bloat, starve or confuse the fetcher: each bound ends the transfer
/// with a clear error where the bytes arrive. (What the bounds cost in memory and CPU is
/// checked in `ResourceBoundTests`, in processes of their own.)
@Suite(.timeLimit(.minutes(1)))
struct HostileServerTests {
    @Test("an endless body at full speed is cut at the cap")
    func endlessBody() async throws {
        let cap = 256 << 10
        let error = try await FetchTesting.fetchError(
            "/endless/\(FetchTesting.key())",
            limits: FetchTesting.quickLimits(maxBodyBytes: cap)
        )
        #expect(error.kind == .bodyTooLarge)
        // Cut within one chunk (libcurl hands over at most 16 KiB at a time) past the cap.
        #expect(error.bytesReceived > cap)
        #expect(error.bytesReceived <= cap + (16 << 10))
        #expect(error.byteCap == cap)
        #expect(error.description.contains("body too large"))
    }

    @Test(
        "compression bombs are cut at the cap after decompression",
        arguments: ["bomb", "gzipbomb", "deflatebomb"]
    )
    func bomb(_ path: String) async throws {
        let cap = 1 << 20
        let error = try await FetchTesting.fetchError(
            "/\(path)/\(FetchTesting.key())",
            limits: FetchTesting.quickLimits(maxBodyBytes: cap)
        )
        #expect(error.kind == .bodyTooLarge)
        #expect(error.bytesReceived > cap)
        #expect(error.bytesReceived <= cap + (16 << 10))
    }

    @Test("a body trickling one byte a second is dropped by the low-speed limit")
    func trickle() async throws {
        let error = try await FetchTesting.fetchError(
            "/trickle/\(FetchTesting.key())",
            limits: FetchTesting.quickLimits(totalTimeout: 30, lowSpeedTime: 2)
        )
        #expect(error.kind == .stalled)
        #expect(error.status == 200)
        #expect(error.bytesReceived > 0)
        #expect(error.bytesReceived < 10)
    }

    @Test("a server that accepts and never answers is dropped by the low-speed limit")
    func acceptsAndNeverAnswers() async throws {
        let error = try await FetchTesting.fetchError(
            "/stallhead/\(FetchTesting.key())",
            limits: FetchTesting.quickLimits(totalTimeout: 30, lowSpeedTime: 1)
        )
        #expect(error.kind == .stalled)
        #expect(error.status == nil)
    }

    @Test("a TLS handshake that never ends is a connect timeout, though the TCP connection was made")
    func tlsHandshakeNeverEnds() async throws {
        let listener = try SilentListener()
        let limits = FetchLimits(maxBodyBytes: 1 << 20, connectTimeout: 1, totalTimeout: 20, lowSpeedTime: 30)
        let error = try await FetchTesting.fetchError("https://127.0.0.1:\(listener.port)/feed", limits: limits)
        #expect(error.kind == .connectTimedOut, "\(error)")
        #expect(error.description.hasSuffix(": connect timed out"))
    }

    @Test("a redirect on a kept connection that then never answers is stalled, not a connect timeout")
    func stallOnReusedConnection() async throws {
        let key = FetchTesting.key()
        // A fetcher of its own: the kept connection must not take another test's request.
        let fetcher = FeedFetcher()
        let error = try await FetchTesting.fetchError(
            "/keepstall/\(key)",
            limits: FetchTesting.quickLimits(totalTimeout: 30, lowSpeedTime: 1),
            fetcher: fetcher
        )
        await fetcher.shutdown()
        #expect(error.kind == .stalled, "\(error)")
        #expect(error.redirects == 1)
        // Both hops went over one connection: the fixture's log has the first request only, as
        // the case itself read the second from that connection.
        #expect(try await FixtureServer.shared.value.requests(key).count == 1)
    }

    @Test("a server that never answers hits the total timeout when it comes first")
    func stallBeforeHeaders() async throws {
        let error = try await FetchTesting.fetchError(
            "/stallhead/\(FetchTesting.key())",
            limits: FetchTesting.quickLimits(totalTimeout: 1)
        )
        #expect(error.kind == .timedOut)
        #expect(error.status == nil)
    }

    @Test("a server that stalls mid-body hits the total timeout")
    func stallMidBody() async throws {
        let error = try await FetchTesting.fetchError(
            "/stall/\(FetchTesting.key())",
            // The headers must arrive before the limit, on a machine busy with the whole suite.
            limits: FetchTesting.quickLimits(totalTimeout: 10)
        )
        #expect(error.kind == .timedOut)
        #expect(error.status == 200)
        #expect(error.bytesReceived > 0)
    }

    @Test(
        "headers that never end, or one header line that never ends, are refused",
        arguments: ["endlessheaders", "longheader"]
    )
    func endlessHeaders(_ path: String) async throws {
        let error = try await FetchTesting.fetchError("/\(path)/\(FetchTesting.key())")
        #expect(error.kind == .headersTooLarge)
        #expect(error.bytesReceived == 0)
    }

    @Test("a Content-Length longer than the body is a transport error (partial file)")
    func contentLengthTooLong() async throws {
        let error = try await FetchTesting.fetchError("/lengthlong/\(FetchTesting.key())")
        #expect(error.kind == .transport(code: 18))
        #expect(error.status == 200)
        #expect(error.bytesReceived == 120)
        #expect(error.description.contains("(curl 18)"))
    }

    @Test("a Content-Length shorter than the body cuts the body there: nothing after it is read")
    func contentLengthTooShort() async throws {
        // The first 60 bytes end inside <channel>: a truncated document, read as an error or as
        // a feed without entries (HomeFeeds decides which), never as the two items after it.
        switch try await FetchTesting.fetch("/lengthshort/\(FetchTesting.key())") {
        case .success(let outcome):
            guard case .fetched(let document) = outcome, case .feed(let feed) = document.document else {
                Issue.record("expected a feed, got \(outcome)")
                return
            }
            #expect(document.response.bodyBytes == 60)
            #expect(feed.entries.isEmpty)
        case .failure(let error):
            guard case .parse = error.kind else {
                Issue.record("expected a parse error, got \(error)")
                return
            }
            #expect(error.bytesReceived == 60)
        }
    }

    @Test("invalid chunked encoding is a transport error")
    func invalidChunked() async throws {
        let error = try await FetchTesting.fetchError("/badchunked/\(FetchTesting.key())")
        #expect(error.kind == .transport(code: 56))
        #expect(error.detail?.lowercased().contains("chunk") == true)
    }

    @Test("a reply that is not HTTP is a transport error in libcurl's words, not an unsupported URL")
    func notHTTP() async throws {
        let error = try await FetchTesting.fetchError("/nothttp/\(FetchTesting.key())")
        #expect(error.kind == .transport(code: 1))
        #expect(error.detail?.contains("HTTP/0.9") == true, "\(error)")
        #expect(!error.description.contains("unsupported URL"))
    }

    @Test("a refused connection is a transport error with libcurl's words")
    func connectionRefused() async throws {
        // Port 9 (discard) is closed on loopback here; nothing listens on it in the tests.
        let error = try await FetchTesting.fetchError("http://127.0.0.1:9/feed")
        #expect(error.kind == .transport(code: 7))
        #expect(error.detail?.contains("127.0.0.1") == true)
        #expect(error.description.hasPrefix("http://127.0.0.1:9/feed: network error: "))
    }
}
