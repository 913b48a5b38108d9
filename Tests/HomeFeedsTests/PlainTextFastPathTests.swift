import TestSupport
import Testing

@testable import HomeFeeds

/// `PlainText`'s fast paths (issue 17) must give exactly the general path's output: the same
/// inputs are normalised with them on and off and compared, over hand-picked tricky text and
/// over deterministic random mixes of the pieces that make a byte leave a fast path.
@Suite struct PlainTextFastPathTests {
    /// Pieces around which folding, stripping and decoding change: ASCII and Unicode spaces
    /// (NBSP, U+0085, U+1680, U+2003, U+202F, U+3000), runs of tabs/CR/LF, zero-width and
    /// control characters (not whitespace, kept), references, `<` in text and tags, Hangul,
    /// combining marks, astral characters and U+FFFD (what invalid UTF-8 became before this).
    static let pieces = [
        "a", "Z", "가", "힣", "e\u{301}", "\u{1100}\u{1161}", "😀", "\u{FFFD}", " ", "  ", "\t", "\r\n", "\n\n\t ",
        "\u{A0}", "\u{85}", "\u{1680}", "\u{2003}", "\u{202F}", "\u{3000}", "\u{2028}", "\u{200B}", "\u{FEFF}",
        "\u{1}", "\u{7F}", "\u{9F}", "&", "&amp;", "&nbsp;", "&#233;", "&#xA0;", "&#32;", "&eacute;", "&bogus;",
        "<", "< ", ">", "<p>", "</b>", "<br/>", "<a href=\"x y\">", "<!-- c -->", "<script>s</script>", "AT&T",
        "<P>", "</div>", "<h2>", "<STYLE>", "</style>", "<p", "</",
    ]

    static let trickyInputs = [
        "가 나 다", "a b", " a b ", "a  b", "a \u{A0}b", "a\u{A0} b", "a b\u{3000}", "a \u{200B}b", "a \u{1}b",
        "a \tb", "a \r\nb", "a &amp; b", "a <p>b", "a < b", "a &nbsp; b", "e\u{301} e\u{301}", "😀 😀 ", "a \u{2003}",
        "x y z w", "\u{FFFD} \u{FFFD}", "a\n b", "a b\n", "가 <b>나</b> 다", "a \u{85}b", "a \u{E1}b",
    ]

    /// The modes (of `modes`) in which the fast path's output differs from the general path's.
    private static func differingModes(_ input: String, _ modes: [TextMode] = [.html, .literal]) -> [TextMode] {
        modes.filter { mode in
            var fast = PlainText()
            var general = PlainText(usesFastPaths: false)
            return fast.normalize(input, mode: mode) != general.normalize(input, mode: mode)
        }
    }

    /// ``differingModes(_:_:)`` for bytes, which may be no valid UTF-8.
    private static func differingModes(_ input: [UInt8], _ modes: [TextMode] = [.html, .literal]) -> [TextMode] {
        modes.filter { mode in
            var fast = PlainText()
            var general = PlainText(usesFastPaths: false)
            let results = input.withUnsafeBufferPointer {
                (fast.normalize($0, mode: mode), general.normalize($0, mode: mode))
            }
            return results.0 != results.1
        }
    }

    @Test("tricky text: the fast path gives the general path's output", arguments: trickyInputs)
    func tricky(_ input: String) {
        for mode in Self.differingModes(input) {
            Issue.record("\(mode) \(input.debugDescription)")
        }
    }

    @Test("random mixes: the fast path gives the general path's output")
    func randomMixes() {
        // Seeded: the same 4 000 inputs on every run.
        var random = SeededRandom(seed: 0x5EED_0017)
        var mismatches: [String] = []
        for _ in 0..<4_000 {
            let input = (0..<(1 + random.next(below: 12))).map { _ in Self.pieces[random.next(below: Self.pieces.count)]
            }.joined()
            mismatches += Self.differingModes(input).map { "\($0) \(input.debugDescription)" }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
    }

    /// Bytes no Swift String holds: truncated three-byte characters before whitespace, markup
    /// and the end, which the character step must leave to the byte loop.
    @Test(
        "invalid UTF-8: the fast path gives the general path's output",
        arguments: [
            [0xEA, 0xB0, 0x20, 0x20, 0x61], [0xEA, 0x20, 0x20, 0x61], [0xEA, 0xB0, 0x3C, 0x62, 0x3E, 0x61],
            [0x61, 0x20, 0xED, 0x9E], [0xE4, 0xC2, 0xA0, 0x61], [0xEF, 0xBF, 0xBF, 0x20, 0x20], [0xEA, 0xB0, 0x80],
        ] as [[UInt8]]
    )
    func invalidUTF8(_ bytes: [UInt8]) {
        for mode in Self.differingModes(bytes) {
            Issue.record("\(mode) \(bytes)")
        }
    }

    /// `stopBytes` never misses a byte that ends a run, in any lane, beside any other byte
    /// (the borrow of one lane may only add marks above it): all 256 × 256 byte pairs in
    /// every pair of adjacent lanes of a word otherwise made of `a`.
    @Test("stopBytes marks every byte that ends a run, in every lane", arguments: [true, false])
    func stopBytesNeverMisses(isHTML: Bool) {
        // Ending a run: controls and space (00–20), C2, E1–E3, and for HTML `<` and `&`.
        func endsRun(_ byte: UInt64) -> Bool {
            byte <= 0x20 || byte == 0xC2 || (0xE1...0xE3).contains(byte) || (isHTML && (byte == 0x3C || byte == 0x26))
        }
        var misses: [String] = []
        let filler: UInt64 = 0x6161_6161_6161_6161  // "aaaaaaaa"
        for lane in 0..<7 {
            let shift = UInt64(lane * 8)
            for first in UInt64(0)...255 {
                for second in UInt64(0)...255 {
                    let word = filler & ~(0xFFFF << shift) | (first | second << 8) << shift
                    let stops = PlainText.stopBytes(word, isHTML: isHTML)
                    // A lane that ends the run, or a space before one (or before a space), is marked.
                    let firstStops = endsRun(first) && first != 0x20 || first == 0x20 && endsRun(second)
                    if firstStops && stops & (0x80 << shift) == 0 { misses.append("\(lane) \(first) \(second)") }
                    if endsRun(second) && second != 0x20 && stops & (0x80 << (shift + 8)) == 0 {
                        misses.append("\(lane + 1) \(second) after \(first)")
                    }
                }
            }
        }
        // A space last in the word, whose next byte the word does not hold, is marked too.
        #expect(PlainText.stopBytes(0x2061_6161_6161_6161, isHTML: isHTML) == 0x8000_0000_0000_0000)
        // And nothing in prose: "abb abcd" and "a 가가" (가 = EA B0 80), first byte lowest.
        #expect(PlainText.stopBytes(0x6463_6261_2062_6261, isHTML: isHTML) == 0)
        #expect(PlainText.stopBytes(0x80B0_EA80_B0EA_2061, isHTML: isHTML) == 0)
        #expect(misses.isEmpty, "\(misses.prefix(5))")
    }

    /// `firstStop` finds exactly the first lane the byte loop must see: all 256 × 256 byte pairs
    /// in every pair of adjacent lanes of a block otherwise made of `a`.
    @Test("firstStop finds the first byte that ends a run, in every lane", arguments: [true, false])
    func firstStopIsExact(isHTML: Bool) {
        // Ending a run: controls (00–1F), C2, E0–E3 (E0 taken along), and for HTML `<` and `&`;
        // a space before one of those, before a space, or last in the block.
        func ends(_ byte: UInt8) -> Bool {
            byte < 0x20 || byte == 0xC2 || (0xE0...0xE3).contains(byte) || (isHTML && (byte == 0x3C || byte == 0x26))
        }
        var misses: [String] = []
        for lane in 0..<15 {
            for first in UInt8(0)...255 {
                for second in UInt8(0)...255 {
                    var block = PlainText.Block(repeating: 0x61)
                    block[lane] = first
                    block[lane + 1] = second
                    let stops = (0..<16).filter { index in
                        let byte = block[index]
                        guard byte == 0x20 else { return ends(byte) }
                        return index == 15 || block[index + 1] == 0x20 || ends(block[index + 1])
                    }
                    let found = PlainText.firstStop(block, isHTML: isHTML)
                    if found != stops.first ?? 16 { misses.append("\(lane) \(first) \(second): \(found)") }
                }
            }
        }
        #expect(misses.isEmpty, "\(misses.prefix(5))")
    }

    /// Each byte the sixteen- and eight-byte steps must stop at (or may stop at and hand on),
    /// placed at every offset of ASCII and of Hangul text, so that it falls in every lane of a
    /// block and of a word, first and last included, and in the byte-by-byte tail. E1–E3 and C2 lead characters
    /// that are not spaces (U+1000, U+2010, U+3001, U+00E9) as well as ones that are.
    static let stopPieces = [
        " ", "  ", " !", "\t", "\n", "\u{1}", "<", "&", "&amp;", "<b>", "\u{A0}", "\u{85}", "\u{E9}", "\u{C3}",
        "\u{1680}", "\u{1000}", "\u{2003}", "\u{2010}", "\u{3000}", "\u{3001}", "\u{800}", "\u{4E00}", "!",
        "=", "'", "%", "\u{7F}", "😀",
    ]

    @Test(
        "a stop byte in every lane of the sixteen- and eight-byte steps",
        arguments: ["abcdefghijklmnopqrstuvw", "abcdefghijklmnopqrstuvwxyz0123456789ABCD", "가나 다라마 바사아자 차카"]
    )
    func stopByteInEveryLane(_ text: String) {
        var mismatches: [String] = []
        let characters = Array(text)
        for piece in Self.stopPieces {
            for offset in 0...characters.count {
                let input = String(characters[..<offset]) + piece + String(characters[offset...])
                mismatches += Self.differingModes(input).map { "\($0) \(input.debugDescription)" }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
    }

    /// Runs of 0–24 three-byte characters (and of the same with a space every 1–4 of them)
    /// between ASCII, spaces and markup: every length ends the eight-byte step in another lane.
    @Test("three-byte runs of every length")
    func threeByteRuns() {
        var mismatches: [String] = []
        for length in 0...24 {
            for wordLength in 1...5 {
                // wordLength 5: no spaces; otherwise a space after every `wordLength` syllables.
                let syllables = (0..<length).map { index in
                    let syllable = String(Unicode.Scalar(UInt32(0xAC00 + 37 * index)) ?? "가")
                    return wordLength < 5 && index > 0 && index % wordLength == 0 ? " " + syllable : syllable
                }.joined()
                for (before, after) in [("", ""), ("a", "b"), (" ", " "), ("<p>", "</p>"), ("x ", "\u{A0}y")] {
                    let input = before + syllables + after
                    mismatches += Self.differingModes(input).map { "\($0) \(input.debugDescription)" }
                }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
    }

    /// Hangul cut at every byte offset (the rest of the text dropped, or ASCII, a space or
    /// markup put after the cut): the eight-byte step and the character step must leave the
    /// broken character to the byte loop.
    @Test("a character cut at every offset")
    func cutCharacters() {
        var mismatches: [[UInt8]] = []
        let text = Array("가나다 라마바사 아자차카타 파하".utf8)
        for cut in 0...text.count {
            for tail in [[], [0x61, 0x62], [0x20, 0x61], [0x20, 0x20, 0x61], [0x3C, 0x62, 0x3E]] as [[UInt8]] {
                let bytes = Array(text[..<cut]) + tail + Array("가나다라".utf8)
                let truncated = Array(text[..<cut]) + tail
                for input in [bytes, truncated] {
                    for _ in Self.differingModes(input) { mismatches.append(input) }
                }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(3))")
    }

    /// Tags `skipSimpleTag` takes (`<p>`, `</P>`, `<h1>`, `<x9>`) beside ones it must leave to
    /// `skipMarkup` (opening script and style in any case, closing ones it may take, attributes,
    /// `<br/>`, `<1>`, `</ >`), cut at every byte (the rest dropped, or text after the cut): a
    /// tag missing its `>` or its name's end must go the general way.
    @Test("simple tags, cut at every offset")
    func simpleTagsCut() {
        let html = Array(
            "가<p>a</P>b<H1>c</h1>d<x9>e<SCRIPT>f</script>g<Style>h</STYLE>i<br>j<br/>k<b x>l<1>m</ >n</div>o<BLOCKQUOTE>p"
                .utf8
        )
        var mismatches: [String] = []
        for cut in 0...html.count {
            for tail in [[], [0x71], [0x20, 0x72], [0x3E, 0x73]] as [[UInt8]] {
                let input = Array(html[..<cut]) + tail
                if !Self.differingModes(input, [.html]).isEmpty {
                    mismatches.append(String(decoding: input, as: UTF8.self))
                }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(3))")
    }

    /// Inputs the fast path copies whole, with their outputs by the rules (§2 rule 3).
    @Test(
        "spaces inside a run are single U+0020s, next to other whitespace they fold",
        arguments: [
            ("가 나 다", "가 나 다"),
            ("a \u{A0}b", "a b"),  // space then NBSP: one space
            ("a \u{200B}b", "a \u{200B}b"),  // U+200B is not White_Space: kept
            ("a \u{1}b", "a \u{1}b"),  // a control character is kept, the space beside it too
            ("a b ", "a b"),  // the trailing space is trimmed, not copied with the run
        ]
    )
    func spacesInRuns(_ input: String, _ expected: String) {
        var plain = PlainText()
        #expect(plain.normalize(input, mode: .literal) == expected)
        #expect(plain.normalize(input, mode: .html) == expected)
    }
}
