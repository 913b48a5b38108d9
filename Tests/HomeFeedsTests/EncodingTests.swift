import Foundation
import Testing

@testable import HomeFeeds

@Suite struct EncodingTests {
    static let koreanRSS = """
        <?xml version="1.0"?><rss version="2.0"><channel><title>한국어 제목 &amp; Café</title><link>https://example.test/</link>\
        <item><guid>1</guid><title>안녕</title></item></channel></rss>
        """

    static func utf16(_ text: String, littleEndian: Bool) -> [UInt8] {
        var bytes: [UInt8] = []
        for unit in text.utf16 {
            let high = UInt8(unit >> 8)
            let low = UInt8(unit & 0xFF)
            bytes += littleEndian ? [low, high] : [high, low]
        }
        return bytes
    }

    @Test(
        "declared single-byte and EUC-KR encodings",
        arguments: [
            ("euc-kr.xml", "한국어 EUC-KR 채널", "안녕하세요 & 반갑습니다"),
            ("windows-1252.xml", "“Smart” quotes — €5", "Café ™"),
            ("iso-8859-1.xml", "Grüße aus Köln", "¿Qué?"),
        ]
    )
    func declaredEncodings(_ name: String, _ title: String, _ entryTitle: String) throws {
        let feed = try parseFeed(try Fixture.bytes(name))
        #expect(feed.title == title)
        #expect(feed.entries.first?.title == entryTitle)
    }

    @Test("UTF-8, UTF-16LE and UTF-16BE with a byte-order mark")
    func byteOrderMarks() throws {
        let utf8 = [0xEF, 0xBB, 0xBF] + Array(Self.koreanRSS.utf8)
        let le: [UInt8] = [0xFF, 0xFE] + Self.utf16(Self.koreanRSS, littleEndian: true)
        let be: [UInt8] = [0xFE, 0xFF] + Self.utf16(Self.koreanRSS, littleEndian: false)
        for body in [utf8, le, be] {
            let feed = try parseFeed(body)
            #expect(feed.title == "한국어 제목 & Café")
            #expect(feed.entries.first?.title == "안녕")
        }
    }

    @Test("UTF-16 without a BOM, declared in the XML declaration")
    func utf16WithoutBOM() throws {
        let text = Self.koreanRSS.replacingOccurrences(
            of: "<?xml version=\"1.0\"?>",
            with: "<?xml version=\"1.0\" encoding=\"UTF-16\"?>"
        )
        let le = Self.utf16(text, littleEndian: true)
        #expect(try parseFeed(le).title == "한국어 제목 & Café")
    }

    @Test("the HTTP charset wins over the XML declaration")
    func httpCharsetWins() throws {
        // EUC-KR bytes that wrongly declare UTF-8.
        let body = try Fixture.bytes("euc-kr-labelled-utf8.xml")
        #expect(try parseFeed(body, contentType: "application/rss+xml; charset=\"EUC-KR\"").title == "한글")
        let latin1 = Array(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?><rss><channel><title>caf\u{e9}</title></channel></rss>".utf8
        )
        .map { $0 }
        #expect(try parseFeed(latin1, contentType: "text/xml; charset=iso-8859-1").title == "cafÃ©")
    }

    @Test("a byte-order mark wins over the HTTP charset")
    func bomWinsOverCharset() throws {
        let body = [0xEF, 0xBB, 0xBF] + Array(Self.koreanRSS.utf8)
        #expect(try parseFeed(body, contentType: "text/xml; charset=windows-1252").title == "한국어 제목 & Café")
    }

    @Test("an unknown HTTP charset is ignored")
    func unknownCharset() throws {
        #expect(try parseFeed(Self.koreanRSS, contentType: "text/xml; charset=x-no-such").title == "한국어 제목 & Café")
    }

    @Test(
        "invalid bytes never crash",
        arguments: [
            [UInt8]([0xFF, 0xFE, 0x3C]),
            Array("<rss><channel><title>".utf8) + [0xC3, 0x28, 0xA0, 0xA1, 0xF0, 0x28, 0x8C, 0xBC]
                + Array("</title></channel></rss>".utf8),
            Array("<?xml version=\"1.0\" encoding=\"EUC-KR\"?><rss><channel><title>".utf8) + [0xFF, 0xFF, 0xC7]
                + Array("</title></channel></rss>".utf8),
            Array("<?xml version=\"1.0\" encoding=\"no-such-encoding\"?><rss/>".utf8),
            [0x00, 0x00, 0x00, 0x3C, 0x00],
        ]
    )
    func invalidBytes(_ body: [UInt8]) {
        // Either result is acceptable; the process must survive and report clearly.
        do {
            _ = try FeedParser.parse(body, url: feedURL)
        } catch {
            #expect(!error.description.isEmpty)
        }
    }
}
