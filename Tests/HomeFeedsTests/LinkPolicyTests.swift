import Testing

@testable import HomeFeeds

/// Only links that are safe to follow leave the parser: `http(s)` with a usable host, and
/// `mailto` for links a person opens; everything else is dropped with a warning.
@Suite struct LinkPolicyTests {
    struct LinkCase: Sendable, CustomTestStringConvertible {
        let url: String
        let page: Bool
        let resource: Bool
        init(_ url: String, page: Bool, resource: Bool) {
            self.url = url
            self.page = page
            self.resource = resource
        }
        var testDescription: String { url }
    }

    static let cases: [LinkCase] = [
        LinkCase("https://example.test/a?b#c", page: true, resource: true),
        LinkCase("HTTP://Example.TEST:8080/", page: true, resource: true),
        LinkCase("http://user:pw@example.test/", page: true, resource: true),
        LinkCase("http://[2001:db8::1]:80/x", page: true, resource: true),
        LinkCase("http://%ED%95%9C.example/", page: true, resource: true),  // an IDN host, percent-encoded
        LinkCase("http://example.test:/", page: true, resource: true),  // empty port (RFC 3986 §3.2.3)
        LinkCase("mailto:office@example.test", page: true, resource: false),
        LinkCase("mailto:", page: false, resource: false),
        LinkCase("javascript:alert(1)", page: false, resource: false),
        LinkCase("JavaScript:alert(1)", page: false, resource: false),
        LinkCase("data:text/html,%3Cb%3Ex%3C/b%3E", page: false, resource: false),
        LinkCase("file:///etc/passwd", page: false, resource: false),
        LinkCase("ftp://example.test/a", page: false, resource: false),
        LinkCase("http://", page: false, resource: false),
        LinkCase("http:/example.test", page: false, resource: false),
        LinkCase("http://exa%20mple.test/", page: false, resource: false),  // a space in the host
        LinkCase("http://exa<mple.test/", page: false, resource: false),
        LinkCase("http://example.test:99999/", page: false, resource: false),
        LinkCase("http://example.test:8o/", page: false, resource: false),
        LinkCase("http://[::1/", page: false, resource: false),
        LinkCase("http://[zz]/", page: false, resource: false),
        LinkCase("http://%zz.example/", page: false, resource: false),
        LinkCase("example.test/relative", page: false, resource: false),
    ]

    @Test("which absolute links are followed", arguments: cases)
    func policy(_ testCase: LinkCase) {
        var policy = LinkPolicy(documentURL: "https://example.test/feed.xml")
        #expect((policy.refusal(testCase.url, purpose: .page) == nil) == testCase.page)
        var fresh = LinkPolicy(documentURL: "https://example.test/feed.xml")
        #expect((fresh.refusal(testCase.url, purpose: .resource) == nil) == testCase.resource)
    }

    @Test("the remembered authority never lets a different host or scheme through")
    func authorityCache() {
        var policy = LinkPolicy(documentURL: "https://example.test/feed.xml")
        #expect(policy.refusal("https://example.test/a", purpose: .page) == nil)
        #expect(policy.refusal("https://example.test/b?c", purpose: .resource) == nil)
        #expect(policy.refusal("https://example.test.evil/", purpose: .page) == nil)
        #expect(policy.refusal("https://example.test:99999/", purpose: .page) != nil)
        #expect(policy.refusal("https://example.testx/", purpose: .page) == nil)
        #expect(policy.refusal("javascript:https://example.test/", purpose: .page) != nil)
    }

    @Test("file: links only inside documents read from file:")
    func fileLinks() {
        var local = LinkPolicy(documentURL: "file:///srv/homefeed/sources.opml")
        #expect(local.refusal("file:///srv/homefeed/feeds/a.xml", purpose: .resource) == nil)
        var remote = LinkPolicy(documentURL: "https://example.test/sources.opml")
        #expect(remote.refusal("file:///srv/homefeed/feeds/a.xml", purpose: .resource) != nil)
    }

    @Test("refused RSS links, guids and enclosures are dropped, with warnings")
    func rss() throws {
        let feed = try parseFeed(
            HomeFeedsTests.rss(
                """
                <item><guid>1</guid><title>a</title><link>javascript:alert(1)</link>\
                <enclosure url="file:///etc/passwd" type="text/plain"/><enclosure url="data:audio/mp3;base64,AA=="/>\
                <enclosure url="https://example.test/a.mp3"/></item>
                <item><guid isPermaLink="true">javascript:void(0)</guid><title>b</title></item>
                <item><guid>3</guid><title>c</title><link>mailto:office@example.test</link></item>
                """,
                channel: "<title>T</title><link>data:text/html,x</link>"
            )
        )
        #expect(feed.link == nil)
        // Item 1's refused <link> leaves its permalink guid `1` (resolved against the feed URL)
        // as the link, as a missing <link> would (§2).
        #expect(feed.entries.map(\.link) == ["https://example.test/1", nil, "mailto:office@example.test"])
        #expect(feed.entries.first?.enclosures.map(\.url) == ["https://example.test/a.mp3"])
        // A refused permalink guid is still the id; only its use as the link is dropped.
        #expect(feed.entries[1].id == "javascript:void(0)")
        #expect(
            feed.warnings.map(\.message) == [
                "feed link \"data:text/html,x\" dropped: the data: scheme is not followed (only http, https and mailto)",
                "link \"javascript:alert(1)\" dropped: the javascript: scheme is not followed (only http, https and mailto)",
                "enclosure \"file:///etc/passwd\" dropped: the file: scheme is not followed (only http, https and mailto)",
                "enclosure \"data:audio/mp3;base64,AA==\" dropped: the data: scheme is not followed (only http, https and mailto)",
            ]
        )
        #expect(feed.warnings.allSatisfy { $0.line != nil })
        // Refusing a link is no recovery from broken XML.
        #expect(feed.isWellFormed)
    }

    @Test("a refused Atom alternate gives way to the next one; mailto is no enclosure")
    func atom() throws {
        let feed = try parseFeed(
            HomeFeedsTests.atom(
                """
                <entry><id>1</id><link rel="alternate" href="javascript:alert(1)"/>\
                <link rel="alternate" type="text/html" href="https://example.test/1"/>\
                <link rel="enclosure" href="mailto:x@example.test"/></entry>
                """,
                feed: "<title>A</title><link href=\"vbscript:x\"/><link href=\"https://example.test/\"/>"
            )
        )
        #expect(feed.link == "https://example.test/")
        #expect(feed.entries.first?.link == "https://example.test/1")
        #expect(feed.entries.first?.enclosures.isEmpty == true)
        #expect(feed.warnings.count == 3)
    }

    @Test("OPML outlines and JSON Feed items lose refused links too")
    func opmlAndJSON() throws {
        let opml = try FeedParser.parse(
            Array(
                """
                <opml version="2.0"><body><outline text="x" xmlUrl="javascript:alert(1)"/>\
                <outline text="y" type="link" url="https://example.test/y" htmlUrl="data:text/html,x"/></body></opml>
                """.utf8
            ),
            url: feedURL
        )
        guard case .opml(let document) = opml else {
            Issue.record("not OPML")
            return
        }
        // An outline whose only URL was refused is skipped, as one with no URL is (§4), with a
        // warning; a sources list still finds it among the refused ones, to report it.
        #expect(document.outlines.map(\.url) == ["https://example.test/y"])
        #expect(document.outlines.map(\.refusedURL) == [nil])
        #expect(document.outlines.last?.htmlURL == nil)
        #expect(document.refusedOutlines.map(\.text) == ["x"])
        #expect(document.refusedOutlines.map(\.refusedURL) == ["javascript:alert(1)"])
        #expect(document.refusedOutlines.map(\.line) == [1])
        #expect(
            document.warnings.map(\.message) == [
                "outline xmlUrl \"javascript:alert(1)\" dropped: the javascript: scheme is not followed (only http, https and mailto)",
                "outline \"x\" skipped: no xmlUrl or url is one to follow",
                "outline htmlUrl \"data:text/html,x\" dropped: the data: scheme is not followed (only http, https and mailto)",
            ]
        )
        #expect(opml.jsonString(pretty: false).contains(#""outlines":[{"text":"y","#))

        let json = try parseFeed(
            #"{"version": "https://jsonfeed.org/version/1.1", "home_page_url": "javascript:x", "items": ["#
                + #"{"id": "1", "url": "data:text/html,x", "attachments": [{"url": "file:///etc/passwd"}]}]}"#
        )
        #expect(json.link == nil)
        #expect(json.entries.first?.link == nil)
        #expect(json.entries.first?.enclosures.isEmpty == true)
        #expect(
            json.warnings.map(\.message) == [
                "items[0].attachments[0].url \"file:///etc/passwd\" dropped: the file: scheme is not followed (only http, https and mailto)",
                "items[0].url \"data:text/html,x\" dropped: the data: scheme is not followed (only http, https and mailto)",
                "home_page_url \"javascript:x\" dropped: the javascript: scheme is not followed (only http, https and mailto)",
            ]
        )
    }
}
