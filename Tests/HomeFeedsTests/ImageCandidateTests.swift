import Testing

@testable import HomeFeeds

/// `FeedEntry.images`: which elements name an entry's image, in which order, resolved how.
@Suite struct ImageCandidateTests {
    private func images(_ xml: String) throws -> [FeedImage] {
        try #require(try parseFeed(xml).entries.first).images
    }

    @Test("RSS: an image enclosure comes first, an audio enclosure is no image")
    func enclosure() throws {
        let found = try images(
            rss(
                """
                <item><guid>1</guid><title>A</title>
                <enclosure url="/a.mp3" type="audio/mpeg" length="100"/>
                <enclosure url="/pics/a.jpg" type="image/jpeg" length="2048"/>
                <media:thumbnail url="https://cdn.example.test/t.jpg" width="100" height="50"/>
                </item>
                """
            )
        )
        #expect(found.map(\.url) == ["https://example.test/pics/a.jpg", "https://cdn.example.test/t.jpg"])
        #expect(found.first?.origin == .enclosure)
        #expect(found.first?.length == 2048)
    }

    @Test("media:thumbnail and image media:content: largest declared first, undeclared after, video left out")
    func mediaLargestFirst() throws {
        let found = try images(
            rss(
                """
                <item><guid>1</guid><title>A</title>
                <media:thumbnail url="/small.jpg" width="120" height="90"/>
                <media:content url="/undeclared.jpg" medium="image"/>
                <media:group><media:content url="/big.jpg" type="image/jpeg" width="1200" height="900"/></media:group>
                <media:content url="/clip.mp4" type="video/mp4" width="4000" height="3000"/>
                </item>
                """
            )
        )
        // 1200 × 900 = 1 080 000 px before 120 × 90 = 10 800 px; the undeclared one last.
        #expect(
            found.map(\.url) == [
                "https://example.test/big.jpg", "https://example.test/small.jpg", "https://example.test/undeclared.jpg",
            ]
        )
        #expect(found.map(\.origin) == [.mediaContent, .mediaThumbnail, .mediaContent])
        #expect(found.first?.declaredPixels == 1_080_000)
    }

    @Test("itunes:image, then the first <img> of the escaped HTML description, entities decoded once")
    func itunesThenContent() throws {
        let found = try images(
            """
            <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"><channel><title>P</title>
            <item><guid>1</guid><title>E</title>
            <description>&lt;p&gt;Hi &lt;img src="/px.gif" width="1" height="1"&gt;&lt;img src="/x.png?a=1&amp;amp;b=2" width="640"&gt;&lt;/p&gt;</description>
            <itunes:image href="https://example.test/cover.png"/>
            </item></channel></rss>
            """
        )
        // The 1×1 tracking pixel is skipped; `&amp;amp;` is `&amp;` after XML, `&` after HTML.
        #expect(found.map(\.url) == ["https://example.test/cover.png", "https://example.test/x.png?a=1&b=2"])
        #expect(found.map(\.origin) == [.itunesImage, .contentImage])
        #expect(found.last?.width == 640)
    }

    @Test("content:encoded beside a description is read for its image only")
    func contentBesideDescription() throws {
        let feed = try parseFeed(
            rss(
                """
                <item><guid>1</guid><title>A</title><description>Short excerpt.</description>
                <content:encoded><![CDATA[<p>Long <img src="images/lead.webp"> article</p>]]></content:encoded>
                </item>
                """
            )
        )
        let entry = try #require(feed.entries.first)
        #expect(entry.summary == "Short excerpt.")
        #expect(entry.images.map(\.url) == ["https://example.test/images/lead.webp"])
    }

    @Test("Atom: an image enclosure link under xml:base, then the <img> of xhtml content")
    func atomEnclosure() throws {
        let found = try images(
            atom(
                """
                <entry xml:base="https://cdn.example.test/e/"><id>urn:1</id><title>T</title>
                <link rel="enclosure" type="image/png" href="shot.png" length="10"/>
                <link rel="enclosure" type="audio/ogg" href="talk.ogg"/>
                <content type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml"><img src="inline.jpg"/></div></content>
                </entry>
                """
            )
        )
        #expect(found.map(\.url) == ["https://cdn.example.test/e/shot.png", "https://cdn.example.test/e/inline.jpg"])
        #expect(found.map(\.origin) == [.atomEnclosure, .contentImage])
    }

    @Test("JSON Feed: image, banner_image, then the first <img> of content_html")
    func jsonFeed() throws {
        let feed = try parseFeed(
            """
            {"version":"https://jsonfeed.org/version/1.1","title":"J","items":[
              {"id":"1","content_html":"<p><img src='/body.jpg'></p>","image":"/main.png","banner_image":"https://b.example.test/wide.jpg"}]}
            """
        )
        let entry = try #require(feed.entries.first)
        #expect(
            entry.images.map(\.url) == [
                "https://example.test/main.png", "https://b.example.test/wide.jpg", "https://example.test/body.jpg",
            ]
        )
        #expect(entry.images.map(\.origin) == [.jsonImage, .jsonBannerImage, .contentImage])
    }

    @Test("data: URLs are never candidates and an entry without images has none")
    func dataURLs() throws {
        let found = try images(
            rss(
                """
                <item><guid>1</guid><title>A</title>
                <description>&lt;img src="data:image/png;base64,AAAA"&gt;</description>
                <media:thumbnail url="data:image/gif;base64,R0lG"/></item>
                """
            )
        )
        #expect(found.isEmpty)
    }

    @Test(
        "image types, media and URL endings are compared without ASCII case, and only that",
        arguments: [
            // (type, url, medium, is an image)
            ("IMAGE/PNG", "https://example.test/a", nil, true),
            (" image/jpeg", "https://example.test/a.jpg", nil, false),  // callers pass trimmed types
            ("audio/mpeg", "https://example.test/a.jpg", nil, false),
            (nil, "https://example.test/A.JPEG?size=2#top", nil, true),
            (nil, "https://example.test/a.webp.mp3", nil, false),
            (nil, "https://example.test/a.mp3?x=.png", nil, false),
            (nil, "https://example.test/a\u{0E}png", nil, false),  // a control byte is no dot
            ("audio/mpeg", "https://example.test/a.mp3", "Image", true),
            ("image/png", "https://example.test/a.png", "images", false),
        ] as [(String?, String, String?, Bool)]
    )
    func isImage(_ type: String?, _ url: String, _ medium: String?, _ expected: Bool) {
        #expect(ImageCandidates.isImage(type: type, url: url, medium: medium) == expected)
    }

    @Test("a data: URL in any case is no candidate")
    func dataURLInAnyCase() {
        var candidates = ImageCandidates()
        candidates.add(FeedImage(url: "DATA:image/png;base64,AAAA", origin: .contentImage))
        candidates.add(FeedImage(url: "Data:image/gif,x", origin: .mediaThumbnail))
        candidates.add(FeedImage(url: "https://example.test/data:a.png", origin: .mediaContent))
        #expect(candidates.ordered.map(\.url) == ["https://example.test/data:a.png"])
    }

    @Test("a thousand thumbnails per item give a bounded list")
    func bounded() throws {
        let thumbnails = (0..<1000).map { "<media:thumbnail url=\"/t\($0).jpg\"/>" }.joined()
        let found = try images(rss("<item><guid>1</guid><title>A</title>\(thumbnails)</item>"))
        #expect(found.count == ImageCandidates.limit)
    }

    @Test("the OPML icon attribute is resolved against the document")
    func opmlIcon() throws {
        let document = try FeedParser.parse(
            Array(
                """
                <opml version="2.0"><body>
                <outline type="link" text="Mail" url="https://mail.example.test/" icon="icons/mail.png"/>
                </body></opml>
                """.utf8
            ),
            url: "file:///etc/homefeed/samples/services.opml"
        )
        guard case .opml(let opml) = document else {
            Issue.record("expected OPML")
            return
        }
        #expect(opml.outlines.first?.icon == "file:///etc/homefeed/samples/icons/mail.png")
    }
}
