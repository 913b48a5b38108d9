import Testing

@testable import HomeFeeds

struct TextCase: Sendable, CustomTestStringConvertible {
    let input: String
    let isHTML: Bool
    let expected: String?
    init(_ input: String, html: Bool = true, _ expected: String?) {
        self.input = input
        self.isHTML = html
        self.expected = expected
    }
    var testDescription: String { "\(isHTML ? "html" : "text") \"\(input)\"" }
}

@Suite struct PlainTextTests {
    static let cases: [TextCase] = [
        // Rule 1: strip tags, then decode entities exactly once.
        TextCase("<p>Hello <b>World</b></p>", "Hello World"),
        TextCase("Tom &amp;amp; Jerry", "Tom &amp; Jerry"),
        TextCase("&lt;b&gt;not a tag&lt;/b&gt;", "<b>not a tag</b>"),
        TextCase("a<script>alert('<p>x</p>')</script>b", "ab"),
        TextCase("a<SCRIPT type=\"x\">x</SCRIPT >b", "ab"),
        TextCase("a<style>p { color: red }</style>b", "ab"),
        TextCase("a<!-- comment <p> -->b", "ab"),
        TextCase("one<br>two<br/>three", "one two three"),
        TextCase("<li>a</li><li>b</li>", "a b"),
        TextCase("<h1>제목</h1><p>본문</p>", "제목 본문"),
        TextCase("<table><tr><td>1</td><td>2</td></tr></table>", "1 2"),
        TextCase("in<span>line</span>", "inline"),
        TextCase("<a href=\"x?a=1&b=2\" title='a > b'>link</a>", "link"),
        TextCase("1 < 2 and 3 > 2", "1 < 2 and 3 > 2"),
        TextCase("x <unterminated", "x"),
        TextCase("&eacute;&nbsp;&#233;&#xE9;&#XE9;", "é ééé"),
        TextCase("&#128512; &#x1F600;", "😀 😀"),
        TextCase("&#150;", "–"),  // windows-1252 remap of C1 controls
        TextCase("&#0; &#xD800; &#x110000;", "\u{FFFD} \u{FFFD} \u{FFFD}"),
        // What XML cannot carry is no title's either: C0 controls but tab, LF and CR; U+FFFE/FFFF.
        TextCase("a&#7;b&#x1F;c&#11;d&#xFFFE;e&#65535;f", "a\u{FFFD}b\u{FFFD}c\u{FFFD}d\u{FFFD}e\u{FFFD}f"),
        TextCase("a&#9;b&#10;c&#13;d", "a b c d"),
        TextCase("AT&T & co &unknown; &amp", "AT&T & co &unknown; &amp"),
        TextCase("&NotNestedGreaterGreater;", "\u{2AA2}\u{0338}"),
        // The common references (decoded without the table) match the table exactly: the
        // names are case-sensitive, and only AMP, LT, GT and QUOT also exist in capitals.
        TextCase("&quot;&apos;&lt;&gt;&amp;", "\"'<>&"),
        TextCase("&QUOT;&AMP;&LT;&GT;", "\"&<>"),
        TextCase("&Amp; &APOS; &NBSP;", "&Amp; &APOS; &NBSP;"),
        TextCase("&Lt;&Gt;", "\u{226A}\u{226B}"),  // HTML5's much less/greater-than, not < and >
        TextCase("a &nbsp; b&nbsp;", "a b"),
        // Rule 3: whitespace, NBSP, trimming, empty → nil.
        TextCase("  a \n\t b  ", "a b"),
        TextCase("a\u{A0}\u{A0}b", "a b"),
        TextCase("a&nbsp;&nbsp;b", "a b"),
        TextCase("가\u{3000}나\u{2003}다", "가 나 다"),
        TextCase("   ", nil),
        TextCase("", nil),
        TextCase("<p> </p><br>", nil),
        TextCase("&nbsp;", nil),
        // Rule 2: literal text is neither stripped nor decoded.
        TextCase("<b>bold</b> &amp; more", html: false, "<b>bold</b> &amp; more"),
        TextCase("  spaced \n out  ", html: false, "spaced out"),
        TextCase("\u{A0}", html: false, nil),
    ]

    @Test("normalises plain text", arguments: cases)
    func normalises(_ testCase: TextCase) {
        var plain = PlainText()
        #expect(plain.normalize(testCase.input, mode: testCase.isHTML ? .html : .literal) == testCase.expected)
    }

    @Test("RSS titles are HTML after XML parsing; entities are decoded once overall")
    func rssTitleIsHTML() throws {
        let feed = try parseFeed(
            rss(
                """
                <item><guid>1</guid><title>&lt;b&gt;Bold&lt;/b&gt; &amp;amp; &amp;lt;tag&amp;gt;</title></item>
                <item><guid>2</guid><title><![CDATA[<i>CDATA</i> &amp; more]]></title></item>
                <item><guid>3</guid><title>Hello&nbsp;World &amp; Caf&eacute; &eacute;</title></item>
                """
            )
        )
        #expect(feed.entries.map(\.title) == ["Bold & <tag>", "CDATA & more", "Hello World & Café é"])
    }

    @Test("Atom text constructs: text literal, html stripped, xhtml text content")
    func atomTypes() throws {
        let feed = try parseFeed(
            atom(
                """
                <entry><id>1</id><title>a &lt;b&gt; &amp;amp;</title></entry>
                <entry><id>2</id><title type="text">a &lt;b&gt;</title></entry>
                <entry><id>3</id><title type="html">a &lt;b&gt;bold&lt;/b&gt; &amp;amp;</title></entry>
                <entry><id>4</id><title type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml">x <b>y</b> &amp;amp;</div></title></entry>
                <entry><id>5</id><summary type="html">&lt;p&gt;s&lt;/p&gt;</summary><content type="html">c</content></entry>
                <entry><id>6</id><content type="text/html">&lt;p&gt;c&lt;/p&gt;</content></entry>
                <entry><id>7</id><content type="image/png">iVBORw0KGgo=</content></entry>
                <entry><id>8</id><content src="https://example.test/c"/><summary>  </summary></entry>
                """
            )
        )
        #expect(feed.entries.map(\.title) == ["a <b> &amp;", "a <b>", "a bold &", "x y &amp;", nil, nil, nil, nil])
        #expect(feed.entries.map(\.summary) == [nil, nil, nil, nil, "s", "c", nil, nil])
    }

    @Test("summary source: RSS description, else content:encoded")
    func rssSummarySource() throws {
        let feed = try parseFeed(
            rss(
                """
                <item><guid>1</guid><description>d</description><content:encoded>c</content:encoded></item>
                <item><guid>2</guid><content:encoded><![CDATA[<p>only content</p>]]></content:encoded></item>
                <item><guid>3</guid><description> </description><content:encoded>fallback</content:encoded></item>
                """
            )
        )
        #expect(feed.entries.map(\.summary) == ["d", "only content", "fallback"])
    }

    @Test("titles are never invented from bodies or links")
    func noInventedTitles() throws {
        let feed = try parseFeed(rss("<item><link>https://example.test/x</link><description>body</description></item>"))
        #expect(feed.entries.first?.title == nil)
    }

    @Test("text from elsewhere is folded as feed text is, and nothing else is read")
    func foldedText() {
        #expect(FoldedText.of(" a\n\nb\r\n\u{2028}c\u{2029}\td\u{A0}e\u{3000} ") == "a b c d e")
        // Literal: markup and references are text.
        #expect(FoldedText.of("<b>Tom</b> &amp;\nJerry") == "<b>Tom</b> &amp; Jerry")
        #expect(FoldedText.of(" \n\u{2029}\u{85} ") == nil)
        #expect(FoldedText.of("") == nil)
    }
}
