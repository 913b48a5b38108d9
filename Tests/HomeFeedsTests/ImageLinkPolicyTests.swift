import Testing

@testable import HomeFeeds

/// Image candidates and OPML icons obey the link policy (`LinkPolicy`, as a resource): only
/// `http`/`https`, and `file:` only inside a document read from `file:`.
@Suite struct ImageLinkPolicyTests {
    private static let notFollowed = "scheme is not followed (only http, https and mailto)"

    @Test("a remote RSS feed's file:, javascript: and ftp: images are refused, each with one warning")
    func remoteRSS() throws {
        let feed = try parseFeed(
            """
            <rss version="2.0" xmlns:media="http://search.yahoo.com/mrss/" \
            xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"><channel><title>T</title>
            <item><guid>1</guid><title>A</title>
            <description>&lt;img src="file:///etc/lead.png"&gt;</description>
            <enclosure url="file:///etc/passwd.png" type="image/png"/>
            <media:content url="file:///etc/shadow.jpg" medium="image"/>
            <media:thumbnail url="javascript:alert(1)"/>
            <itunes:image href="ftp://example.test/cover.png"/>
            <media:thumbnail url="https://cdn.example.test/t.jpg"/>
            </item></channel></rss>
            """
        )
        let entry = try #require(feed.entries.first)
        #expect(entry.images.map(\.url) == ["https://cdn.example.test/t.jpg"])
        #expect(entry.enclosures.isEmpty)
        // Four refused element URLs, four warnings (media:content's is not repeated for its
        // image); the <img> inside the description's HTML is skipped without one.
        #expect(
            feed.warnings.map(\.message) == [
                "enclosure \"file:///etc/passwd.png\" dropped: the file: \(Self.notFollowed)",
                "enclosure \"file:///etc/shadow.jpg\" dropped: the file: \(Self.notFollowed)",
                "media:thumbnail \"javascript:alert(1)\" dropped: the javascript: \(Self.notFollowed)",
                "itunes:image \"ftp://example.test/cover.png\" dropped: the ftp: \(Self.notFollowed)",
            ]
        )
    }

    @Test("a feed read from file: keeps file: images, relative ones resolved against it")
    func localRSS() throws {
        let feed = try parseFeed(
            rss(
                """
                <item><guid>1</guid><title>A</title>
                <enclosure url="pics/a.png" type="image/png"/>
                <media:thumbnail url="file:///srv/feeds/t.jpg"/>
                <description>&lt;img src="lead.webp"&gt;</description></item>
                """
            ),
            url: "file:///srv/feeds/notices.xml"
        )
        let entry = try #require(feed.entries.first)
        #expect(
            entry.images.map(\.url) == [
                "file:///srv/feeds/pics/a.png", "file:///srv/feeds/t.jpg", "file:///srv/feeds/lead.webp",
            ]
        )
        #expect(feed.warnings.isEmpty)
    }

    @Test("Atom: a refused enclosure link is no image, a javascript: <img> in xhtml is skipped")
    func atomEntry() throws {
        let feed = try parseFeed(
            atom(
                """
                <entry><id>urn:1</id><title>T</title>
                <link rel="enclosure" type="image/png" href="file:///etc/x.png"/>
                <content type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml">\
                <img src="javascript:x"/><img src="https://example.test/ok.jpg"/></div></content>
                </entry>
                """
            )
        )
        let entry = try #require(feed.entries.first)
        // The first <img> is refused, so the next one is the content image.
        #expect(entry.images.map(\.url) == ["https://example.test/ok.jpg"])
        #expect(
            feed.warnings.map(\.message) == ["enclosure \"file:///etc/x.png\" dropped: the file: \(Self.notFollowed)"]
        )
    }

    @Test("JSON Feed: refused image and banner_image are reported by member")
    func jsonFeed() throws {
        let feed = try parseFeed(
            #"{"version": "https://jsonfeed.org/version/1.1", "items": [{"id": "1", "title": "t", "#
                + #""image": "file:///etc/passwd", "banner_image": "javascript:x", "#
                + #""content_html": "<img src='data:image/png;base64,AA'>"}]}"#
        )
        let entry = try #require(feed.entries.first)
        #expect(entry.images.isEmpty)
        #expect(
            feed.warnings.map(\.message) == [
                "items[0].image \"file:///etc/passwd\" dropped: the file: \(Self.notFollowed)",
                "items[0].banner_image \"javascript:x\" dropped: the javascript: \(Self.notFollowed)",
            ]
        )
    }

    @Test("the OPML icon: relative to a remote document it is https; file: and gopher: are refused")
    func opmlIcon() throws {
        let document = try FeedParser.parse(
            Array(
                """
                <opml version="2.0"><body>
                <outline type="link" text="A" url="https://a.example.test/" icon="icons/a.png"/>
                <outline type="link" text="B" url="https://b.example.test/" icon="file:///etc/passwd"/>
                <outline type="link" text="C" url="https://c.example.test/" icon="gopher://example.test/i"/>
                </body></opml>
                """.utf8
            ),
            url: "https://example.test/links/services.opml"
        )
        guard case .opml(let opml) = document else {
            Issue.record("expected OPML")
            return
        }
        #expect(opml.outlines.map(\.icon) == ["https://example.test/links/icons/a.png", nil, nil])
        // The outlines themselves stay: only their icons are dropped.
        #expect(
            opml.outlines.map(\.url) == [
                "https://a.example.test/", "https://b.example.test/", "https://c.example.test/",
            ]
        )
        #expect(
            opml.warnings.map(\.message) == [
                "outline icon \"file:///etc/passwd\" dropped: the file: \(Self.notFollowed)",
                "outline icon \"gopher://example.test/i\" dropped: the gopher: \(Self.notFollowed)",
            ]
        )
    }

    @Test("a web page's and a web app manifest's file:, data: and javascript: icons are never candidates")
    func pageAndManifestIcons() throws {
        let parser = HTMLHeadParser(url: "https://service.example.test/")
        let html = """
            <html><head><link rel="apple-touch-icon" href="file:///etc/passwd">
            <link rel="icon" sizes="32x32" href="data:image/png;base64,AA">
            <link rel="manifest" href="javascript:x"><meta property="og:image" content="file:///srv/og.png">
            <link rel="icon" href="/ok.png"></head></html>
            """
        Array(html.utf8).withUnsafeBytes { parser.append($0) }
        #expect(
            parser.finish().candidates() == [
                .image("https://service.example.test/ok.png"), .image("https://service.example.test/favicon.ico"),
            ]
        )
        let json = #"{"icons": [{"src": "file:///etc/shadow"}, {"src": "/i.png"}, {"src": "ftp://x.test/i.png"}]}"#
        let icons = try WebAppManifest.icons(Array(json.utf8), manifestURL: "https://service.example.test/m.json")
        #expect(icons.map(\.url) == ["https://service.example.test/i.png"])
    }
}
