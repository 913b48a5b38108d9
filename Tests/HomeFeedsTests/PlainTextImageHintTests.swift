import TestSupport
import Testing

@testable import HomeFeeds

/// `PlainText.mayHoldImageTag` lets the XML builder skip `HTMLImageScanner`'s scan of a summary
/// (issue 17), so it must never be false where that scan finds an image: checked over images in
/// tags, comments, attribute values, raw-text elements and broken characters, cut at every byte
/// and mixed at random.
@Suite struct PlainTextImageHintTests {
    /// Whether the hint lets the scan be skipped although the scan finds an image.
    private static func missesImage(_ bytes: [UInt8]) -> Bool {
        var plain = PlainText()
        return bytes.withUnsafeBufferPointer { html in
            _ = plain.normalize(html, mode: .html, isValidUTF8: false)
            return !plain.mayHoldImageTag && HTMLImageScanner.firstImage(in: html) != nil
        }
    }

    static let pieces = [
        "가나", "a b", "<p>", "</p>", "<b>", "</B>", "<br/>", "&amp;", "&", "<", "< ", "</ ", ">", "\"",
        "<a href=\"https://example.test/x?a=1&b=2\">", "</a>", "<img src=\"i.png\">", "<IMG SRC=i.png>",
        "<img/src=i.png>", "<img>", "<imgx src=i.png>", "<!-- <img src=c.png> -->", "<!DOCTYPE <img src=d.png>>",
        "<?pi <img src=p.png>?>", "<a title=\"<img src=t.png>\">", "<a title='x'<img src=u.png>>",
        "<script><img src=s.png></script>", "<style>x</style>", "<p", "<img", " src=v.png>",
    ]

    @Test("never false where the image scan finds an image: every piece cut at every byte")
    func piecesCut() {
        var misses: [String] = []
        for piece in Self.pieces {
            let bytes = Array(("x " + piece + " <img src=\"z.png\"> y").utf8)
            for cut in 0...bytes.count {
                for input in [Array(bytes[..<cut]), Array(bytes[cut...]), Array(bytes[..<cut]) + Array(piece.utf8)] {
                    if Self.missesImage(input) { misses.append(String(decoding: input, as: UTF8.self)) }
                }
            }
        }
        #expect(misses.isEmpty, "\(misses.prefix(3))")
    }

    @Test("never false where the image scan finds an image: random mixes")
    func randomMixes() {
        // Seeded: the same 4 000 inputs on every run.
        var random = SeededRandom(seed: 0x1A6E_0017)
        var misses: [String] = []
        var found = 0
        for _ in 0..<4_000 {
            let input = Array(
                (0..<(1 + random.next(below: 8))).map { _ in Self.pieces[random.next(below: Self.pieces.count)] }
                    .joined().utf8
            )
            if input.withUnsafeBufferPointer({ HTMLImageScanner.firstImage(in: $0) }) != nil { found += 1 }
            if Self.missesImage(input) { misses.append(String(decoding: input, as: UTF8.self)) }
        }
        // The mixes do hold images the scan finds (or the test would prove nothing).
        #expect(found > 1_000)
        #expect(misses.isEmpty, "\(misses.prefix(3))")
    }

    /// A broken character (base64-decoded text is not checked) swallowing the `<` of an image.
    @Test("a `<` inside a broken character")
    func brokenCharacter() {
        for lead: UInt8 in [0xC3, 0xE2, 0xEA, 0xF0] {
            let input = [0x61, lead] + Array("<img src=b.png>".utf8)
            #expect(!Self.missesImage(input), "\(lead)")
            #expect(!Self.missesImage([0x61, lead, 0x80] + Array("<img src=b.png>".utf8)), "\(lead)")
        }
    }

    /// The point of the hint: ordinary summary HTML needs no second scan.
    @Test(
        "false for HTML without images",
        arguments: [
            "<p>가나 다라</p><p><b>마바</b> &amp; <a href=\"https://example.test/x?a=1&b=2\">링크</a> 사아</p>",
            "a < b", "x </ y", "<P>text</P><BR/><imgx>", "",
        ]
    )
    func ordinaryHTML(_ html: String) {
        var plain = PlainText()
        _ = plain.normalize(html, mode: .html)
        let mayHoldImageTag = plain.mayHoldImageTag
        #expect(!mayHoldImageTag)
    }
}
