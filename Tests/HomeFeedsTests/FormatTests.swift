import Testing

@testable import HomeFeeds

@Suite struct FormatTests {
    @Test("RSS 2.0 with Korean text, CDATA, entities, media and dc:date (golden JSON)")
    func rss2Golden() throws {
        let document = try FeedParser.parse(try Fixture.bytes("rss2-korean.xml"), url: feedURL)
        let expected = String(decoding: try Fixture.bytes("rss2-korean.expected.json"), as: UTF8.self)
        #expect(document.jsonString(pretty: true) + "\n" == expected)
    }

    @Test(
        "format detection",
        arguments: [
            ("rss2-korean.xml", FeedFormat.rss20), ("rss091.xml", .rss091), ("rss092.xml", .rss092),
            ("rss1-rdf.xml", .rss10), ("atom.xml", .atom10), ("jsonfeed11.json", .jsonFeed11),
            ("jsonfeed10.json", .jsonFeed11),
            ("euc-kr.xml", .rss20),
        ]
    )
    func detectsFormat(_ name: String, _ format: FeedFormat) throws {
        #expect(try parseFeed(try Fixture.bytes(name)).format == format)
    }

    @Test("RSS 0.91 with an external DTD that is not loaded and HTML entities")
    func rss091() throws {
        let feed = try parseFeed(try Fixture.bytes("rss091.xml"))
        #expect(feed.title == "Café News")
        #expect(feed.entries.map(\.summary) == ["Hello world © 2001"])
        #expect(feed.entries.map(\.id) == ["http://example.test/1"])
    }

    @Test("RSS 0.92: description only, summary hash id, enclosure")
    func rss092() throws {
        let feed = try parseFeed(try Fixture.bytes("rss092.xml"))
        let entry = try #require(feed.entries.first)
        #expect(entry.title == nil)
        #expect(entry.summary == "Only a description here")
        #expect(entry.idSource == .summaryHash)
        #expect(entry.enclosures.first?.length == 12_216_320)
    }

    @Test("RSS 1.0: rdf:about ids, dc:date, description only")
    func rss10() throws {
        let feed = try parseFeed(try Fixture.bytes("rss1-rdf.xml"))
        #expect(feed.title == "RDF 채널")
        #expect(feed.link == "https://example.test/rdf")
        #expect(feed.entries.map(\.id) == ["https://example.test/rdf/1", "https://example.test/rdf/2.html"])
        #expect(feed.entries.map(\.idSource) == [.rdfAbout, .link])
        #expect(feed.entries.map(\.summary) == ["설명 & 요약", nil])
        #expect(feed.entries.map { $0.published?.rfc3339 } == ["2026-11-29T01:15:30Z", "2026-11-29T00:00:00Z"])
    }

    @Test(
        "RSS 2.0 in the default namespaces UserLand and Harvard gave it is RSS",
        arguments: [
            "http://backend.userland.com/rss", "http://backend.userland.com/rss2",
            "http://backend.userland.com/rss2.1", "http://blogs.law.harvard.edu/tech/rss",
        ]
    )
    func rssNamespaces(_ namespace: String) throws {
        let feed = try parseFeed(
            """
            <rss version="2.0" xmlns="\(namespace)"><channel><title>Namespaced</title>
            <item><guid>1</guid><title>Item</title><link>/1</link></item></channel></rss>
            """
        )
        #expect(feed.format == .rss20)
        #expect(feed.title == "Namespaced")
        #expect(feed.entries.map(\.title) == ["Item"])
        #expect(feed.entries.map(\.link) == ["https://example.test/1"])
    }

    @Test("Atom 1.0: xml:base, link choice, text constructs, source ignored")
    func atom10() throws {
        let feed = try parseFeed(try Fixture.bytes("atom.xml"))
        #expect(feed.title == "블로그 Atom")
        #expect(feed.link == "https://example.test/blog/")
        #expect(
            feed.entries.map(\.id) == ["tag:example.test,2026:1", "tag:example.test,2026:2", "tag:example.test,2026:3"]
        )
        #expect(
            feed.entries.map(\.title) == [
                "Text <b> stays &amp; literal", "XHTML 제목 &amp;", "Only an alternate of another type",
            ]
        )
        #expect(
            feed.entries.map(\.link) == [
                "https://example.test/blog/posts/1", "https://other.test/y/2", "https://example.test/doc.pdf",
            ]
        )
        // `<p>본문</p><p>둘째</p>` in XHTML: the paragraphs separate the words.
        #expect(feed.entries.map(\.summary) == ["요약 & 설명", "본문 둘째", "plain <not a tag>"])
        #expect(feed.entries.map { $0.published?.rfc3339 } == ["2026-11-29T00:00:00Z", "2026-11-29T04:59:59Z", nil])
        #expect(
            feed.entries[0].enclosures == [
                FeedEnclosure(url: "https://example.test/blog/audio/1.mp3", type: "audio/mpeg", length: 1337)
            ]
        )
    }

    @Test("enclosure types are trimmed of white space and NBSP, blank ones are nil, & is decoded")
    func enclosureTypes() throws {
        let feed = try parseFeed(
            rss(
                """
                <item><guid>1</guid>
                <enclosure url="/a.mp3" type=" &#160;audio/mpeg\t&#xA0;" length="1"/>
                <enclosure url="/b.mp3" type=" &#160; " length="2"/>
                <enclosure url="/c.ogg" type="audio/ogg; codecs=&quot;a&amp;b&quot;" length="3"/>
                <media:content url="/d.jpg" type=" IMAGE/JPEG "/>
                </item>
                """
            )
        )
        #expect(
            try #require(feed.entries.first).enclosures == [
                FeedEnclosure(url: "https://example.test/a.mp3", type: "audio/mpeg", length: 1),
                FeedEnclosure(url: "https://example.test/b.mp3", type: nil, length: 2),
                FeedEnclosure(url: "https://example.test/c.ogg", type: "audio/ogg; codecs=\"a&b\"", length: 3),
                FeedEnclosure(url: "https://example.test/d.jpg", type: "IMAGE/JPEG", length: nil),
            ]
        )
        // The media:content is an image by its type, compared without case.
        #expect(feed.entries.first?.images.map(\.url) == ["https://example.test/d.jpg"])
    }

    @Test("JSON Feed 1.1: literal title and summary, content_html stripped, numeric id, lenient types")
    func jsonFeed11() throws {
        let feed = try parseFeed(try Fixture.bytes("jsonfeed11.json"))
        #expect(feed.title == "JSON 피드")
        #expect(feed.link == "https://example.test/")
        #expect(feed.entries.map(\.id) == ["1", "12345", "https://example.test/posts/3", "7"])
        #expect(feed.entries.map(\.title) == ["첫 글 &amp; <b>literal</b>", "숫자 id", nil, nil])
        #expect(feed.entries.map(\.summary) == ["HTML & 본문", "요약 <i>그대로</i>", "text only", nil])
        #expect(
            feed.entries.map { $0.published?.rfc3339 } == ["2026-11-29T01:00:00Z", "2026-11-29T10:00:00Z", nil, nil]
        )
        #expect(
            feed.entries[0].enclosures == [
                FeedEnclosure(url: "https://example.test/a.mp3", type: "audio/mpeg", length: 1000)
            ]
        )
    }

    @Test(
        "a numeric JSON Feed id is stringified exactly: an integer within Int64 as that integer, any other number as written",
        arguments: [
            ("10000000000000000001", "10000000000000000001"), ("10000000000000000002", "10000000000000000002"),
            ("9223372036854775807", "9223372036854775807"), ("-9223372036854775808", "-9223372036854775808"),
            ("-9223372036854775809", "-9223372036854775809"), ("12345", "12345"), ("-0", "0"), ("1.0", "1"),
            ("1e3", "1000"), ("1200E-2", "12"), ("1.5", "1.5"), ("1e400", "1e400"), ("1.25e-5", "1.25e-5"),
            (String(repeating: "9", count: 1000), String(repeating: "9", count: 1000)),
        ]
    )
    func jsonFeedNumericID(_ literal: String, _ id: String) throws {
        let feed = try parseFeed(
            #"{"version": "https://jsonfeed.org/version/1.1", "items": [{"id": \#(literal), "title": "t"}]}"#
        )
        #expect(feed.entries.map(\.id) == [id])
        #expect(feed.entries.map(\.idSource) == [.jsonID])
    }

    @Test("OPML: category paths, relative URLs, type=rss and type=link, empty folders skipped")
    func opml() throws {
        let document = try FeedParser.parse(
            try Fixture.bytes("opml.xml"),
            url: "https://example.test/config/sources.opml"
        )
        guard case .opml(let opml) = document else {
            Issue.record("expected OPML")
            return
        }
        #expect(opml.title == "홈 화면 링크")
        #expect(
            opml.outlines == [
                OPMLOutline(
                    text: "민원 & 신청",
                    title: nil,
                    type: "link",
                    xmlURL: nil,
                    htmlURL: nil,
                    url: "https://example.test/services/apply?a=1&b=2",
                    categories: ["주요 서비스"],
                    categoryAttribute: "/main-service",
                    line: 6
                ),
                OPMLOutline(
                    text: "시청 공지",
                    title: "공지",
                    type: "rss",
                    xmlURL: "https://example.test/config/feeds/notices.xml",
                    htmlURL: "https://example.test/notices/",
                    url: nil,
                    categories: ["주요 서비스", "뉴스"],
                    categoryAttribute: nil,
                    line: 8
                ),
                OPMLOutline(
                    text: "Top level",
                    title: nil,
                    type: "rss",
                    xmlURL: "https://other.test/rss",
                    htmlURL: nil,
                    url: nil,
                    categories: [],
                    categoryAttribute: nil,
                    line: 12
                ),
            ]
        )
        #expect(
            document.jsonString(pretty: false).hasPrefix(
                #"{"format":"opml","error":false,"wellFormed":false,"title":"홈 화면 링크","outlines":[{"text":"민원 & 신청","title":null,"type":"link","xmlUrl":null,"htmlUrl":null,"url":"https://example.test/services/apply?a=1&b=2","icon":null,"categories":["주요 서비스"]}"#
            )
        )
    }

    @Test("a folder outline with an xmlUrl of its own is listed, before the outlines inside it")
    func opmlFolderFeed() throws {
        let opml = try parseOPML(
            #"<opml version="2.0"><body><outline text="Blog" xmlUrl="https://b.test/feed">"#
                + #"<outline text="Comments" xmlUrl="https://b.test/comments"/></outline></body></opml>"#
        )
        #expect(opml.outlines.map(\.text) == ["Blog", "Comments"])
        #expect(opml.outlines.map(\.categories) == [[], ["Blog"]])
    }

    @Test("items under the rss root and channel/image titles do not leak into the channel")
    func rssStructure() throws {
        let feed = try parseFeed(
            """
            <rss version="2.0"><channel><image><title>Logo</title><link>/logo</link></image><title>Real</title><link>/real</link></channel>
            <item><guid>loose</guid></item></rss>
            """
        )
        #expect(feed.title == "Real")
        #expect(feed.link == "https://example.test/real")
        #expect(feed.entries.map(\.id) == ["loose"])
    }
}
