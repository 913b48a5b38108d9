import Testing

@testable import HomeFeeds

@Suite struct OutputJSONTests {
    @Test("feed JSON: spec key order, explicit nulls, escapes, compact form")
    func feedJSON() {
        var feed = ParsedFeed(
            format: .atom10,
            feedURL: "https://example.test/feed.xml",
            title: "Quote \" backslash \\ tab \t nl \n ctl \u{01} 한글 /",
            link: nil,
            entries: [
                FeedEntry(
                    id: "1",
                    idSource: .guidPlusN,
                    title: nil,
                    link: "https://example.test/1",
                    published: FeedTimestamp(secondsSince1970: 0),
                    summary: nil,
                    enclosures: [FeedEnclosure(url: "https://example.test/a", type: nil, length: 5)]
                )
            ],
            isWellFormed: false,
            warnings: [
                FeedParseWarning(line: 3, column: 7, message: "recovered: x"),
                FeedParseWarning(message: "no position"),
            ]
        )
        feed.entries[0].images = [
            FeedImage(url: "https://example.test/t.jpg", origin: .mediaThumbnail, width: 120, height: 90)
        ]
        let json = FeedDocument.feed(feed).jsonString(pretty: false)
        #expect(
            json
                == #"{"format":"atom1.0","error":false,"wellFormed":false,"feed_url":"https://example.test/feed.xml","feed":{"title":"Quote \" backslash \\ tab \t nl \n ctl \u0001 한글 /","link":null},"entries":[{"id":"1","id_source":"guid+n","title":null,"link":"https://example.test/1","published":"1970-01-01T00:00:00Z","summary":null,"enclosures":[{"url":"https://example.test/a","type":null,"length":5}],"images":[{"url":"https://example.test/t.jpg","origin":"media:thumbnail","type":null,"width":120,"height":90,"length":null}]}],"warnings":[{"line":3,"column":7,"message":"recovered: x"},{"line":null,"column":null,"message":"no position"}]}"#
        )
        #expect(feed.warningCount == 2)
    }

    @Test("image candidates in entries and OPML icons, resolved, in homefeed's order")
    func imagesAndIcons() throws {
        let rss = """
            <rss version="2.0"><channel><title>T</title><item><guid>g</guid>
            <description>&lt;p&gt;&lt;img src="pics/inline.png"&gt;&lt;/p&gt;</description>
            <enclosure url="/photo.jpg" type="image/jpeg" length="2048"/>
            </item></channel></rss>
            """
        let feed = try FeedParser.parse(Array(rss.utf8), url: "https://example.test/news/feed.xml")
        // The enclosure first, the <img> of the description after; both resolved against the feed URL.
        #expect(
            feed.jsonString(pretty: false).contains(
                #""images":[{"url":"https://example.test/photo.jpg","origin":"enclosure","type":"image/jpeg","width":null,"height":null,"length":2048},{"url":"https://example.test/news/pics/inline.png","origin":"img","type":null,"width":null,"height":null,"length":null}]"#
            )
        )
        let opml = """
            <opml version="2.0"><body>
            <outline type="link" text="A" url="https://example.test/a" icon="icons/a.png"/>
            <outline type="link" text="B" url="https://example.test/b"/>
            </body></opml>
            """
        let links = try FeedParser.parse(Array(opml.utf8), url: "https://example.test/links/l.opml")
        #expect(
            links.jsonString(pretty: false).contains(
                #""outlines":[{"text":"A","title":null,"type":"link","xmlUrl":null,"htmlUrl":null,"url":"https://example.test/a","icon":"https://example.test/links/icons/a.png","categories":[]},{"text":"B","title":null,"type":"link","xmlUrl":null,"htmlUrl":null,"url":"https://example.test/b","icon":null,"categories":[]}]"#
            )
        )
    }

    @Test("pretty JSON of an empty feed")
    func emptyPretty() {
        let feed = ParsedFeed(format: .rss20, feedURL: "u", title: nil, link: nil, entries: [])
        #expect(
            FeedDocument.feed(feed).jsonString() == """
                {
                  "format": "rss2.0",
                  "error": false,
                  "wellFormed": true,
                  "feed_url": "u",
                  "feed": {
                    "title": null,
                    "link": null
                  },
                  "entries": [],
                  "warnings": []
                }
                """
        )
    }

    @Test("error JSON and the one-line description")
    func errorJSON() {
        let error = FeedParseError(
            kind: .malformedXML(code: 4),
            source: "https://example.test/f",
            line: 3,
            column: 9,
            message: "Start tag expected"
        )
        #expect(error.description == "https://example.test/f:3:9: Start tag expected")
        #expect(
            error.jsonString(pretty: false)
                == #"{"error":true,"message":"https://example.test/f:3:9: Start tag expected","line":3,"column":9}"#
        )
        let noPosition = FeedParseError(kind: .empty, source: "s", message: "empty document")
        #expect(noPosition.description == "s: empty document")
        #expect(noPosition.jsonString(pretty: false) == #"{"error":true,"message":"s: empty document"}"#)
    }

    @Test("the same document always gives the same bytes")
    func deterministic() throws {
        let body = try Fixture.bytes("atom.xml")
        let first = try FeedParser.parse(body, url: feedURL).jsonString()
        for _ in 0..<3 {
            #expect(try FeedParser.parse(body, url: feedURL).jsonString() == first)
        }
    }
}
