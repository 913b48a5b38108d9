import Testing

@testable import HomeFeeds

/// Encoding labels as the web reads them (WHATWG Encoding Standard), beyond the table via
/// glibc iconv, and which source of a label wins (RFC 7303 §3).
@Suite struct EncodingLabelTests {
    /// `<rss><channel><title>` + `titleBytes` + `</title>…`, declared in `encoding`.
    static func document(encoding: String?, titleBytes: [UInt8]) -> [UInt8] {
        let declaration = encoding.map { "<?xml version=\"1.0\" encoding=\"\($0)\"?>" } ?? ""
        return Array("\(declaration)<rss version=\"2.0\"><channel><title>".utf8) + titleBytes
            + Array("</title><item><guid>1</guid><title>x</title></item></channel></rss>".utf8)
    }

    struct LabelCase: Sendable, CustomTestStringConvertible {
        let label: String
        let bytes: [UInt8]
        let expected: String
        init(_ label: String, _ bytes: [UInt8], _ expected: String) {
            self.label = label
            self.bytes = bytes
            self.expected = expected
        }
        var testDescription: String { "\(label) \(bytes.map { String($0, radix: 16) }) → \(expected)" }
    }

    static let labels: [LabelCase] = [
        // euc-kr is windows-949: 똠 (U+B620) is 0x8C 0x63, outside KS X 1001, inside CP949.
        LabelCase("euc-kr", [0x8C, 0x63, 0x20, 0xC7, 0xD1], "똠 한"),
        LabelCase("ks_c_5601-1987", [0x8C, 0x63], "똠"),
        LabelCase("windows-949", [0x8C, 0x63], "똠"),
        // gb2312 is GBK (read as gb18030): 嗞 (U+55DE) is 0x86 0xEA, outside GB 2312.
        LabelCase("gb2312", [0x86, 0xEA], "嗞"),
        LabelCase("GBK", [0x86, 0xEA], "嗞"),
        // iso-8859-1, us-ascii and latin1 are windows-1252: 0x80 is €, 0x93/0x94 are curly quotes.
        LabelCase("iso-8859-1", [0x80, 0x20, 0x93, 0x61, 0x94], "€ “a”"),
        LabelCase("us-ascii", [0x63, 0x61, 0x66, 0xE9], "café"),
        LabelCase("Latin1", [0x80], "€"),
        LabelCase(" ISO-8859-1 ", [0xE9], "é"),  // trimmed and case-folded like the standard does
        LabelCase("x-mac-roman", [0x80], "Ä"),  // WHATWG alias of macintosh
        LabelCase("shift_jis", [0x82, 0xA0], "あ"),
        LabelCase("big5", [0xA4, 0x40], "一"),
        LabelCase("koi8-r", [0xC1], "а"),
        LabelCase("windows-1251", [0xC0], "А"),
        LabelCase("iso-8859-2", [0xA1], "Ą"),
        // `_` is `-`: these are the table's iso-8859-1, us-ascii and euc-kr.
        LabelCase("ISO8859_1", [0x93, 0x61, 0x94], "“a”"),
        LabelCase("iso_8859_1", [0x80], "€"),
        LabelCase("us_ascii", [0xE9], "é"),
        LabelCase("euc_kr", [0x8C, 0x63], "똠"),
        // glibc's other names for the encodings the table widens are read as the table reads
        // those: windows-1252, windows-1254 (0x80 is € there, a C1 control in ISO-8859-9),
        // windows-874 and windows-949.
        LabelCase("8859_1", [0x93], "“"),
        LabelCase("ANSI_X3.4-1986", [0xE9], "é"),
        LabelCase("cp367", [0x80], "€"),
        LabelCase("8859_9", [0x80], "€"),
        LabelCase("tis620", [0x80, 0xA1], "€ก"),
        LabelCase("euckr", [0x8C, 0x63], "똠"),
        // Bare code-page names are no WHATWG labels; iconv knows them: 0x80 is Ç in both.
        LabelCase("437", [0x80], "Ç"),
        LabelCase("850", [0x80], "Ç"),
        LabelCase("cp437", [0x80], "Ç"),
    ]

    @Test("labels name the encodings the web means", arguments: labels)
    func label(_ testCase: LabelCase) throws {
        let feed = try parseFeed(Self.document(encoding: testCase.label, titleBytes: testCase.bytes))
        #expect(feed.title == testCase.expected)
    }

    @Test("a code-page name is decoded as that code page, never silently as UTF-8")
    func codePagesAreNotUTF8() throws {
        // 0x80 0x81 in code page 850 is "Çü"; as UTF-8 they would be two invalid bytes.
        let feed = try parseFeed(Self.document(encoding: "850", titleBytes: [0x80, 0x81]))
        #expect(feed.title == "Çü")
        #expect(!feed.warnings.contains { $0.message.contains("UTF-8") })
    }

    @Test("EBCDIC documents are recognised by their first bytes and read in their declared code page")
    func ebcdic() throws {
        let feed = try parseFeed(try Fixture.bytes("cp037.xml"))
        #expect(feed.title == "Ø é")
    }

    @Test("the HTTP charset wins for text/*, application/xml and application/*+xml, not for other types")
    func httpCharsetScope() throws {
        // windows-1252 bytes declared as UTF-8: "é" is 0xE9.
        let body = Self.document(encoding: "utf-8", titleBytes: [0x63, 0x61, 0x66, 0xE9])
        for type in ["text/xml", "text/html", "application/xml", "application/rss+xml", "application/atom+xml"] {
            let feed = try parseFeed(body, contentType: "\(type); charset=windows-1252")
            #expect(feed.title == "café", "\(type)")
            #expect(feed.isWellFormed, "\(type)")
            #expect(feed.warnings.contains { $0.message.contains("overrides the declared encoding UTF-8") })
        }
        // For application/octet-stream the declaration decides: UTF-8, which falls back to
        // windows-1252 with a warning since the bytes are not UTF-8.
        let octets = try parseFeed(body, contentType: "application/octet-stream; charset=koi8-r")
        #expect(octets.title == "café")
        #expect(!octets.isWellFormed)
    }

    @Test("a declared encoding that cannot have produced the bytes is ignored with a warning")
    func mismatchedDeclaration() throws {
        let feed = try parseFeed(Self.document(encoding: "utf-16", titleBytes: Array("한국".utf8)))
        #expect(feed.title == "한국")
        #expect(
            feed.warnings.map(\.message) == [
                "declared encoding UTF-16LE does not match the document's first bytes; ignored"
            ]
        )
        #expect(feed.warnings.first?.line == 1)
    }

    @Test("an unknown label is reported and the document read as UTF-8")
    func unknownLabel() throws {
        let feed = try parseFeed(Self.document(encoding: "x-no-such-encoding", titleBytes: Array("한국".utf8)))
        #expect(feed.title == "한국")
        #expect(feed.warnings.contains { $0.message == "unknown declared encoding \"x-no-such-encoding\" ignored" })
        // UTF-7 would smuggle markup past filters; no browser decodes it.
        let utf7 = try parseFeed(Self.document(encoding: "utf-7", titleBytes: Array("a+AD4-b".utf8)))
        #expect(utf7.title == "a+AD4-b")
    }

    @Test("WHATWG's replacement encodings are refused with a clear error")
    func replacementEncoding() throws {
        let error = try #require(parseError(Self.document(encoding: "iso-2022-kr", titleBytes: Array("x".utf8))))
        #expect(error.kind == .unsupportedEncoding("replacement"))
        #expect(error.description.contains("replacement encoding"))
    }

    @Test(
        "label resolution",
        arguments: [
            ("utf8", "UTF-8"), ("unicode-1-1-utf-8", "UTF-8"), ("cseuckr", "EUC-KR"), ("x-gbk", "GBK"),
            ("ascii", "windows-1252"), ("tis-620", "windows-874"), ("sjis", "Shift_JIS"), ("ucs-2", "UTF-16LE"),
            ("utf-32", "UTF-32BE"), ("ibm037", "IBM037"), ("windows_1250", "windows-1250"),
            ("iso_8859-2", "ISO-8859-2"), ("ISO8859_1", "windows-1252"), ("us", "windows-1252"),
        ]
    )
    func resolution(_ label: String, _ name: String) {
        #expect(EncodingLabel.resolve(label)?.name == name)
    }

    @Test("labels that name nothing, or smuggle iconv options, resolve to nothing")
    func unresolvable() {
        for label in [
            "", "utf-7", "utf_7", "UTF_7-IMAP", "x-bogus", "utf-8//TRANSLIT", "latin1//IGNORE",
            String(repeating: "a", count: 60),
        ] {
            #expect(EncodingLabel.resolve(label) == nil, "\(label)")
        }
    }
}
