import Testing

@testable import HomeFeeds

@Suite struct MalformedTests {
    @Test("recoverable: stray tags, mismatched end tags, a truncated body")
    func recoverable() throws {
        let feed = try parseFeed(try Fixture.bytes("malformed-recoverable.xml"))
        #expect(feed.title == "Broken & fine")
        #expect(feed.entries.map(\.id).prefix(2) == ["m-1", "m-2"])
        #expect(feed.entries.map(\.title) == ["Unclosed tag", "After the error & still decoded é", "Truncated"])
        #expect(feed.entries.first?.summary == "a b c")
        #expect(!feed.warnings.isEmpty)
        #expect(!feed.isWellFormed)
    }

    @Test("whitespace before the XML declaration is recovered from")
    func leadingWhitespace() throws {
        let feed = try parseFeed("\n\n  " + rss("<item><guid>1</guid><title>A &amp; B</title></item>"))
        #expect(feed.entries.map(\.title) == ["A & B"])
    }

    @Test("mismatched end tags close the open item and channel elements")
    func missingEndTags() throws {
        let feed = try parseFeed(
            rss(
                """
                <item><guid>1</guid><description>open<b>bold</item>
                <item><guid>2</guid><title>second &amp; fine</title></item>
                """
            )
        )
        #expect(feed.entries.map(\.id) == ["1", "2"])
        #expect(feed.entries.map(\.summary) == ["openbold", nil])
        #expect(feed.entries.last?.title == "second & fine")
    }

    @Test("elements a mismatched end tag closed count toward no depth: 150 items with an unclosed <br> all parse")
    func mismatchedItemsKeepNoDepth() throws {
        // libxml2 pops only the innermost element per end tag, so each item below stays open
        // inside the one before it; 150 of them are far past the depth limit of 100.
        let items = (0..<150).map { "<item><title>T\($0)</title><description>Hello<br>World</description></item>" }
        let feed = try parseFeed("<rss version=\"2.0\"><channel>" + items.joined() + "</channel></rss>")
        #expect(feed.entries.map(\.title) == (0..<150).map { "T\($0)" })
        #expect(feed.entries.allSatisfy { $0.summary == "Hello World" })
        #expect(!feed.isWellFormed)
    }

    @Test("an xml:base ends with the element a mismatched end tag closed")
    func mismatchedItemBase() throws {
        let feed = try parseFeed(
            rss(
                """
                <item xml:base="https://other.test/dir/"><guid>1</guid><description>x<br>y</description>\
                <link>a</link></item>
                <item><guid>2</guid><link>b</link></item>
                """
            )
        )
        #expect(feed.entries.map(\.link) == ["https://other.test/dir/a", "https://example.test/b"])
    }

    @Test("an end tag that names no open element is ignored: a stray </outline> keeps every later outline")
    func strayEndTag() throws {
        let body = """
            <?xml version="1.0" encoding="UTF-8"?>
            <opml version="2.0"><head><title>sources</title></head><body>
            <outline text="Group"><outline type="rss" text="A" xmlUrl="https://a.example/a.xml"/></outline>
            </outline>
            <outline type="rss" text="B" xmlUrl="https://b.example/b.xml"/>
            <outline type="rss" text="C" xmlUrl="https://c.example/c.xml"/>
            </body>
            </opml>
            """
        let opml = try parseOPML(body)
        #expect(opml.outlines.map(\.text) == ["A", "B", "C"])
        #expect(opml.outlines.map(\.categories) == [["Group"], [], []])
        #expect(opml.warnings.first?.message == "recovered: Opening and ending tag mismatch: body line 2 and outline")
        // libxml2 then matches the later end tags one level off; the list is not cut short.
        #expect(!opml.warnings.contains { $0.message.contains("truncated") })
        // The same in a feed: the item stays open past a stray </b>, and the next one is read.
        let feed = try parseFeed(
            rss("<item><guid>1</guid><title>A</b></title><link>/a</link></item><item><guid>2</guid></item>")
        )
        #expect(feed.entries.map(\.id) == ["1", "2"])
        #expect(feed.entries.map(\.link) == ["https://example.test/a", "https://example.test/2"])
        // After an earlier mismatch (an unclosed <br>) the stacks differ: the stray </i> is
        // left to the mismatch recovery, which closes the description and the item in time.
        let afterBreak = try parseFeed(
            rss(
                "<item><guid>1</guid><description><p>a<br></p><p>b</i></p></description></item>"
                    + "<item><guid>2</guid></item>"
            )
        )
        #expect(afterBreak.entries.map(\.id) == ["1", "2"])
    }

    @Test(
        "an element after the root, once a mismatched end tag closed the root early, is ignored with one warning",
        arguments: [
            """
            <opml version="2.0"><head><title>t</title></head><body>
            <outline text="News">
              <outline text="A" xmlUrl="https://a.test/a.xml">
            </outline>
            </body></opml>
            """,
            """
            <rss version="2.0"><channel><title>t</title>
            <item><guid>a</guid><title>A</title><description>one<br>two</description></item>
            <item><guid>b</guid><title>B</title></item>
            </channel></rss>
            """,
            """
            <feed xmlns="http://www.w3.org/2005/Atom"><title>t</title>
            <entry><id>a</id><title>A</title><summary>one<br>two</summary></entry>
            <entry><id>b</id><title>B</title></entry>
            </feed>
            """,
        ]
    )
    func contentAfterRoot(_ document: String) throws {
        // What free hosts append to every page, here after a document it closes early.
        let trailer = "\n<script src=\"https://analytics.example/a.js\"><p>x</p></script><div/>"
        let parsed = try FeedParser.parse(Array((document + trailer).utf8), url: feedURL)
        let alone = try FeedParser.parse(Array(document.utf8), url: feedURL)
        switch (parsed, alone) {
        case (.opml(let opml), .opml(let expected)):
            #expect(opml.outlines == expected.outlines)
            #expect(opml.outlines.map(\.text) == ["A"])
        case (.feed(let feed), .feed(let expected)):
            #expect(feed.entries == expected.entries)
            #expect(feed.entries.map(\.id) == ["a", "b"])
        default:
            Issue.record("\(parsed) is not what \(alone) is")
        }
        let ignored = parsed.warnings.filter { $0.message.hasPrefix("content after the root element ignored") }
        #expect(ignored.map(\.message) == ["content after the root element ignored, from <script> on"])
        #expect(ignored.first?.line == document.split(separator: "\n").count + 1)
    }

    @Test("outlines directly under <opml>, without <body>, are read with a warning")
    func outlinesOutsideBody() throws {
        let opml = try parseOPML(
            """
            <opml version="1.0"><outline text="F"><outline text="A" xmlUrl="https://a.test/a.xml"/></outline>
            <outline text="B" xmlUrl="https://b.test/b.xml"/></opml>
            """
        )
        #expect(opml.outlines.map(\.text) == ["A", "B"])
        #expect(opml.outlines.map(\.categories) == [["F"], []])
        #expect(
            opml.diagnostics == [
                "1:38: outline outside <body> read as if inside it",
                "2:48: outline outside <body> read as if inside it",
            ]
        )
    }

    @Test("bare ampersands are literal, in text and in attributes")
    func bareAmpersands() throws {
        let feed = try parseFeed(
            rss(
                """
                <item><guid>1</guid><title>AT&T & Johnson&Johnson &amp; &#38; &#x26; &; &#; &1</title>
                <link>https://example.test/?a=1&b=2&amp;c=3</link>
                <enclosure url="https://example.test/e?x=1&y=2&amp;z=3&#38;w" type="a&b"/></item>
                """
            )
        )
        let entry = try #require(feed.entries.first)
        #expect(entry.title == "AT&T & Johnson&Johnson & & & &; &#; &1")
        #expect(entry.link == "https://example.test/?a=1&b=2&c=3")
        #expect(entry.enclosures.first?.url == "https://example.test/e?x=1&y=2&z=3&w")
        #expect(entry.enclosures.first?.type == "a&b")
    }

    @Test(
        "a CDATA opener inside a comment or processing instruction opens nothing: later ampersands are still repaired",
        arguments: ["<!-- wrap in <![CDATA[ -->", "<?note <![CDATA[ ?>"]
    )
    func sectionOpenersInComments(_ markup: String) throws {
        let body = Array(
            rss(
                markup
                    + "<item><guid>1</guid><title>AT&T</title><link>https://example.test/?a=1&b=2</link></item>"
                    + "<!-- <![CDATA[ & ]]> --><item><guid>2</guid><title>Q&A</title></item>"
            ).utf8
        )
        let feed = try parseFeed(body)
        #expect(feed.entries.map(\.title) == ["AT&T", "Q&A"])
        #expect(feed.entries.first?.link == "https://example.test/?a=1&b=2")
        // The same however the body is cut: an opener or closer may straddle two pieces.
        for size in [1, 2, 3, 5, 8] {
            #expect(try parseInPieces(body, size: size, chunkSize: size) == .feed(feed), "pieces of \(size)")
        }
    }

    @Test("CDATA keeps its ampersands untouched")
    func cdataAmpersands() throws {
        let feed = try parseFeed(rss("<item><guid>1</guid><title><![CDATA[Q&A &amp; more]]></title></item>"))
        #expect(feed.entries.first?.title == "Q&A & more")
    }

    @Test(
        "unrecoverable documents give a clear error with a position",
        arguments: [
            ("", "empty document"),
            ("   \n  ", "empty document"),
            ("hello world", "no feed or OPML document element (libxml2: Document is empty)"),
            ("<", "no feed or OPML document element"),
            ("\u{FEFF}", "empty document"),
        ]
    )
    func unrecoverable(_ body: String, _ fragment: String) throws {
        let error = try #require(parseError(Array(body.utf8)))
        #expect(error.description.contains(fragment), "\(error)")
        #expect(error.description.hasPrefix(feedURL))
    }

    @Test("an HTML page or unknown XML is not a feed")
    func notAFeed() throws {
        let error = try #require(parseError(try Fixture.bytes("not-a-feed.html")))
        #expect(error.kind == .unsupportedFormat)
        #expect(
            error.description == "https://example.test/feed.xml:2:6: root element <html> is not RSS, RDF, Atom or OPML"
        )
        #expect(parseError(Array("<feed><title>no namespace</title></feed>".utf8))?.kind == .unsupportedFormat)
    }

    @Test(
        "malformed JSON and JSON that is no feed",
        arguments: [
            "{", "{\"items\": [}", "[1, 2, 3]", "{\"version\": \"https://example.test/\"}", "{\"a\": 1}",
            String(repeating: "[", count: 100_000),
        ]
    )
    func badJSON(_ body: String) throws {
        let error = try #require(parseError(Array(body.utf8)))
        #expect(error.kind == .malformedJSON || error.kind == .unsupportedFormat)
    }

    @Test(
        "JSON that is no feed: a JSON Feed has a JSON Feed version, or without one items that look like feed items",
        arguments: [
            #"{"total_count": 0, "items": []}"#, #"{"items": [{"name": "x"}, 1]}"#,
            #"{"version": "1.0", "items": [{"name": "1"}]}"#, #"{"version": "https://example.test/"}"#, #"{"a": 1}"#,
        ]
    )
    func notAJSONFeed(_ body: String) throws {
        let error = try #require(parseError(Array(body.utf8)))
        #expect(error.kind == .unsupportedFormat)
        #expect(error.message.hasPrefix("JSON document is not a JSON Feed: "), "\(error)")
    }

    @Test("JSON without a version whose items look like feed items is a feed", arguments: ["id", "url", "title"])
    func versionlessJSONFeed(_ member: String) throws {
        let feed = try parseFeed(#"{"items": [{"\#(member)": "https://example.test/1"}]}"#)
        #expect(feed.format == .jsonFeed11)
        #expect(feed.entries.count == 1)
    }

    @Test("a version that is no JSON Feed URL, with items that look like feed items, is a feed with a warning")
    func foreignVersionJSONFeed() throws {
        let feed = try parseFeed(#"{"version": "1.1", "items": [{"id": "1", "title": "One"}]}"#)
        #expect(feed.entries.map(\.id) == ["1"])
        #expect(
            feed.warnings.map(\.message).contains(
                #"version "1.1" is no https://jsonfeed.org/version/ URL; read as a JSON Feed for its items"#
            )
        )
    }

    @Test("a JSON Content-Type makes the body JSON, and its errors JSON errors")
    func jsonContentType() throws {
        let xml = Array(rss("<item><guid>1</guid></item>").utf8)
        // An XML feed labelled JSON by its server is read as XML, with a warning.
        let labelled = try parseFeed(xml, contentType: "application/feed+json")
        #expect(labelled.entries.map(\.id) == ["1"])
        #expect(labelled.warnings.map(\.message).contains("served as application/feed+json but is XML: read as XML"))
        // However the body is cut: the first bytes may be white space alone.
        let pieces = FeedDocumentParser(url: feedURL, contentType: "application/json")
        for byte in Array(" \n".utf8) + xml { try pieces.append([byte]) }
        guard case .feed(let piecewise) = try pieces.finish() else {
            Issue.record("not a feed")
            return
        }
        #expect(piecewise.entries.map(\.id) == ["1"])
        let error = try #require(parseError(Array("{<".utf8), contentType: "application/feed+json"))
        #expect(error.kind == .malformedJSON)
        #expect((error.line, error.column) == (1, 2))
        let string = try #require(
            parseError(Array(#""a string""#.utf8), contentType: "application/json; charset=utf-8")
        )
        #expect(string.message == "not a JSON Feed object: the document is a string")
        #expect(parseError([], contentType: "application/json")?.kind == .empty)
        // Without one (a file), the bytes decide as before.
        #expect(try parseFeed(xml).entries.map(\.id) == ["1"])
    }

    @Test("a UTF-16 or doubled byte-order mark before JSON is a JSON error naming it, however the body was cut")
    func jsonByteOrderMarks() throws {
        let json = #"{"version": "https://jsonfeed.org/version/1.1", "items": []}"#
        let cases: [([UInt8], String)] = [
            ([0xFF, 0xFE] + EncodingTests.utf16(json, littleEndian: true), "UTF-16LE byte-order mark FF FE"),
            ([0xFE, 0xFF] + EncodingTests.utf16(" \n" + json, littleEndian: false), "UTF-16BE byte-order mark FE FF"),
            ([0xEF, 0xBB, 0xBF, 0xEF, 0xBB, 0xBF] + Array(json.utf8), "two UTF-8 byte-order marks"),
        ]
        for (body, named) in cases {
            let error = try #require(parseError(body))
            #expect(error.kind == .malformedJSON)
            #expect(error.message.contains(named), "\(error)")
            for size in [1, 2, 3, 5] {
                #expect(throws: error) { try parseInPieces(body, size: size) }
            }
        }
        // UTF-16 XML stays XML.
        let xml = rss("<item><guid>1</guid></item>")
        let utf16 = [0xFF, 0xFE] + EncodingTests.utf16(xml, littleEndian: true)
        #expect(try parseFeed(utf16).entries.map(\.id) == ["1"])
    }

    @Test("invalid JSON names the line and column where it goes wrong")
    func badJSONPosition() throws {
        let error = try #require(parseError(Array("{\"items\": [\n  {\"id\": 1,}\n]}".utf8)))
        #expect(error.kind == .malformedJSON)
        #expect(error.line == 2)
        #expect(error.column == 12)
        #expect(error.message == "invalid JSON: unexpected '}'; expected a string key in double quotes")
    }

    @Test("undeclared and unknown entities never fail the parse")
    func unknownEntities() throws {
        let feed = try parseFeed(rss("<item><guid>1</guid><title>a&nosuchentity;b &hellip; &mdash;</title></item>"))
        #expect(feed.entries.first?.title == "ab … —")
    }
}

@Suite struct StreamingTests {
    /// Parsing a document in chunks of any size gives the same result as one chunk: the
    /// decoder, the ampersand repair and libxml2 all carry state across chunks.
    @Test(
        "chunking does not change the result",
        arguments: [
            "rss2-korean.xml", "malformed-recoverable.xml", "atom.xml", "euc-kr.xml", "jsonfeed11.json", "opml.xml",
            "cp037.xml",
        ]
    )
    func chunking(_ name: String) throws {
        let body = try Fixture.bytes(name)
        let whole = try FeedParser.parse(body, url: feedURL)
        for size in [1, 2, 3, 5, 8, 13, 64, 1000] {
            let got = try parseInPieces(body, size: size, chunkSize: size)
            #expect(got == whole, "chunk size \(size) \(got.warnings) vs \(whole.warnings)")
        }
    }

    @Test("every two-piece split of a document with bare ampersands and CDATA")
    func everySplit() throws {
        let body = Array(
            rss("<item><guid>1</guid><title>A&B &amp; &eacute;<![CDATA[ x&y ]]>]]&gt; &#38;</title></item>").utf8
        )
        let feed = try parseFeed(body)
        let whole = FeedDocument.feed(feed)
        #expect(feed.entries.first?.title == "A&B & é x&y ]]> &")
        for split in 1..<body.count {
            // The parser's chunks end where the first piece does (and at multiples of it).
            let parser = FeedDocumentParser(url: feedURL, limits: FeedParseLimits(chunkSize: split))
            try parser.append(Array(body[..<split]))
            try parser.append(Array(body[split...]))
            #expect(try parser.finish() == whole, "split at \(split)")
        }
    }

    /// Pieces longer than `AmpersandRepair.joinedLength`: bytes held back at the end of one
    /// piece (inside a CDATA section, an undecided `&`) are decided with the head of the next,
    /// and the rest of that piece is scanned where it is. A CDATA section longer than the head
    /// keeps bytes held back across several heads.
    @Test("pieces longer than the repair's joined head give the same result as one piece")
    func longPieces() throws {
        let items = (0..<60).map { index in
            let cdata = String(repeating: "가나다 x&y ", count: index == 30 ? 900 : 12)
            return "<item><guid>g\(index)</guid><title>AT&T &amp; \(index)</title>"
                + "<description><![CDATA[<p>\(cdata)</p>]]></description>"
                + "<link>https://example.test/a?b=1&c=\(index)</link></item>\n"
        }
        let body = Array(rss(items.joined()).utf8)
        #expect(body.count > 4 * AmpersandRepair.joinedLength)
        let whole = try FeedParser.parse(body, url: feedURL)
        guard case .feed(let feed) = whole else {
            Issue.record("not a feed")
            return
        }
        #expect(feed.entries.count == 60)
        #expect(feed.entries[30].summary?.hasSuffix("가나다 x&y") == true)
        #expect(feed.entries[59].link == "https://example.test/a?b=1&c=59")
        let sizes = [AmpersandRepair.joinedLength - 1, AmpersandRepair.joinedLength + 1, 5_003, 9_001, 20_011]
        for size in sizes + (2..<9).map({ AmpersandRepair.joinedLength * 2 + $0 }) {
            #expect(try parseInPieces(body, size: size, chunkSize: size) == whole, "piece size \(size)")
        }
    }

    /// The encoding fallback looks at the chunk at hand (docs/feeds.md): a chunk of the body's
    /// own making, not the network's. Here an invalid byte comes before valid Hangul, which
    /// keeps the document UTF-8; a piece holding only the invalid byte had switched it to
    /// windows-1252, and the Hangul to mojibake (found by HomeFetch's fuzz target).
    @Test("a document parses the same however its body was cut into pieces")
    func piecesDoNotMatter() throws {
        let parts = rss("<item><guid>1</guid><title>|| 한국어 뉴스 한국어 뉴스</title></item>").split(separator: "||")
        let body = Array(parts[0].utf8) + [0xFF] + Array(parts[1].utf8)
        let whole = try FeedParser.parse(body, url: feedURL)
        guard case .feed(let feed) = whole else {
            Issue.record("not a feed")
            return
        }
        #expect(feed.entries.first?.title == "\u{FFFD} 한국어 뉴스 한국어 뉴스")
        for size in [1, 2, 3, 7, 64] {
            #expect(try parseInPieces(body, size: size) == whole, "piece size \(size)")
        }
    }

    @Test("a body whose first 4 KiB are whitespace is XML, read whole or in pieces")
    func sniffWindow() {
        let json = #"{"version":"https://jsonfeed.org/version/1.1"}"#
        let body = Array((String(repeating: " ", count: 5000) + json).utf8)
        func outcome(_ parse: () throws -> FeedDocument) -> String {
            do {
                return try parse().jsonString(pretty: false)
            } catch {
                return "\(error)"
            }
        }
        let whole = outcome { try FeedParser.parse(body, url: feedURL) }
        #expect(whole.contains("libxml2"), "\(whole)")
        #expect(outcome { try parseInPieces(body, size: 1000) } == whole)
    }

    /// The parser stages pieces into whole chunks: none is lost or parsed twice, however the
    /// pieces fall against the chunks.
    @Test(
        "pieces that do not fill the parser's chunks give what whole chunks give",
        arguments: ["rss2-korean.xml", "malformed-recoverable.xml", "euc-kr.xml"]
    )
    func staging(_ name: String) throws {
        let body = try Fixture.bytes(name)
        for chunkSize in [5, 64] {
            let whole = try parseInPieces(body, size: body.count, chunkSize: chunkSize)
            for size in [1, 3, 7, 64, 1000] {
                #expect(try parseInPieces(body, size: size, chunkSize: chunkSize) == whole, "\(size) in \(chunkSize)")
            }
        }
    }

    @Test("a JSON Feed behind a byte-order mark is JSON however the mark was cut")
    func byteOrderMarkInPieces() throws {
        let body = [0xEF, 0xBB, 0xBF] + Array(try Fixture.bytes("jsonfeed11.json"))
        let whole = try FeedParser.parse(body, url: feedURL)
        guard case .feed(let feed) = whole else {
            Issue.record("not a feed: \(whole)")
            return
        }
        #expect(feed.format == .jsonFeed11)
        for size in [1, 2] {
            #expect(try parseInPieces(body, size: size) == whole, "piece size \(size)")
        }
    }

    @Test("a small chunk size is honoured")
    func smallChunkSize() throws {
        let body = try Fixture.bytes("rss2-korean.xml")
        let whole = try FeedParser.parse(body, url: feedURL)
        #expect(try FeedParser.parse(body, url: feedURL, limits: FeedParseLimits(chunkSize: 7)) == whole)
    }
}
