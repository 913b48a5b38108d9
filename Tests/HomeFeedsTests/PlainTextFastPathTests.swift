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
    ]

    static let trickyInputs = [
        "가 나 다", "a b", " a b ", "a  b", "a \u{A0}b", "a\u{A0} b", "a b\u{3000}", "a \u{200B}b", "a \u{1}b",
        "a \tb", "a \r\nb", "a &amp; b", "a <p>b", "a < b", "a &nbsp; b", "e\u{301} e\u{301}", "😀 😀 ", "a \u{2003}",
        "x y z w", "\u{FFFD} \u{FFFD}", "a\n b", "a b\n", "가 <b>나</b> 다", "a \u{85}b", "a \u{E1}b",
    ]

    private static func bothPaths(_ input: String, _ mode: TextMode) -> (fast: String?, general: String?) {
        var fast = PlainText()
        var general = PlainText(usesFastPaths: false)
        return (fast.normalize(input, mode: mode), general.normalize(input, mode: mode))
    }

    @Test("tricky text: the fast path gives the general path's output", arguments: trickyInputs)
    func tricky(_ input: String) {
        for mode in [TextMode.html, .literal] {
            let (fast, general) = Self.bothPaths(input, mode)
            #expect(fast == general, "\(mode) \(input.debugDescription)")
        }
    }

    @Test("random mixes: the fast path gives the general path's output")
    func randomMixes() {
        // SplitMix64, seeded: the same 4 000 inputs on every run.
        var state: UInt64 = 0x5EED_0017
        func next(_ bound: Int) -> Int {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Int((z ^ (z >> 31)) % UInt64(bound))
        }
        var mismatches: [String] = []
        for _ in 0..<4_000 {
            let input = (0..<(1 + next(12))).map { _ in Self.pieces[next(Self.pieces.count)] }.joined()
            for mode in [TextMode.html, .literal] {
                let (fast, general) = Self.bothPaths(input, mode)
                if fast != general { mismatches.append("\(mode) \(input.debugDescription)") }
            }
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
        for mode in [TextMode.html, .literal] {
            var fast = PlainText()
            var general = PlainText(usesFastPaths: false)
            let results = bytes.withUnsafeBufferPointer {
                (fast.normalize($0, mode: mode), general.normalize($0, mode: mode))
            }
            #expect(results.0 == results.1, "\(mode) \(bytes)")
        }
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
