import Testing

@testable import HomeFetch

/// The bookkeeping of a redirect chain, as plain values: which hops make the permanent move, and
/// what of it may be saved. (The loopback server speaks plain http only, so chains that start
/// at https are checked here.)
@Suite struct RedirectChainTests {
    struct Hop: Sendable {
        var target: String
        var code: Int
    }

    struct ChainCase: Sendable, CustomTestStringConvertible {
        var start: String
        var hops: [Hop]
        var permanentTarget: String?
        var passedHTTP: Bool
        var testDescription: String { ([start] + hops.map { "\($0.code) \($0.target)" }).joined(separator: " → ") }
    }

    @Test(
        "a hop over plain http in the permanent part is recorded, wherever the chain ends",
        arguments: [
            ChainCase(
                start: "https://a.example/feed",
                hops: [
                    Hop(target: "http://b.example/feed", code: 301), Hop(target: "https://c.example/feed", code: 301),
                ],
                permanentTarget: "https://c.example/feed",
                passedHTTP: true
            ),
            ChainCase(
                start: "https://a.example/feed",
                hops: [
                    Hop(target: "https://b.example/feed", code: 308), Hop(target: "http://c.example/feed", code: 301),
                ],
                permanentTarget: "http://c.example/feed",
                passedHTTP: true
            ),
            ChainCase(
                start: "https://a.example/feed",
                hops: [
                    Hop(target: "https://b.example/feed", code: 301), Hop(target: "https://c.example/feed", code: 308),
                ],
                permanentTarget: "https://c.example/feed",
                passedHTTP: false
            ),
            // After a temporary hop nothing is permanent: an http hop there chooses nothing saved.
            ChainCase(
                start: "https://a.example/feed",
                hops: [
                    Hop(target: "https://b.example/feed", code: 301), Hop(target: "http://c.example/feed", code: 302),
                ],
                permanentTarget: "https://b.example/feed",
                passedHTTP: false
            ),
        ]
    )
    func passedHTTP(_ chain: ChainCase) {
        var redirects = RedirectChain(requestedURL: chain.start)
        for hop in chain.hops {
            #expect(
                redirects.follow(to: hop.target, isPermanentHop: hop.code == 301 || hop.code == 308, maxRedirects: 5)
                    == nil
            )
        }
        #expect(redirects.permanentTarget == chain.permanentTarget)
        #expect(redirects.permanentPartPassedHTTP == chain.passedHTTP)
    }

    @Test("a permanent target with a user name and password is shown without them and marked")
    func userinfo() {
        var redirects = RedirectChain(requestedURL: "https://a.example/feed")
        #expect(
            redirects.follow(to: "https://reader:secret@b.example/feed", isPermanentHop: true, maxRedirects: 5) == nil
        )
        #expect(redirects.currentURL == "https://reader:secret@b.example/feed")
        #expect(redirects.shownURL == "https://b.example/feed")
        #expect(redirects.permanentTarget == "https://b.example/feed")
        #expect(redirects.permanentTargetHadUserinfo)
        // Where the chain moves on from there is what counts.
        #expect(redirects.follow(to: "https://c.example/feed", isPermanentHop: true, maxRedirects: 5) == nil)
        #expect(redirects.permanentTarget == "https://c.example/feed")
        #expect(!redirects.permanentTargetHadUserinfo)
    }
}
