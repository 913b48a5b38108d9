import TestSupport
import Testing

@testable import HomeFeeds

/// One bad byte never loses the rest of the document: invalid UTF-8 and characters XML
/// forbids become U+FFFD in place, a legacy document labelled UTF-8 is read as windows-1252,
/// and every substitution is a warning with its position.
@Suite struct InvalidBytesTests {
    @Test("an attribute value libxml2 hands over as invalid UTF-8 is repaired, not trusted")
    func invalidValueRepaired() {
        // What libxml2 2.9.14 handed over for the `version` of Fixtures/fuzz/crash-attribute-invalid-utf8:
        // text, a NUL and a lone lead byte.
        let value: [UInt8] = Array("2till ".utf8) + [0x00, 0xC3]
        let decoded = value.withUnsafeBufferPointer { XMLAttributes.decode($0) }
        #expect(Array(decoded.utf8) == Array("2till ".utf8) + [0x00, 0xEF, 0xBF, 0xBD])
        #expect(URIReference.trimASCIIAndNBSP(decoded) == "2till \u{0}\u{FFFD}")
    }

    @Test("text is trusted as UTF-8 only until the parse recovers from something; then it is checked")
    func textCheckedOnceRecovered() throws {
        // Parsed in one chunk of its own length: the parser decodes whole chunks only, and the
        // test reads the builder's state before the end of the body.
        func parsed(_ document: String) throws -> XMLPushParser {
            let bytes = Array(document.utf8)
            let builder = XMLFeedBuilder(documentURL: feedURL, limits: FeedParseLimits(), deadline: .now + .seconds(60))
            let parser = XMLPushParser(builder: builder, contentType: nil, chunkSize: bytes.count)
            try bytes.withUnsafeBytes { try parser.append($0) }
            return parser
        }
        let clean = try parsed("<rss version=\"2.0\"><channel><item><title>café</title>")
        let cleanIsTrusted = clean._builder.pointee.isTextTrusted
        #expect(cleanIsTrusted)
        // `&#0;` is an error libxml2 recovers from inside the field; its end tag, in the same
        // chunk, sets libxml2's own `wellFormed` back (`SAXRecorder`), which must not matter.
        let recovered = try parsed("<rss version=\"2.0\"><channel><item><title>a &#0; b</title>")
        let recoveredIsTrusted = recovered._builder.pointee.isTextTrusted
        #expect(!recoveredIsTrusted)

        // Untrusted, invalid bytes are repaired: what libxml2 handed over for the attribute
        // value of Fixtures/fuzz/crash-attribute-invalid-utf8, as if it were a field's text.
        let broken: [UInt8] = Array(" café ".utf8) + [0x00, 0xC3]
        for mode in [TextMode.html, .literal] {
            recovered._builder.pointee.text.removeAll()
            broken.withUnsafeBufferPointer { recovered._builder.pointee.text.append($0) }
            let plain = recovered._builder.pointee.capturedPlainText(mode)
            #expect(plain?.hasPrefix("café") == true && plain?.hasSuffix("\u{FFFD}") == true, "\(mode)")
        }
        let trimmed = recovered._builder.pointee.capturedTrimmed()
        #expect(trimmed == "café \u{0}\u{FFFD}")
    }

    @Test("an invalid byte inside CDATA becomes U+FFFD and every later item survives")
    func invalidByteInCDATA() throws {
        let body =
            Array("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<rss version=\"2.0\"><channel><title>한국</title>\n".utf8)
            + Array("<item><guid>1</guid><description><![CDATA[a".utf8) + [0xFF]
            + Array("b]]></description></item>\n".utf8)
            + Array(
                "<item><guid>2</guid><title>two</title></item>\n<item><guid>3</guid><title>three</title></item>".utf8
            )
            + Array("</channel></rss>".utf8)
        let feed = try parseFeed(body)
        #expect(feed.entries.map(\.id) == ["1", "2", "3"])
        #expect(feed.entries.first?.summary == "a\u{FFFD}b")
        #expect(!feed.isWellFormed)
        // Line 3, column 44: `<item>` 6 + `<guid>` 6 + `1` 1 + `</guid>` 7 + `<description>` 13
        // + `<![CDATA[` 9 + `a` 1 = 43 characters before the bad byte.
        #expect(
            feed.warnings == [FeedParseWarning(line: 3, column: 44, message: "invalid UTF-8 (0xFF) replaced by U+FFFD")]
        )
    }

    @Test("entities after an invalid byte in the same text node still decode")
    func entitiesAfterInvalidByte() throws {
        // A UTF-8 document (it has Hangul) with one Latin-1 byte: caf\xE9.
        let body =
            Array("<feed xmlns=\"http://www.w3.org/2005/Atom\"><title>한</title><entry><id>1</id><title>caf".utf8)
            + [0xE9] + Array(" &lt;p&gt; &amp; &eacute;</title></entry></feed>".utf8)
        let feed = try parseFeed(body)
        #expect(feed.entries.first?.title == "caf\u{FFFD} <p> & é")
    }

    @Test("controls XML forbids become U+FFFD, in text, CDATA and attributes; tab, LF and CR stay")
    func controlCharacters() throws {
        let feed = try parseFeed(
            rss(
                "<item><guid>1</guid><title>a\u{0C}b\u{01}c\td</title><description><![CDATA[x\u{00}y]]></description>"
                    + "<enclosure url=\"https://example.test/a\u{1B}b.mp3\"/></item><item><guid>2</guid></item>"
            )
        )
        #expect(feed.entries.map(\.id) == ["1", "2"])
        #expect(feed.entries.first?.title == "a\u{FFFD}b\u{FFFD}c d")
        #expect(feed.entries.first?.summary == "x\u{FFFD}y")
        // U+FFFD in a URL is percent-encoded as its UTF-8.
        #expect(feed.entries.first?.enclosures.first?.url == "https://example.test/a%EF%BF%BDb.mp3")
        #expect(feed.warnings.count == 4)
        #expect(feed.warnings.allSatisfy { $0.message.hasPrefix("control character U+00") })
    }

    @Test("U+FFFE and U+FFFF are not XML characters")
    func noncharacters() throws {
        let feed = try parseFeed(rss("<item><guid>1</guid><title>a\u{FFFE}b\u{FFFF}c</title></item>"))
        #expect(feed.entries.first?.title == "a\u{FFFD}b\u{FFFD}c")
    }

    @Test("a document declared UTF-8 that is windows-1252 is read as windows-1252, with a warning")
    func windows1252Fallback() throws {
        // "Olé “q” 5€" in windows-1252, declared UTF-8; nothing before it is non-ASCII.
        let title: [UInt8] = [0x4F, 0x6C, 0xE9, 0x20, 0x93, 0x71, 0x94, 0x20, 0x35, 0x80]
        let feed = try parseFeed(EncodingLabelTests.document(encoding: "UTF-8", titleBytes: title))
        #expect(feed.title == "Olé “q” 5€")
        #expect(!feed.isWellFormed)
        #expect(feed.warnings.map(\.message) == ["not valid UTF-8 (first bad byte 0xE9); read as windows-1252"])
        // Undeclared documents fall back the same way; a byte-order mark says UTF-8 for sure.
        #expect(try parseFeed(EncodingLabelTests.document(encoding: nil, titleBytes: title)).title == "Olé “q” 5€")
        let marked = try parseFeed([0xEF, 0xBB, 0xBF] + EncodingLabelTests.document(encoding: nil, titleBytes: title))
        #expect(marked.title == "Ol\u{FFFD} \u{FFFD}q\u{FFFD} 5\u{FFFD}")
    }

    @Test("a UTF-8 document with a few broken bytes keeps its text")
    func utf8WithBrokenBytes() throws {
        // Valid Hangul comes first, so the stray 0xE9 is damage, not an encoding.
        let title = Array("한국어 ".utf8) + [0xE9] + Array(" 제목".utf8)
        let feed = try parseFeed(EncodingLabelTests.document(encoding: "UTF-8", titleBytes: title))
        #expect(feed.title == "한국어 \u{FFFD} 제목")
        // Even when the bad byte comes first: more valid sequences than invalid ones follow.
        let first = [0xE9] + Array(" 한국어 제목 뉴스".utf8)
        #expect(
            try parseFeed(EncodingLabelTests.document(encoding: "UTF-8", titleBytes: first)).title
                == "\u{FFFD} 한국어 제목 뉴스"
        )
    }

    @Test("invalid bytes in a legacy encoding become U+FFFD and the rest is read")
    func invalidLegacyBytes() throws {
        // 0xFF is no EUC-KR lead byte; the 한 (0xC7 0xD1) after it still decodes.
        let feed = try parseFeed(EncodingLabelTests.document(encoding: "euc-kr", titleBytes: [0xFF, 0xC7, 0xD1]))
        #expect(feed.title == "\u{FFFD}한")
        #expect(feed.warnings.map(\.message) == ["bytes not valid in EUC-KR replaced by U+FFFD"])
        #expect(feed.entries.map(\.title) == ["x"])
    }

    @Test("a JSON Feed with invalid UTF-8 is read, with U+FFFD in place")
    func jsonFeed() throws {
        let body =
            Array(#"{"version": "https://jsonfeed.org/version/1.1", "title": "a"#.utf8) + [0xC3]
            + Array(#"b", "items": [{"id": "1", "title": "x"}]}"#.utf8)
        let feed = try parseFeed(body)
        #expect(feed.title == "a\u{FFFD}b")
        #expect(!feed.isWellFormed)
        #expect(feed.warnings.first?.message == "invalid UTF-8 (0xC3) replaced by U+FFFD")
    }

    @Test("a JSON Feed's unpaired surrogate escapes become U+FFFD, each with a warning where it was written")
    func jsonFeedUnpairedSurrogates() throws {
        let body = #"""
            {"version": "https://jsonfeed.org/version/1.1", "title": "cut \ud83d",
             "items": [{"id": "1", "title": "a\uD83D\u0041 \udc00 \ud83d\ude00"},
                       {"id": "2", "\ud800": "skipped", "x": ["\udfff"]}]}
            """#
        let feed = try parseFeed(body)
        #expect(feed.title == "cut \u{FFFD}")
        #expect(feed.entries.map(\.title) == ["a\u{FFFD}A \u{FFFD} 😀", nil])
        #expect(!feed.isWellFormed)
        #expect(
            feed.warnings.map(\.description) == [
                "1:63: unpaired surrogate \\ud83d replaced by U+FFFD",
                "2:35: unpaired surrogate \\uD83D replaced by U+FFFD",
                "2:48: unpaired surrogate \\udc00 replaced by U+FFFD",
                "3:25: unpaired surrogate \\ud800 replaced by U+FFFD",
                "3:52: unpaired surrogate \\udfff replaced by U+FFFD",
            ]
        )
    }

    @Test("a JSON Feed's strings carry no character XML cannot: C0 controls and U+FFFE/FFFF become U+FFFD")
    func jsonFeedControls() throws {
        let feed = try parseFeed(
            #"{"version": "https://jsonfeed.org/version/1.1", "title": "nul \u0000 bel \u0007 tab\tx \uFFFE","#
                + #" "items": [{"id": "a\u0001", "title": "t", "content_html": "<p>\u001f&#0;&#x1;</p>"}, "#
                + #"{"id": "b", "summary": "esc \uffff ok"}]}"#
        )
        #expect(feed.title == "nul \u{FFFD} bel \u{FFFD} tab x \u{FFFD}")
        #expect(feed.entries.map(\.id) == ["a\u{FFFD}", "b"])
        #expect(feed.entries.map(\.summary) == ["\u{FFFD}\u{FFFD}\u{FFFD}", "esc \u{FFFD} ok"])
        // Escapes are well-formed JSON: warnings, no recovery.
        #expect(feed.isWellFormed)
        #expect(
            feed.warnings.map(\.description) == [
                "1:58: character U+0000 in a string replaced by U+FFFD",
                "1:114: character U+0001 in a string replaced by U+FFFD",
                "1:155: character U+001F in a string replaced by U+FFFD",
                "1:205: character U+FFFF in a string replaced by U+FFFD",
            ]
        )
    }

    @Test("the same bad bytes give the same result whatever the chunking")
    func chunking() throws {
        let body =
            Array("<rss version=\"2.0\"><channel><title>한국 ".utf8) + [0xE9, 0x80, 0xED, 0xA0, 0x80, 0xF0, 0x9F]
            + Array(" 😀 끝</title><item><guid>1</guid><description><![CDATA[".utf8) + [0xC3]
            + Array("]]></description></item></channel></rss>".utf8)
        let feed = try parseFeed(body)
        let whole = FeedDocument.feed(feed)
        // 0xE9 0x80 (a cut 3-byte sequence), 0xED 0xA0 0x80 (a surrogate: three subparts), 0xF0 0x9F (cut).
        #expect(feed.title == "한국 \u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD} 😀 끝")
        for size in 1...9 {
            let got = try parseInPieces(body, size: size, chunkSize: size)
            #expect(
                got == whole,
                "chunk size \(size): \(got.jsonString(pretty: false)) vs \(whole.jsonString(pretty: false))"
            )
        }
    }

    /// A deterministic generator of byte strings that mix ASCII, Hangul, 2- and 4-byte
    /// characters, controls, and every kind of ill-formed sequence.
    struct Bytes: RandomNumberGenerator {
        var random: SeededRandom

        init(state: UInt64) {
            random = SeededRandom(seed: state)
        }

        mutating func next() -> UInt64 { random.next() }

        mutating func text(length: Int) -> [UInt8] {
            let pieces: [[UInt8]] = [
                Array("a".utf8), Array(" ".utf8), Array("\n".utf8), Array("한".utf8), Array("é".utf8),
                Array("😀".utf8), Array("中".utf8), Array("\u{D7FF}".utf8), Array("\u{E000}".utf8), [0x01], [0x80],
                [0xC0, 0x80], [0xC3], [0xE0, 0x80, 0x80], [0xED, 0xA0, 0x80], [0xEF, 0xBF, 0xBE],
                [0xF4, 0x90, 0x80, 0x80],
                [0xF0, 0x9F, 0x98], [0xFF], [0xE1, 0x41], Array("<".utf8),
            ]
            var out: [UInt8] = []
            while out.count < length { out += pieces[Int.random(in: 0..<pieces.count, using: &self)] }
            return out
        }
    }

    /// The reference: the standard library's decoder (one U+FFFD per maximal subpart, the
    /// same Unicode rule), then the characters XML forbids replaced too.
    static func reference(_ bytes: [UInt8]) -> String {
        var out = String.UnicodeScalarView()
        for scalar in String(decoding: bytes, as: UTF8.self).unicodeScalars {
            let isForbidden =
                (scalar.value < 0x20 && scalar != "\t" && scalar != "\n" && scalar != "\r") || scalar.value == 0xFFFE
                || scalar.value == 0xFFFF
            out.append(isForbidden ? "\u{FFFD}" : scalar)
        }
        return String(out)
    }

    @Test("the sanitizer agrees with the standard library's decoder on random bytes, in any chunking")
    func differential() {
        var generator = Bytes(state: 0x5EED)
        for round in 0..<300 {
            let input = generator.text(length: 20 + round % 200)
            let chunk = 1 + Int.random(in: 0..<40, using: &generator)
            var sanitizer = UTF8Sanitizer(.utf8(mayFallBack: false))
            var log = WarningLog()
            var output: [UInt8] = []
            var offset = 0
            while offset < input.count {
                let end = min(offset + chunk, input.count)
                input[offset..<end].withUnsafeBytes { piece in
                    sanitizer.process(piece, isFinal: false, warnings: &log) { output += $0 }
                }
                offset = end
            }
            sanitizer.process(UnsafeRawBufferPointer(start: nil, count: 0), isFinal: true, warnings: &log) {
                output += $0
            }
            #expect(
                String(validating: output, as: UTF8.self) == Self.reference(input),
                "round \(round), chunk \(chunk)"
            )
        }
    }
}
