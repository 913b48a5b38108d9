import Testing

@testable import HomeFeeds

/// Where titles, summaries and dates come from: block markup as word boundaries, Atom content
/// modes (base64, escaped, binary types), Atom 0.3 dates, and the Dublin Core fallbacks.
@Suite struct FieldSourceTests {
    static let dc = "xmlns:dc=\"http://purl.org/dc/elements/1.1/\" xmlns:dcterms=\"http://purl.org/dc/terms/\""

    static func rssItem(_ children: String) -> String {
        "<rss version=\"2.0\" \(dc) xmlns:content=\"http://purl.org/rss/1.0/modules/content/\"><channel><title>T</title>"
            + "<item>\(children)</item></channel></rss>"
    }

    static func atom03(_ children: String) -> String {
        "<feed version=\"0.3\" xmlns=\"http://purl.org/atom/ns#\"><title>T</title><entry><id>1</id>\(children)</entry></feed>"
    }

    // MARK: Word boundaries

    @Test(
        "block elements separate words, whether escaped, written as XML, or XHTML",
        arguments: [
            // Escaped HTML in RSS (read as HTML).
            rssItem("<guid>1</guid><description>&lt;p&gt;Para one.&lt;/p&gt;&lt;p&gt;Para two&lt;/p&gt;</description>"),
            // The same markup written as XML elements inside the description.
            rssItem("<guid>1</guid><description><p>Para one.</p><p>Para two</p></description>"),
            // Atom XHTML.
            atom(
                "<entry><id>1</id><summary type=\"xhtml\"><div xmlns=\"http://www.w3.org/1999/xhtml\">"
                    + "<p>Para one.</p><p>Para two</p></div></summary></entry>"
            ),
            // Line breaks, list items, headings and table cells.
            rssItem("<guid>1</guid><description><![CDATA[Para one.<br>Para two]]></description>"),
            rssItem(
                "<guid>1</guid><description><![CDATA[<ul><li>Para one.</li><li>Para two</li></ul>]]></description>"
            ),
            rssItem("<guid>1</guid><description><![CDATA[<h2>Para one.</h2>Para two]]></description>"),
            rssItem(
                "<guid>1</guid><description><![CDATA[<table><tr><td>Para one.</td><td>Para two</td></tr></table>]]></description>"
            ),
            rssItem(
                "<guid>1</guid><description><![CDATA[<section>Para one.</section><article>Para two</article>]]></description>"
            ),
        ]
    )
    func blockElements(_ document: String) throws {
        #expect(try parseFeed(document).entries.first?.summary == "Para one. Para two")
    }

    @Test(
        "script and style written as XML elements inside a field are dropped, as in escaped HTML",
        arguments: [
            rssItem("<guid>1</guid><description><style>p{}</style>Hi <b>there</b></description>"),
            rssItem("<guid>1</guid><description>Hi <SCRIPT>x<b>y</b></SCRIPT><b>there</b></description>"),
            rssItem("<guid>1</guid><description>&lt;style&gt;p{}&lt;/style&gt;Hi there</description>"),
            atom(
                "<entry><id>1</id><summary type=\"xhtml\"><div xmlns=\"http://www.w3.org/1999/xhtml\">"
                    + "<script>alert(1)</script>Hi <style>p{}</style>there</div></summary></entry>"
            ),
        ]
    )
    func scriptAndStyleElements(_ document: String) throws {
        #expect(try parseFeed(document).entries.first?.summary == "Hi there")
    }

    @Test("inline elements do not separate words, and titles follow the same rules")
    func inlineElements() throws {
        let feed = try parseFeed(
            Self.rssItem(
                "<guid>1</guid><title>in<b>line</b><br/>next</title><description>a<span>b</span></description>"
            )
        )
        #expect(feed.entries.first?.title == "inline next")
        #expect(feed.entries.first?.summary == "ab")
    }

    // MARK: Content modes

    @Test(
        "base64 content is decoded: Atom 0.3 mode, a ;base64 type, a binary Atom type",
        arguments: [
            // "Example <b>Atom</b>" in base64.
            atom03("<summary mode=\"base64\">RXhhbXBsZSA8Yj5BdG9tPC9iPg==</summary>"),
            atom03("<summary type=\"text/plain\" mode=\"base64\">\n  RXhhbXBsZSA8Yj5B\n  dG9tPC9iPg==\n</summary>"),
            atom("<entry><id>1</id><summary type=\"text/plain;base64\">RXhhbXBsZSA8Yj5BdG9tPC9iPg==</summary></entry>"),
            atom(
                "<entry><id>1</id><content type=\"application/octet-stream\">RXhhbXBsZSA8Yj5BdG9tPC9iPg==</content></entry>"
            ),
        ]
    )
    func base64Literal(_ document: String) throws {
        #expect(try parseFeed(document).entries.first?.summary == "Example <b>Atom</b>")
    }

    @Test("base64 HTML is read as HTML after decoding; escaped Atom 0.3 HTML too")
    func base64HTML() throws {
        // "<p>History of the &lt;blink&gt; tag</p>" in base64.
        let encoded = "PHA+SGlzdG9yeSBvZiB0aGUgJmx0O2JsaW5rJmd0OyB0YWc8L3A+"
        #expect(
            try parseFeed(Self.atom03("<title type=\"text/html\" mode=\"base64\">\(encoded)</title>")).entries.first?
                .title
                == "History of the <blink> tag"
        )
        #expect(
            try parseFeed(
                Self.atom03("<title type=\"text/html\" mode=\"escaped\">A &lt;b&gt;bold&lt;/b&gt; word</title>")
            )
            .entries.first?.title == "A bold word"
        )
    }

    @Test("base64 that does not decode, or decodes to no text, is dropped with a warning")
    func badBase64() throws {
        let feed = try parseFeed(Self.atom03("<summary mode=\"base64\">not*base64</summary><title>kept</title>"))
        #expect(feed.entries.first?.summary == nil)
        #expect(feed.entries.first?.title == "kept")
        #expect(feed.warnings.map(\.message) == ["base64 content that does not decode dropped"])
        // 0xFF 0xFE 0x00 is no text.
        let binary = try parseFeed(atom("<entry><id>1</id><content type=\"image/png\">//4A</content></entry>"))
        #expect(binary.entries.first?.summary == nil)
        #expect(binary.warnings.map(\.message) == ["base64 content that is not text dropped"])
    }

    // MARK: Dates

    @Test(
        "Atom 0.3 issued, created and modified are dates, ranked like published and updated",
        arguments: [
            ("<issued>2004-01-01T19:48:21Z</issued>", "2004-01-01T19:48:21Z"),
            ("<created>2004-01-02T00:00:00Z</created>", "2004-01-02T00:00:00Z"),
            ("<modified>2004-01-03T00:00:00Z</modified>", "2004-01-03T00:00:00Z"),
            // published/issued first, then created, then updated/modified, whatever the order.
            (
                "<modified>2004-01-03T00:00:00Z</modified><created>2004-01-02T00:00:00Z</created>",
                "2004-01-02T00:00:00Z"
            ),
            ("<modified>2004-01-03T00:00:00Z</modified><issued>2004-01-01T00:00:00Z</issued>", "2004-01-01T00:00:00Z"),
            // An invalid issued falls through to the next that parses.
            ("<issued>2004-13-01</issued><modified>2004-01-03T00:00:00Z</modified>", "2004-01-03T00:00:00Z"),
        ]
    )
    func atom03Dates(_ children: String, _ expected: String) throws {
        #expect(try parseFeed(Self.atom03("<title>t</title>" + children)).entries.first?.published?.rfc3339 == expected)
    }

    @Test(
        "Dublin Core dates: pubDate, dcterms:issued, dcterms:created, dc:date, dcterms:modified",
        arguments: [
            ("<dcterms:issued>2003-12-31T10:14:55Z</dcterms:issued>", "2003-12-31T10:14:55Z"),
            ("<dcterms:created>2003-12-30T00:00:00Z</dcterms:created>", "2003-12-30T00:00:00Z"),
            ("<dcterms:modified>2003-12-29T00:00:00Z</dcterms:modified>", "2003-12-29T00:00:00Z"),
            (
                "<dcterms:modified>2003-12-29T00:00:00Z</dcterms:modified><dc:date>2003-12-28T00:00:00Z</dc:date>"
                    + "<dcterms:created>2003-12-27T00:00:00Z</dcterms:created>", "2003-12-27T00:00:00Z"
            ),
            (
                "<dcterms:issued>2003-12-31T00:00:00Z</dcterms:issued><pubDate>Mon, 01 Dec 2003 00:00:00 GMT</pubDate>",
                "2003-12-01T00:00:00Z"
            ),
        ]
    )
    func dublinCoreDates(_ children: String, _ expected: String) throws {
        let feed = try parseFeed(Self.rssItem("<guid>1</guid><title>t</title>" + children))
        #expect(feed.entries.first?.published?.rfc3339 == expected)
    }

    // MARK: Titles and summaries

    @Test("dc:title and dc:description stand in for title and description, which win in any order")
    func dublinCoreText() throws {
        let fallback = try parseFeed(
            Self.rssItem("<guid>1</guid><dc:title>DC title</dc:title><dc:description>DC &lt;b&gt;text</dc:description>")
        )
        #expect(fallback.entries.first?.title == "DC title")
        // Like description, dc:description is HTML: the escaped tag is stripped.
        #expect(fallback.entries.first?.summary == "DC text")
        let both = try parseFeed(
            Self.rssItem(
                "<guid>1</guid><dc:title>DC</dc:title><title>RSS</title><dc:description>DC</dc:description>"
                    + "<description>RSS</description>"
            )
        )
        #expect(both.entries.first?.title == "RSS")
        #expect(both.entries.first?.summary == "RSS")
        // content:encoded comes after dc:description.
        let content = try parseFeed(
            Self.rssItem("<guid>1</guid><content:encoded>Content</content:encoded><dc:description>DC</dc:description>")
        )
        #expect(content.entries.first?.summary == "DC")
        // A channel's dc:title is the feed title when it has no title.
        let channel = try parseFeed(
            "<rss version=\"2.0\" \(Self.dc)><channel><dc:title>Channel</dc:title><item><guid>1</guid></item></channel></rss>"
        )
        #expect(channel.title == "Channel")
    }

    @Test("an empty title does not hide a dc:title")
    func emptyTitle() throws {
        let feed = try parseFeed(Self.rssItem("<guid>1</guid><title> </title><dc:title>DC</dc:title>"))
        #expect(feed.entries.first?.title == "DC")
    }
}
