import HomeFeeds
import TestSupport
import Testing

@testable import HomeFetch

/// Credentials of authenticated sources: how a credential file reads, that the secret reaches
/// the source's origin and no other, and that it never shows in a description.
@Suite(.timeLimit(.minutes(1)))
struct CredentialTests {
    struct ParseCase: Sendable, CustomTestStringConvertible {
        var text: String
        var authorization: String?
        var testDescription: String { text.debugDescription }
    }

    @Test(
        "a credential file is bearer TOKEN, basic USER:PASSWORD or a bare token",
        arguments: [
            ParseCase(text: "s3cret\n", authorization: "Bearer s3cret"),
            ParseCase(text: "bearer abc.def-ghi\n", authorization: "Bearer abc.def-ghi"),
            ParseCase(text: "Bearer  spaced  ", authorization: "Bearer spaced"),
            // base64("alice:open sesame") = YWxpY2U6b3BlbiBzZXNhbWU=
            ParseCase(text: "basic alice:open sesame", authorization: "Basic YWxpY2U6b3BlbiBzZXNhbWU="),
            // base64("a:b") = YTpi (one byte of padding-free group)
            ParseCase(text: "BASIC a:b", authorization: "Basic YTpi"),
            ParseCase(text: "basic no-colon", authorization: nil),
            ParseCase(text: "digest x y", authorization: nil),
            ParseCase(text: "", authorization: nil),
            ParseCase(text: "two\nlines", authorization: nil),
            ParseCase(text: "bad\u{7}bell", authorization: nil),
        ]
    )
    func parsing(_ parse: ParseCase) {
        let credential = FetchCredential(name: "feed-token", text: parse.text)
        #expect(credential?.authorization == parse.authorization)
        if let credential {
            #expect(credential.description == "credential feed-token (redacted)")
            #expect(!"\(FetchRequest(url: "https://x.test/", credential: credential))".contains("s3cret"))
        }
    }

    @Test("the secret is sent to the source, which answers 200; without it, 401")
    func sentToTheSource() async throws {
        let key = FetchTesting.key()
        let credential = try #require(FetchCredential(name: "t", text: "s3cret"))
        let server = try await FixtureServer.shared.value
        let url = server.url("/auth/\(key)")
        let outcome = try await FetchTesting.fetcher.fetch(FetchRequest(url: url, credential: credential))
        #expect(outcome.response.status == 200)
        let refused = try await FetchTesting.fetchError("/auth/\(key)-anonymous")
        #expect(refused.kind == .httpStatus(401))
        #expect(try await server.requests(key).map(\.authorization) == ["Bearer s3cret"])
    }

    @Test("a redirect on the same origin keeps the secret; one to another port drops it")
    func originBound() async throws {
        let key = FetchTesting.key()
        let credential = try #require(FetchCredential(name: "t", text: "s3cret"))
        let server = try await FixtureServer.start(ports: 2)
        let same = server.url("/redirect/\(key)?code=302&to=/feed/\(key)-same")
        _ = try await FetchTesting.fetcher.fetch(FetchRequest(url: same, credential: credential))
        #expect(try await server.requests("\(key)-same").map(\.authorization) == ["Bearer s3cret"])

        let elsewhere = server.url("/feed/\(key)-other", port: server.ports[1])
        let cross = server.url("/redirect/\(key)?code=302&to=\(elsewhere)")
        _ = try await FetchTesting.fetcher.fetch(FetchRequest(url: cross, credential: credential))
        #expect(try await server.requests("\(key)-other").map(\.authorization) == [nil])
        // The first hop, on the source's origin, carried it both times.
        #expect(try await server.requests(key).map(\.authorization) == ["Bearer s3cret", "Bearer s3cret"])
    }

    @Test("origins compare scheme, host and port, with default ports")
    func origins() {
        #expect(HTTPTransfer.sameOrigin("https://Example.test/a", "https://example.test:443/b?c"))
        #expect(HTTPTransfer.sameOrigin("http://example.test/a", "http://example.test:80/"))
        #expect(!HTTPTransfer.sameOrigin("https://example.test/", "http://example.test/"))
        #expect(!HTTPTransfer.sameOrigin("https://example.test/", "https://example.test:8443/"))
        #expect(!HTTPTransfer.sameOrigin("https://example.test/", "https://evil.test/"))
        #expect(!HTTPTransfer.sameOrigin("not a url", "https://example.test/"))
    }
}
