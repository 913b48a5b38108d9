import HomeFeeds
import HomeFetch
import TestSupport
import Testing

/// Redirects, followed by `HTTPTransfer` one hop at a time: which chains move the stored URL,
/// the limit, loops, other schemes and ports.
@Suite(.timeLimit(.minutes(1)))
struct RedirectTests {
    struct RedirectCase: Sendable, CustomTestStringConvertible {
        var code: Int
        var isPermanent: Bool
        var testDescription: String { "\(code)" }
    }

    @Test(
        "301 and 308 report the new URL as permanent, 302, 303 and 307 do not",
        arguments: [
            RedirectCase(code: 301, isPermanent: true), RedirectCase(code: 308, isPermanent: true),
            RedirectCase(code: 302, isPermanent: false), RedirectCase(code: 303, isPermanent: false),
            RedirectCase(code: 307, isPermanent: false),
        ]
    )
    func single(_ redirect: RedirectCase) async throws {
        let key = FetchTesting.key()
        let server = try await FixtureServer.shared.value
        let outcome = try await FetchTesting.fetch("/redirect/\(key)?code=\(redirect.code)&to=/feed/\(key)").get()
        let response = outcome.response
        #expect(response.redirects == 1)
        #expect(response.status == 200)
        #expect(response.finalURL == server.url("/feed/\(key)"))
        #expect(response.permanentRedirectURL == (redirect.isPermanent ? server.url("/feed/\(key)") : nil))
        // The loopback server is plain http: a permanent hop to it is one over http.
        #expect(response.permanentRedirectPassedHTTP == redirect.isPermanent)
        // The conditional-GET headers and the User-Agent travel with every hop.
        let seen = try await server.requests(key)
        #expect(seen.count == 2)
        #expect(seen.allSatisfy { $0.userAgent == UserAgent.homefeed })
    }

    @Test("a permanent redirect after a temporary one is not permanent")
    func temporaryThenPermanent() async throws {
        let key = FetchTesting.key()
        let inner = "/redirect/\(key)?code=301%26to=/feed/\(key)"
        let outcome = try await FetchTesting.fetch("/redirect/\(key)?code=302&to=\(inner)").get()
        #expect(outcome.response.redirects == 2)
        #expect(outcome.response.permanentRedirectURL == nil)
    }

    @Test("a temporary redirect after a permanent one keeps the permanent hop's target as the moved URL")
    func permanentThenTemporary() async throws {
        let key = FetchTesting.key()
        let server = try await FixtureServer.shared.value
        let inner = "/redirect/\(key)?code=302%26to=/feed/\(key)"
        let outcome = try await FetchTesting.fetch("/redirect/\(key)?code=301&to=\(inner)").get()
        #expect(outcome.response.redirects == 2)
        #expect(outcome.response.finalURL == server.url("/feed/\(key)"))
        #expect(outcome.response.permanentRedirectURL == server.url("/redirect/\(key)?code=302&to=/feed/\(key)"))
    }

    @Test("a chain of five 301s is followed to its end, which becomes the permanent URL")
    func chainOfFive() async throws {
        let key = FetchTesting.key()
        let server = try await FixtureServer.shared.value
        let outcome = try await FetchTesting.fetch("/chain/\(key)?n=5&code=301").get()
        guard case .fetched(let document) = outcome, case .feed(let feed) = document.document else {
            Issue.record("expected a feed, got \(outcome)")
            return
        }
        #expect(feed.entries.count == 2)
        #expect(document.response.redirects == 5)
        #expect(document.response.finalURL == server.url("/chain/\(key)?n=0&code=301"))
        #expect(document.response.permanentRedirectURL == server.url("/chain/\(key)?n=0&code=301"))
    }

    @Test("a sixth redirect passes the limit of five")
    func tooMany() async throws {
        let error = try await FetchTesting.fetchError("/chain/\(FetchTesting.key())?n=6&code=302")
        #expect(error.kind == .tooManyRedirects)
        #expect(error.redirects == 5)
        #expect(error.status == 302)
        #expect(error.description.contains("too many redirects after 5 redirects"))
    }

    @Test("a URL that redirects to itself is a loop, stopped at the first repeat")
    func selfLoop() async throws {
        let key = FetchTesting.key()
        let error = try await FetchTesting.fetchError("/loop/\(key)")
        #expect(error.kind == .redirectLoop(to: try await FixtureServer.shared.value.url("/loop/\(key)")))
        #expect(error.redirects == 0)
        #expect(error.description.contains("redirect loop back to"))
    }

    @Test("A → B → A is a loop after one redirect")
    func twoStepLoop() async throws {
        let key = FetchTesting.key()
        let server = try await FixtureServer.shared.value
        let error = try await FetchTesting.fetchError("/pingpong/\(key)?side=a")
        #expect(error.kind == .redirectLoop(to: server.url("/pingpong/\(key)?side=a")))
        #expect(error.redirects == 1)
    }

    @Test("a redirect to another port of the same host is followed")
    func crossPort() async throws {
        let key = FetchTesting.key()
        let server = try await FixtureServer.start(ports: 2)
        let other = server.url("/feed/\(key)", port: server.ports[1])
        let outcome = try await FetchTesting.fetch(server.url("/redirect/\(key)?code=307&to=\(other)")).get()
        #expect(outcome.response.finalURL == other)
        #expect(outcome.response.status == 200)
    }

    @Test(
        "redirects to other schemes are refused",
        arguments: ["file:///etc/passwd", "ftp://127.0.0.1/feed", "gopher://127.0.0.1/", "javascript:alert(1)"]
    )
    func otherScheme(_ target: String) async throws {
        let encoded = target.map { $0 == ":" ? "%3A" : $0 == "/" ? "%2F" : String($0) }.joined()
        let error = try await FetchTesting.fetchError("/redirect/\(FetchTesting.key())?code=302&to=\(encoded)")
        guard case .redirectRefused(let refused) = error.kind else {
            Issue.record("expected a refused redirect, got \(error)")
            return
        }
        #expect(refused.lowercased().hasPrefix(String(target.prefix(while: { $0 != ":" }))))
        #expect(error.bytesReceived == 0)
    }

    @Test("a Location with a user name and password is followed, and no URL the fetch reports carries them")
    func userinfoLocation() async throws {
        let key = FetchTesting.key()
        let server = try await FixtureServer.shared.value
        let target = "http://reader:secret@127.0.0.1:\(server.port)/feed/\(key)"
        let outcome = try await FetchTesting.fetch("/redirect/\(key)?code=301&to=\(target)").get()
        guard case .fetched(let document) = outcome, case .feed(let feed) = document.document else {
            Issue.record("expected a feed, got \(outcome)")
            return
        }
        #expect(document.response.finalURL == server.url("/feed/\(key)"))
        #expect(document.response.permanentRedirectURL == server.url("/feed/\(key)"))
        #expect(document.response.permanentRedirectHadUserinfo)
        // The relative links resolve against the URL without them.
        #expect(feed.entries.first?.link == server.url("/first"))
        // Followed as libcurl does: the user name and password go to that host as Basic.
        let seen = try await server.requests(key)
        #expect(seen.last?.authorization == "Basic cmVhZGVyOnNlY3JldA==")
    }

    @Test("a refused or looping redirect target is named without its user name and password")
    func userinfoInErrors() async throws {
        let key = FetchTesting.key()
        let server = try await FixtureServer.shared.value
        let toFTP = "/redirect/\(key)?code=302&to=ftp%3A%2F%2Freader%3Asecret@127.0.0.1%2Ffeed"
        let refused = try await FetchTesting.fetchError(toFTP)
        #expect(refused.kind == .redirectRefused(to: "ftp://127.0.0.1/feed"))
        #expect(refused.description == "\(server.url(toFTP)): redirect to ftp://127.0.0.1/feed refused")
        let toLoop = "/redirect/\(key)?code=302&to=http://reader:secret@127.0.0.1:\(server.port)/loop/\(key)"
        let loop = try await FetchTesting.fetchError(toLoop)
        #expect(loop.kind == .redirectLoop(to: server.url("/loop/\(key)")))
        #expect(
            loop.description.hasPrefix("\(server.url(toLoop)): redirect loop back to \(server.url("/loop/\(key)"))")
        )
    }

    @Test("200 redirecting fetches in a row all arrive")
    func manyInARow() async throws {
        let key = FetchTesting.key()
        for index in 0..<200 {
            let code = [301, 302, 303, 307, 308][index % 5]
            let outcome = try await FetchTesting.fetch("/redirect/\(key)?code=\(code)&to=/feed/\(key)-\(index)").get()
            #expect(outcome.response.redirects == 1)
            guard case .fetched = outcome else {
                Issue.record("fetch \(index): expected a document, got \(outcome)")
                return
            }
        }
    }
}
