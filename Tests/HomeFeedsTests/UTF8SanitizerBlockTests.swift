import Testing

@testable import HomeFeeds

/// The sanitizer's 16-byte block path (`UTF8Sanitizer+Blocks.swift`) against hand-computed
/// expectations: a bad sequence at every offset of a block, after line feeds and multi-byte
/// text counted in bulk, and in any chunking.
@Suite struct UTF8SanitizerBlockTests {
    struct Result: Equatable {
        var output: [UInt8]
        var warnings: [FeedParseWarning]
        var emits = 0
    }

    static func sanitize(_ input: [UInt8], chunk: Int? = nil, mayFallBack: Bool = false) -> Result {
        var sanitizer = UTF8Sanitizer(.utf8(mayFallBack: mayFallBack))
        var log = WarningLog()
        var result = Result(output: [], warnings: [])
        let size = chunk ?? max(1, input.count)
        var offset = 0
        while offset < input.count {
            let end = min(offset + size, input.count)
            input[offset..<end].withUnsafeBytes { piece in
                sanitizer.process(piece, isFinal: end == input.count, warnings: &log) {
                    result.output += $0
                    result.emits += 1
                }
            }
            offset = end
        }
        result.warnings = log.kept
        return result
    }

    /// A bad piece, the bytes it is replaced by and one message per U+FFFD, each with the
    /// offset of its first byte inside the piece.
    struct BadPiece: Sendable, CustomTestStringConvertible {
        let bytes: [UInt8]
        let replaced: [(offset: Int, message: String)]
        var testDescription: String { bytes.map { String($0, radix: 16) }.joined(separator: " ") }
    }

    static let badPieces: [BadPiece] = [
        BadPiece(bytes: [0xFF], replaced: [(0, "invalid UTF-8 (0xFF) replaced by U+FFFD")]),
        BadPiece(bytes: [0x80], replaced: [(0, "invalid UTF-8 (0x80) replaced by U+FFFD")]),
        // C0 is never a lead; the 0x80 after it is then a stray continuation byte.
        BadPiece(
            bytes: [0xC0, 0x80],
            replaced: [(0, "invalid UTF-8 (0xC0) replaced by U+FFFD"), (1, "invalid UTF-8 (0x80) replaced by U+FFFD")]
        ),
        // A surrogate and an overlong 3-byte form: three maximal subparts each.
        BadPiece(
            bytes: [0xED, 0xA0, 0x80],
            replaced: [
                (0, "invalid UTF-8 (0xED) replaced by U+FFFD"), (1, "invalid UTF-8 (0xA0) replaced by U+FFFD"),
                (2, "invalid UTF-8 (0x80) replaced by U+FFFD"),
            ]
        ),
        BadPiece(
            bytes: [0xE0, 0x80, 0x80],
            replaced: [
                (0, "invalid UTF-8 (0xE0) replaced by U+FFFD"), (1, "invalid UTF-8 (0x80) replaced by U+FFFD"),
                (2, "invalid UTF-8 (0x80) replaced by U+FFFD"),
            ]
        ),
        BadPiece(
            bytes: [0xEF, 0xBF, 0xBE],
            replaced: [(0, "character U+FFFE is not allowed in XML; replaced by U+FFFD")]
        ),
        BadPiece(bytes: [0x01], replaced: [(0, "control character U+0001 is not allowed in XML; replaced by U+FFFD")]),
        BadPiece(bytes: [0x0B], replaced: [(0, "control character U+000B is not allowed in XML; replaced by U+FFFD")]),
        // A lead byte followed by ASCII, and a 4-byte start cut short by ASCII.
        BadPiece(bytes: [0xE1, 0x41], replaced: [(0, "invalid UTF-8 (0xE1) replaced by U+FFFD")]),
        BadPiece(bytes: [0xF0, 0x9F, 0x98], replaced: [(0, "invalid UTF-8 (0xF0 0x9F 0x98) replaced by U+FFFD")]),
        BadPiece(bytes: [0xC3], replaced: [(0, "invalid UTF-8 (0xC3) replaced by U+FFFD")]),
    ]

    /// Hangul, ASCII, Latin, CJK, line feeds, tab and CR: everything the block path takes.
    static let cleanText = Array("한국어 뉴스\n<p>é 中文 ab\tcd\r\n제목 &amp; 끝</p>\n".utf8)

    /// `offset` bytes of clean text (Hangul and ASCII, with a line feed when `withLines`),
    /// then `piece`, then clean text again.
    static func document(badAt offset: Int, _ piece: [UInt8], withLines: Bool) -> [UInt8] {
        var prefix: [UInt8] = withLines && offset >= 1 ? [0x0A] : []
        prefix += Array(repeating: UInt8(ascii: "a"), count: (offset - prefix.count) % 3)
        while prefix.count < offset { prefix += Array("한".utf8) }
        return prefix + piece + cleanText + cleanText
    }

    /// The expected warnings: line 1 + the line feeds before a replaced byte; column 1 + the
    /// bytes since the last line feed that are not continuation bytes (10xxxxxx). A warning
    /// equal to the one before it is not repeated (`WarningLog.add`): two stray continuation
    /// bytes in a row share their column and message.
    static func expectedWarnings(_ input: [UInt8], pieceAt start: Int, _ piece: BadPiece) -> [FeedParseWarning] {
        let all = piece.replaced.map { replaced in
            let position = start + replaced.offset
            let before = input[0..<position]
            let lineStart = (before.lastIndex(of: 0x0A) ?? -1) + 1
            return FeedParseWarning(
                line: 1 + before.filter { $0 == 0x0A }.count,
                column: 1 + input[lineStart..<position].filter { $0 & 0xC0 != 0x80 }.count,
                message: replaced.message
            )
        }
        return all.enumerated().filter { $0.offset == 0 || all[$0.offset - 1] != $0.element }.map(\.element)
    }

    @Test("a bad sequence at every offset of two 32-byte windows is found, placed and replaced", arguments: badPieces)
    func badSequenceAtEveryOffset(_ piece: BadPiece) {
        for withLines in [false, true] {
            for offset in 0..<66 {
                let input = Self.document(badAt: offset, piece.bytes, withLines: withLines)
                let got = Self.sanitize(input)
                #expect(
                    String(validating: got.output, as: UTF8.self) == InvalidBytesTests.reference(input),
                    "offset \(offset), lines \(withLines)"
                )
                #expect(
                    got.warnings == Self.expectedWarnings(input, pieceAt: offset, piece),
                    "offset \(offset), lines \(withLines)"
                )
            }
        }
    }

    @Test("chunk splits at and around block boundaries give the same bytes and positions")
    func chunkSplits() {
        // The same-chunk reference differs from split runs only in the message for a U+FFFE
        // cut by a chunk end, so the positions and the bytes are compared.
        for piece in Self.badPieces {
            for offset in [0, 1, 2, 13, 14, 15, 16, 17, 30, 31, 32, 33, 47, 48] {
                let input = Self.document(badAt: offset, piece.bytes, withLines: true)
                let whole = Self.sanitize(input)
                for chunk in [1, 2, 3, 15, 16, 17, 18, 31, 32, 33, 34, 48, 64] {
                    let split = Self.sanitize(input, chunk: chunk)
                    #expect(split.output == whole.output, "\(piece.testDescription) at \(offset), chunk \(chunk)")
                    #expect(
                        split.warnings.map { [$0.line, $0.column] } == whole.warnings.map { [$0.line, $0.column] },
                        "\(piece.testDescription) at \(offset), chunk \(chunk)"
                    )
                }
            }
        }
    }

    @Test("clean multi-byte text with line feeds is passed on uncopied, in one piece")
    func cleanInputIsNotCopied() {
        let input = Array(repeating: Self.cleanText, count: 40).flatMap { $0 }
        var sanitizer = UTF8Sanitizer(.utf8(mayFallBack: true))
        var log = WarningLog()
        var emitted: [UnsafeRawBufferPointer] = []
        input.withUnsafeBytes { raw in
            sanitizer.process(raw, isFinal: true, warnings: &log) { emitted.append($0) }
            #expect(emitted.count == 1)
            #expect(emitted.first?.baseAddress == raw.baseAddress)
            #expect(emitted.first?.count == input.count)
        }
        #expect(log.kept.isEmpty)
        #expect(!sanitizer.hasRecovered)
        // 40 copies of 3 line feeds each: the next warning would be on line 121.
        #expect(sanitizer.line == 121)
    }

    @Test("a lead byte cut off at the end of a block is no multi-byte character for the fallback rule")
    func cutLeadIsNoMultibyte() {
        // ASCII, then a lone 0xC3 (windows-1252 Ã) and ASCII: more invalid than valid
        // sequences and no valid multi-byte one before, so the document is windows-1252,
        // wherever the block boundaries fall.
        for position in 2..<80 {
            let input =
                Array(repeating: UInt8(ascii: "x"), count: position) + [0xC3]
                + Array(repeating: UInt8(ascii: "y"), count: 40)
            let got = Self.sanitize(input, mayFallBack: true)
            let expected = String(repeating: "x", count: position) + "Ã" + String(repeating: "y", count: 40)
            #expect(String(validating: got.output, as: UTF8.self) == expected, "0xC3 at \(position)")
            #expect(
                got.warnings == [
                    FeedParseWarning(
                        line: 1,
                        column: position + 1,
                        message: "not valid UTF-8 (first bad byte 0xC3); read as windows-1252"
                    )
                ],
                "0xC3 at \(position)"
            )
        }
        // After one valid multi-byte character in a block, the same byte is damage.
        let x20 = Array(repeating: UInt8(ascii: "x"), count: 20)
        let damaged = x20 + Array("한".utf8) + x20 + x20 + [0xC3] + Array("yy".utf8)
        let got = Self.sanitize(damaged, mayFallBack: true)
        let text = String(repeating: "x", count: 20)
        #expect(String(validating: got.output, as: UTF8.self) == text + "한" + text + text + "\u{FFFD}yy")
    }

    @Test("long mostly clean text agrees with the standard library's decoder in any chunking")
    func longDifferential() {
        var generator = InvalidBytesTests.Bytes(state: 0xB10C)
        for round in 0..<200 {
            var input: [UInt8] = []
            let length = 100 + round * 10
            while input.count < length {
                // Mostly clean runs, now and then one random piece (often a bad one).
                if Int.random(in: 0..<8, using: &generator) == 0 {
                    input += generator.text(length: 1)
                } else {
                    let start = Int.random(in: 0..<Self.cleanText.count, using: &generator)
                    input += Self.cleanText[start...].drop { $0 & 0xC0 == 0x80 }
                }
            }
            let chunk = 1 + Int.random(in: 0..<300, using: &generator)
            let got = Self.sanitize(input, chunk: chunk)
            #expect(
                String(validating: got.output, as: UTF8.self) == InvalidBytesTests.reference(input),
                "round \(round), chunk \(chunk)"
            )
        }
    }

    @Test("line feeds of long ASCII runs are all counted and the last one placed", arguments: [1, 31, 32, 33])
    func longASCIIRunsCountEveryLineFeed(lineLength: Int) {
        // 3 000 lines of `lineLength` - 1 letters and a line feed: with 1 the run is all line
        // feeds, two in every lane of each 32-byte pair, the most the per-lane count takes.
        // Then "ab", a lone 0xFF and "c": the warning is on line 1 + 3 000 = 3 001, column
        // 1 + 2 = 3 (the letters after the last line feed).
        let line = Array(repeating: UInt8(ascii: "x"), count: lineLength - 1) + [0x0A]
        let input = Array(repeating: line, count: 3_000).flatMap { $0 } + Array("ab".utf8) + [0xFF, UInt8(ascii: "c")]
        for chunk in [nil, 4_096, 65] {
            let got = Self.sanitize(input, chunk: chunk)
            #expect(
                got.warnings.map { [$0.line, $0.column] } == [[3_001, 3]],
                "line \(lineLength), chunk \(String(describing: chunk))"
            )
        }
    }
}
