import Testing

@testable import HomeFeeds

/// A recovered parse is visible: `isWellFormed`, `warnings` with positions, a bounded list;
/// and a document cut short before any content is an error.
@Suite struct RecoveryTests {
    @Test("a clean document is well-formed, with no warnings")
    func clean() throws {
        let feed = try parseFeed(try Fixture.bytes("atom.xml"))
        #expect(feed.isWellFormed)
        #expect(feed.warnings.isEmpty)
        #expect(feed.warningCount == 0)
    }

    @Test("a bare ampersand is read as '&', at the position it was written")
    func bareAmpersand() throws {
        // Line 2: `<item>` 6 + `<guid>` 6 + `1` 1 + `</guid>` 7 + `<title>` 7 + `AT` 2 = 29
        // characters before the '&', so it is column 30.
        let feed = try parseFeed(
            "<rss version=\"2.0\"><channel><title>T</title>\n<item><guid>1</guid><title>AT&T</title></item></channel></rss>"
        )
        #expect(feed.entries.first?.title == "AT&T")
        #expect(!feed.isWellFormed)
        #expect(
            feed.warnings == [
                FeedParseWarning(
                    line: 2,
                    column: 30,
                    message: "recovered: a bare '&' (no entity or character reference) read as '&'"
                )
            ]
        )
    }

    @Test("an undefined entity is dropped with a warning; HTML5 entities are not warnings")
    func undefinedEntity() throws {
        let feed = try parseFeed(rss("<item><guid>1</guid><title>a&nosuch;b &hellip;</title></item>"))
        #expect(feed.entries.first?.title == "ab …")
        #expect(feed.warnings.map(\.message) == ["recovered: undefined entity &nosuch; dropped"])
        #expect(!feed.isWellFormed)
    }

    @Test("an HTML5 entity in an attribute value decodes whole, as in text; an undefined one is dropped")
    func entitiesInAttributes() throws {
        // libxml2 copies one byte of a predefined-type entity into an attribute value: `&eacute;`
        // had become a lone 0xC3 (read as U+FFFD) and `&nosuch;` a NUL.
        let body =
            "<opml version=\"2.0\"><body><outline text=\"Caf&eacute; &amp; Bar &hellip;&nosuch; &nGt;\" "
            + "title=\"&#233;t&eacute; &amp;eacute;\" xmlUrl=\"https://example.test/f?a=1&amp;b=&Uuml;\"/></body></opml>"
        guard case .opml(let opml) = try FeedParser.parse(Array(body.utf8), url: feedURL) else {
            Issue.record("not OPML")
            return
        }
        let outline = try #require(opml.outlines.first)
        #expect(outline.text == "Café & Bar … \u{226B}\u{20D2}")
        // A reference written as text (`&amp;eacute;`) stays text: decoded once.
        #expect(outline.title == "été &eacute;")
        #expect(outline.xmlURL == "https://example.test/f?a=1&b=%C3%9C")
        #expect(opml.warnings.map(\.message) == ["recovered: undefined entity &nosuch; dropped"])

        let feed = try parseFeed(
            rss(
                #"<item><guid>1</guid><enclosure url="https://example.test/a.mp3" type="audio/mpeg&amp;x&eacute;" length="1"/></item>"#
            )
        )
        #expect(feed.entries.first?.enclosures.first?.type == "audio/mpeg&xé")
        // Trimmed once decoded: an `&nbsp;` at either end is NBSP, which trimming removes.
        let spaced = try parseFeed(
            rss(
                #"<item><guid>1</guid><enclosure url="https://example.test/a.mp3" type="&nbsp;audio/mpeg &nbsp;" length="1"/></item>"#
            )
        )
        #expect(spaced.entries.first?.enclosures.first?.type == "audio/mpeg")
    }

    @Test("libxml2's recoveries are listed with their positions")
    func brokenXML() throws {
        let feed = try parseFeed(try Fixture.bytes("malformed-recoverable.xml"))
        #expect(!feed.isWellFormed)
        let mismatch = try #require(feed.warnings.first { $0.message.contains("Opening and ending tag mismatch") })
        #expect(mismatch.line == 2)
        #expect(mismatch.message.hasPrefix("recovered: "))
        #expect(feed.warnings.contains { $0.message == "recovered: the document ends inside <title> (truncated?)" })
    }

    @Test(
        "a body that ends inside its root before any feed content is an error with a position",
        arguments: [
            // libxml2 reports where it stopped reading markup, before trailing white space.
            ("<rss version=\"2.0\">", 1), ("<rss version=\"2.0\">\n<channel>\n", 2),
            ("<feed xmlns=\"http://www.w3.org/2005/Atom\">", 1),
            ("<opml version=\"2.0\"><head>", 1), ("<rss version=\"2.0\"><chan", 1),
        ]
    )
    func truncatedBeforeContent(_ body: String, _ line: Int) throws {
        let error = try #require(parseError(Array(body.utf8)))
        #expect(error.kind == .malformedXML(code: 77))
        #expect(error.line == line)
        #expect(error.column != nil)
        #expect(error.message.contains("before any feed content (truncated?)"))
        #expect(error.jsonString(pretty: false).contains("\"line\":\(line)"))
    }

    @Test("a body cut short after some content is a recovered feed, not an error")
    func truncatedAfterContent() throws {
        let feed = try parseFeed(
            "<rss version=\"2.0\"><channel><title>Kept</title><item><guid>1</guid><title>Also kept</title>"
        )
        #expect(feed.title == "Kept")
        #expect(feed.entries.map(\.title) == ["Also kept"])
        #expect(!feed.isWellFormed)
        // An empty but complete feed is fine: no content is no error.
        let empty = try parseFeed("<rss version=\"2.0\"><channel></channel></rss>")
        #expect(empty.entries.isEmpty)
        #expect(empty.isWellFormed)
    }

    @Test("an element whose start tag the body ends inside is dropped: a cut URL is no link to another host")
    func cutOffStartTag() throws {
        let opml = try parseOPML(
            #"<opml version="2.0"><body><outline text="A" xmlUrl="https://a.test/a.xml"/>"#
                + #"<outline text="B" xmlUrl="https://b.te"#
        )
        #expect(opml.outlines.map(\.xmlURL) == ["https://a.test/a.xml"])
        #expect(
            opml.warnings.map(\.message).contains(
                "recovered: the document ends inside the start tag of <outline>, which is dropped"
            )
        )
        // A tag cut after a whole value, before its `>`, is dropped as well.
        let whole = try parseOPML(
            #"<opml><head><title>T</title></head><body><outline text="A" xmlUrl="https://a.test/""#
        )
        #expect(whole.outlines.isEmpty)
        let rssFeed = try parseFeed(
            #"<rss version="2.0"><channel><item><guid>1</guid><enclosure url="https://e.test/a.mp3"/></item>"#
                + #"<item><guid>2</guid><enclosure url="https://e.te"#
        )
        #expect(rssFeed.entries.map(\.id) == ["1", "2"])
        #expect(rssFeed.entries.map { $0.enclosures.map(\.url) } == [["https://e.test/a.mp3"], []])
        let atomFeed = try parseFeed(
            #"<feed xmlns="http://www.w3.org/2005/Atom"><entry><id>1</id><link href="https://e.test/1"/></entry>"#
                + #"<entry><id>2</id><link href="https://e.te"#
        )
        #expect(atomFeed.entries.map(\.link) == ["https://e.test/1", nil])
    }

    @Test("dropped entries are warnings that say why")
    func droppedEntries() throws {
        let feed = try parseFeed(
            rss(
                "<item><pubDate>Sun, 29 Nov 2026 12:00:00 GMT</pubDate></item>"
                    + "<item><guid>1</guid><title>A</title></item><item><guid>1</guid><title>A</title></item>"
            )
        )
        #expect(feed.entries.map(\.id) == ["1"])
        #expect(
            feed.warnings.map(\.message) == [
                "entry dropped: it has no id, link, title or summary",
                "entry \"1\" dropped: it repeats an earlier entry exactly",
            ]
        )
        // Dropping an entry is no recovery from broken XML.
        #expect(feed.isWellFormed)
    }

    @Test("a JSON Feed's warnings name the item and attachment by their place in the document")
    func jsonFeedPaths() throws {
        let feed = try parseFeed(
            #"{"version": "https://jsonfeed.org/version/1.1", "items": [null, "x", "#
                + #"{"id": "a", "url": "javascript:x()", "attachments": [{"url": "a.mp3"}, {"url": "a.mp3"}, "#
                + #"{"no": "url"}, {"url": "javascript:y()"}]}, {}, 7, {"id": "b"}, [], {"id": "b"}]}"#
        )
        #expect(feed.entries.map(\.id) == ["a", "b"])
        let refused = "scheme is not followed (only http, https and mailto)"
        #expect(
            feed.warnings.map(\.message) == [
                "items[0] dropped: it is true, false or null, not an object",
                "items[1] dropped: it is a string, not an object",
                "items[2].attachments[3].url \"javascript:y()\" dropped: the javascript: \(refused)",
                "items[2].url \"javascript:x()\" dropped: the javascript: \(refused)",
                "items[3] dropped: it has no id, url, title or content",
                "items[4] dropped: it is a number, not an object",
                "items[6] dropped: it is an array, not an object",
                "items[7] \"b\" dropped: it repeats an earlier item exactly",
            ]
        )
        // 30 items that are no object: the first 20 listed, all counted.
        let nulls = try parseFeed(
            #"{"items": [{"id": "1"}, "# + Array(repeating: "null", count: 30).joined(separator: ",") + "]}"
        )
        #expect(nulls.warningCount == 30)
        #expect(
            nulls.warnings.map(\.message)
                == (1...20).map { "items[\($0)] dropped: it is true, false or null, not an object" }
        )
    }

    @Test("the entry limit is a warning on the bounded result")
    func entryLimit() throws {
        let items = (1...5).map { "<item><guid>\($0)</guid></item>" }.joined()
        let feed = try parseFeed(rss(items), limits: FeedParseLimits(maxEntries: 3))
        #expect(feed.entries.count == 3)
        #expect(feed.warnings.map(\.message) == ["stopped after 3 entries (the entry limit)"])
    }

    @Test("warnings are bounded: the first 20 are listed, all are counted")
    func bounded() throws {
        // 100 bare ampersands, one warning each.
        let feed = try parseFeed(
            rss("<item><guid>1</guid><title>\(String(repeating: "a & ", count: 100))</title></item>")
        )
        #expect(feed.warnings.count == WarningLog.limit)
        #expect(feed.warningCount == 100)
        #expect(feed.jsonString(pretty: false).utf8.count < 4000)
        // Bad bytes past the listed warnings are counted without positions being computed.
        let bytes =
            Array("<rss><channel><title>".utf8) + [UInt8](repeating: 0x01, count: 500)
            + Array("</title></channel></rss>".utf8)
        let noisy = try parseFeed(bytes)
        #expect(noisy.warningCount == 500)
        #expect(noisy.warnings.count == WarningLog.limit)
    }

    @Test("the entry-limit warning is listed even after 20 others, first, as it has no position")
    func entryLimitPastFullList() throws {
        // 25 bare ampersands fill the list before the entry limit is reached.
        let items = (1...30).map { "<item><guid>\($0)</guid><title>a & b</title></item>" }.joined()
        let feed = try parseFeed(rss(items), limits: FeedParseLimits(maxEntries: 25))
        #expect(feed.warningCount == 26)
        #expect(feed.warnings.count == WarningLog.limit)
        #expect(feed.warnings.first?.message == "stopped after 25 entries (the entry limit)")
        // The other 19 are the first ampersands, in document order.
        #expect(feed.warnings.dropFirst().allSatisfy { $0.message.contains("bare '&'") })
        #expect(
            feed.warnings.dropFirst().map(\.line)
                == feed.warnings.dropFirst().map(\.line).sorted { ($0 ?? 0) < ($1 ?? 0) }
        )
        // A JSON Feed's item warnings have no position either: the entry limit comes first.
        let json =
            "{\"version\": \"https://jsonfeed.org/version/1.1\", \"items\": ["
            + (1...30).map { _ in "{\"date_published\": \"x\"}" }.joined(separator: ",") + "]}"
        let jsonFeed = try parseFeed(json, limits: FeedParseLimits(maxEntries: 25))
        #expect(jsonFeed.warningCount == 26)
        #expect(jsonFeed.warnings.first?.message == "stopped after 25 items (the entry limit)")
    }

    @Test("OPML documents carry wellFormed and warnings too")
    func opml() throws {
        let document = try FeedParser.parse(
            Array(
                "<opml version=\"2.0\"><body><outline text=\"A&B\" xmlUrl=\"https://example.test/f\"/></body></opml>"
                    .utf8
            ),
            url: feedURL
        )
        guard case .opml(let opml) = document else {
            Issue.record("not OPML")
            return
        }
        #expect(opml.outlines.map(\.text) == ["A&B"])
        #expect(!opml.isWellFormed)
        #expect(opml.warnings.count == 1)
        // `<opml version="2.0">` 20 + `<body>` 6 + `<outline text="A` 16 = 42 characters before the '&'.
        #expect(opml.diagnostics == ["1:43: recovered: a bare '&' (no entity or character reference) read as '&'"])
        #expect(document.jsonString(pretty: false).contains(#""wellFormed":false"#))
    }
}

extension ParsedFeed {
    func jsonString(pretty: Bool) -> String { FeedDocument.feed(self).jsonString(pretty: pretty) }
}
