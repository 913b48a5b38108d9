import Testing

@testable import HomeFeeds

struct LinkCase: Sendable, CustomTestStringConvertible {
    let reference: String
    let expected: String?
    init(_ reference: String, _ expected: String?) {
        self.reference = reference
        self.expected = expected
    }
    var testDescription: String { "\"\(reference)\"" }
}

@Suite struct URIReferenceTests {
    /// RFC 3986 §5.4.1 and §5.4.2, base `http://a/b/c/d;p?q`.
    static let rfc3986: [LinkCase] = [
        LinkCase("g:h", "g:h"), LinkCase("g", "http://a/b/c/g"), LinkCase("./g", "http://a/b/c/g"),
        LinkCase("g/", "http://a/b/c/g/"), LinkCase("/g", "http://a/g"), LinkCase("//g", "http://g"),
        LinkCase("?y", "http://a/b/c/d;p?y"), LinkCase("g?y", "http://a/b/c/g?y"),
        LinkCase("#s", "http://a/b/c/d;p?q#s"),
        LinkCase("g#s", "http://a/b/c/g#s"), LinkCase("g?y#s", "http://a/b/c/g?y#s"), LinkCase(";x", "http://a/b/c/;x"),
        LinkCase("g;x", "http://a/b/c/g;x"), LinkCase("g;x?y#s", "http://a/b/c/g;x?y#s"),
        LinkCase(".", "http://a/b/c/"), LinkCase("./", "http://a/b/c/"), LinkCase("..", "http://a/b/"),
        LinkCase("../", "http://a/b/"), LinkCase("../g", "http://a/b/g"), LinkCase("../..", "http://a/"),
        LinkCase("../../", "http://a/"), LinkCase("../../g", "http://a/g"),
        LinkCase("../../../g", "http://a/g"), LinkCase("../../../../g", "http://a/g"), LinkCase("/./g", "http://a/g"),
        LinkCase("/../g", "http://a/g"), LinkCase("g.", "http://a/b/c/g."), LinkCase(".g", "http://a/b/c/.g"),
        LinkCase("g..", "http://a/b/c/g.."), LinkCase("..g", "http://a/b/c/..g"), LinkCase("./../g", "http://a/b/g"),
        LinkCase("./g/.", "http://a/b/c/g/"), LinkCase("g/./h", "http://a/b/c/g/h"),
        LinkCase("g/../h", "http://a/b/c/h"),
        LinkCase("g;x=1/./y", "http://a/b/c/g;x=1/y"), LinkCase("g;x=1/../y", "http://a/b/c/y"),
        LinkCase("g?y/./x", "http://a/b/c/g?y/./x"), LinkCase("g?y/../x", "http://a/b/c/g?y/../x"),
        LinkCase("g#s/./x", "http://a/b/c/g#s/./x"), LinkCase("g#s/../x", "http://a/b/c/g#s/../x"),
        LinkCase("http:g", "http:g"),
        // Trimming, empties, absolute links with dot segments, IRIs.
        LinkCase("  g  ", "http://a/b/c/g"), LinkCase("\n\t", nil), LinkCase("", nil),
        LinkCase("https://x.test/a/../b/./c", "https://x.test/b/c"),
        LinkCase("https://x.test/한글?q=값#조각", "https://x.test/%ED%95%9C%EA%B8%80?q=%EA%B0%92#%EC%A1%B0%EA%B0%81"),
        LinkCase("https://x.test/a b", "https://x.test/a%20b"),
        LinkCase("https://x.test/%41%20ok", "https://x.test/%41%20ok"),
        LinkCase("https://x.test/{a}|\"b\"", "https://x.test/%7Ba%7D%7C%22b%22"),
    ]

    @Test("resolves references per RFC 3986 §5.4", arguments: rfc3986)
    func resolves(_ testCase: LinkCase) {
        #expect(URIReference.resolve(testCase.reference, against: "http://a/b/c/d;p?q") == testCase.expected)
    }

    @Test("xml:base chains: each base resolves against its parent's, the root's against the feed URL")
    func xmlBaseChains() throws {
        let feed = try parseFeed(
            """
            <feed xmlns="http://www.w3.org/2005/Atom" xml:base="blog/">
              <link href="home"/>
              <entry xml:base="2026/"><id>1</id><link xml:base="../x/" href="./post"/></entry>
              <entry xml:base="https://other.test/base/"><id>2</id><link href="/abs"/></entry>
              <entry><id>3</id><link href="https://elsewhere.test/p"/></entry>
            </feed>
            """,
            url: "https://example.test/feeds/feed.xml"
        )
        #expect(feed.link == "https://example.test/feeds/blog/home")
        #expect(
            feed.entries.map(\.link) == [
                "https://example.test/feeds/blog/x/post", "https://other.test/abs", "https://elsewhere.test/p",
            ]
        )
    }

    @Test("RSS links: <link>, else a permalink guid; guids are never resolved as ids")
    func rssLinks() throws {
        let feed = try parseFeed(
            rss(
                """
                <item><guid>/p/1</guid><link>  /l/1  </link></item>
                <item><guid>/p/2</guid></item>
                <item><guid isPermaLink="true">p/3</guid></item>
                <item><guid isPermaLink="false">/p/4</guid></item>
                <item><guid isPermaLink="false">/p/5</guid><link></link></item>
                <item><guid isPermaLink=" True ">p/6</guid></item>
                """
            ),
            url: "https://example.test/dir/feed.xml"
        )
        #expect(feed.entries.map(\.id) == ["/p/1", "/p/2", "p/3", "/p/4", "/p/5", "p/6"])
        #expect(
            feed.entries.map(\.link) == [
                "https://example.test/l/1", "https://example.test/p/2", "https://example.test/dir/p/3", nil, nil,
                "https://example.test/dir/p/6",
            ]
        )
    }

    @Test("Atom entry link choice: alternate html or typeless first, then any alternate; never self/related/enclosure")
    func atomLinkChoice() throws {
        let feed = try parseFeed(
            atom(
                """
                <entry><id>1</id><link rel="self" href="/s"/><link rel="alternate" type="application/pdf" href="/pdf"/><link rel="alternate" type="text/html" href="/html"/></entry>
                <entry><id>2</id><link rel="related" href="/r"/><link rel="replies" href="/re"/><link rel="hub" href="/h"/><link rel="enclosure" href="/e"/></entry>
                <entry><id>3</id><link type="application/pdf" href="/pdf"/><link href="/bare"/></entry>
                <entry><id>4</id><link rel="alternate" type="application/pdf" href="/pdf-only"/></entry>
                <entry><id>5</id><link rel="alternate" type="TEXT/HTML" href="/upper"/></entry>
                """
            )
        )
        #expect(
            feed.entries.map(\.link) == [
                "https://example.test/html", nil, "https://example.test/bare", "https://example.test/pdf-only",
                "https://example.test/upper",
            ]
        )
        #expect(feed.entries[1].enclosures.map(\.url) == ["https://example.test/e"])
    }

    @Test("feed links: RSS channel/link, Atom alternate never self, JSON home_page_url")
    func feedLinks() throws {
        let rssFeed = try parseFeed(
            rss(
                "",
                channel:
                    "<atom:link xmlns:atom=\"http://www.w3.org/2005/Atom\" rel=\"self\" href=\"/self\"/><link>/home</link>"
            )
        )
        #expect(rssFeed.link == "https://example.test/home")
        let atomFeed = try parseFeed(atom("", feed: "<link rel=\"self\" href=\"/self\"/>"))
        #expect(atomFeed.link == nil)
    }

    @Test("enclosures: document order, de-duplicated by absolute URL, integer or null length, no thumbnails")
    func enclosures() throws {
        let feed = try parseFeed(
            rss(
                """
                <item><guid>1</guid>
                  <enclosure url="/a.mp3" type="audio/mpeg" length="10"/>
                  <media:content url="https://example.test/a.mp3" type="audio/mpeg" fileSize="99"/>
                  <media:group><media:content url="/b.mp4" fileSize=" 20 "/><media:thumbnail url="/t.jpg"/></media:group>
                  <media:thumbnail url="/t2.jpg"/>
                  <enclosure url="/c.ogg" length="-1" type=""/>
                  <enclosure url="/d.ogg" length="99999999999999999999999"/>
                  <enclosure type="audio/mpeg"/>
                </item>
                """
            )
        )
        let enclosures = try #require(feed.entries.first?.enclosures)
        #expect(
            enclosures == [
                FeedEnclosure(url: "https://example.test/a.mp3", type: "audio/mpeg", length: 10),
                FeedEnclosure(url: "https://example.test/b.mp4", type: nil, length: 20),
                FeedEnclosure(url: "https://example.test/c.ogg", type: nil, length: nil),
                FeedEnclosure(url: "https://example.test/d.ogg", type: nil, length: nil),
            ]
        )
    }
}
