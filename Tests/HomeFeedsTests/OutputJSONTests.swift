import Testing

@testable import HomeFeeds

@Suite struct OutputJSONTests {
    @Test("feed JSON: spec key order, explicit nulls, escapes, compact form")
    func feedJSON() {
        let feed = ParsedFeed(
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
        let json = FeedDocument.feed(feed).jsonString(pretty: false)
        #expect(
            json
                == #"{"format":"atom1.0","error":false,"wellFormed":false,"feed_url":"https://example.test/feed.xml","feed":{"title":"Quote \" backslash \\ tab \t nl \n ctl \u0001 한글 /","link":null},"entries":[{"id":"1","id_source":"guid+n","title":null,"link":"https://example.test/1","published":"1970-01-01T00:00:00Z","summary":null,"enclosures":[{"url":"https://example.test/a","type":null,"length":5}]}],"warnings":[{"line":3,"column":7,"message":"recovered: x"},{"line":null,"column":null,"message":"no position"}]}"#
        )
        #expect(feed.warningCount == 2)
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
