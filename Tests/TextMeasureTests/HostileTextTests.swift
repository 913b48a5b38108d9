import Foundation
import TestSupport
import Testing
import TextMeasure

/// Text no title should hold still measures, within bounds, without a crash: the input is
/// capped at ``TextMeasurer/Limits/maxTextBytes`` (TextInput.swift) before Pango sees it.
@Suite(.enabled(if: TextHost.hasFonts, "needs fonts-nanum and fonts-dejavu-core"))
struct HostileTextTests {
    static let style = TextStyle(font: "NanumGothic 17")

    static let cases: [(String, String)] = [
        ("100 000 characters", String(repeating: "가나다라 abc ", count: 10_000)),
        ("control characters", "\u{1}\u{7}\u{8}\t\u{1B}[31mred\u{7F}\u{85}\u{9B}\u{0}end\r\n\u{2028}next\u{FEFF}"),
        ("combining marks without a base", "\u{301}\u{302}\u{303}" + String(repeating: "\u{0308}", count: 5_000)),
        ("only zero-width joiners", String(repeating: "\u{200D}", count: 3_000)),
        (
            "right-to-left overrides",
            "\u{202E}abc\u{202D}가나\u{2066}def\u{2069}" + String(repeating: "\u{202E}", count: 500)
        ),
    ]

    @Test("hostile text measures without a crash", arguments: cases.map(\.0))
    func hostile(_ name: String) throws {
        let text = try #require(Self.cases.first { $0.0 == name }?.1)
        for width in [1.0, 120, 335] {
            let metrics = try TextHost.measurer.measure(text, style: Self.style, width: width)
            #expect(metrics.height.isFinite)
            #expect(metrics.height >= 0)
            #expect(metrics.lines >= 1)
        }
    }

    @Test(
        "max-lines caps text of many lines: its breaks are measured as spaces",
        arguments: ["\n", "\r", "\r\n", "\u{2028}", "\u{2029}"]
    )
    func manyLines(_ separator: String) throws {
        // Pango caps the lines of each paragraph, and LF, CR and U+2029 start a paragraph.
        let style = TextStyle(font: "NanumGothic 17", maxLines: 2)
        let metrics = try TextHost.measurer.measure(
            String(repeating: "x" + separator, count: 500),
            style: style,
            width: 335
        )
        let spaced = try TextHost.measurer.measure(String(repeating: "x ", count: 500), style: style, width: 335)
        #expect(metrics.lines == 2)
        #expect(metrics.isTruncated)
        #expect(metrics.height == spaced.height)
    }

    @Test("a 100 000-character title is measured up to the cap, in bounded CPU time")
    func long() throws {
        let text = String(repeating: "가나다라 abc ", count: 10_000)
        #expect(text.utf8.count == 170_000)
        // 333 points: a width no other test measures this text at, so the shared measurer's
        // cache cannot answer and the CPU bound sees a real layout. The synchronous measure runs
        // on this thread, so its CPU time is this thread's.
        let before = threadCPUSeconds()
        let metrics = try TextHost.measurer.measure(text, style: Self.style, width: 333)
        let spent = threadCPUSeconds() - before
        #expect(metrics.isTruncated)
        // "가나다라 abc " is 4 × 3 + 5 = 17 bytes: 4 096 bytes hold 240 repetitions (and a part),
        // some tens of lines at 333 points, never the hundreds of all 10 000 repetitions.
        #expect(metrics.lines < 200)
        // Measuring 4 KiB takes milliseconds; a second of CPU would mean the cap did not hold
        // (laying out all 170 000 bytes takes far longer).
        #expect(spent < 1.0)
        let capped = try TextHost.measurer.measure(
            text,
            style: TextStyle(font: "NanumGothic 17", maxLines: 3),
            width: 335
        )
        #expect(capped.lines == 3)
        #expect(capped.isTruncated)
    }

    @Test("a word of 4 096 characters is laid out in few lines, in bounded CPU time")
    func longWord() throws {
        // Pango scans the rest of a word again for every line it breaks in it: at 5 points this
        // word took 1.5 to 2.9 s of CPU for its 4 095 lines, each scanning up to 4 096
        // characters. Laid out in maxLongWordScan / 4 096 = 24 lines it takes tens of ms; 0.5 s
        // leaves room for a loaded machine. Width 5 and this font: no other test measures this
        // text so (the shared measurer's cache would answer).
        let word = String(repeating: "i", count: 4_096)
        let before = threadCPUSeconds()
        let metrics = try TextHost.measurer.measure(word, style: TextStyle(font: "DejaVu Sans 17"), width: 5)
        let spent = threadCPUSeconds() - before
        #expect(metrics.lines == TextMeasurer.Limits.maxLongWordScan / 4_096)
        #expect(metrics.isTruncated)
        #expect(spent < 0.5, "\(spent) s of CPU")
    }

    @Test("a letter under 2 047 combining marks measures as under the 30 that are kept")
    func stackedMarks() throws {
        // Pango's shaping of one cluster grows with the square of its marks: 45 to 75 ms of CPU
        // for these, where 30 take well under a millisecond. Marks take no room: the lines and
        // the height are the same.
        let style = TextStyle(font: "DejaVu Sans 15")
        for mark in ["\u{301}", "\u{64E}"] {
            let kept = try TextHost.measurer.measure("a" + String(repeating: mark, count: 30), style: style, width: 1)
            let stacked = try TextHost.measurer.measure(
                "a" + String(repeating: mark, count: 2_047),
                style: style,
                width: 1
            )
            #expect(stacked == kept)
            #expect(stacked.lines == 1)
        }
    }

    @Test("text of more lines than the limits is measured at the limit's lines and truncated")
    func lineLimits() throws {
        let style = TextStyle(font: "DejaVu Sans 13")
        let line = try TextHost.measurer.measure("i", style: style, width: 1)
        // "i " 2 048 times: 4 096 lines at 1 point laid out whole (the "i" and the space each).
        let words = try TextHost.measurer.measure(String(repeating: "i ", count: 2_048), style: style, width: 1)
        #expect(words.lines == TextMeasurer.Limits.maxLaidOutLines)
        #expect(words.isTruncated)
        #expect(words.height == Double(TextMeasurer.Limits.maxLaidOutLines) * line.height)
        // A word of 1 000 characters: 1 000 lines whole, 100 000 / 1 000 at most.
        let word = String(repeating: "i", count: 1_000)
        let long = try TextHost.measurer.measure(word, style: style, width: 1)
        #expect(long.lines == 100)
        #expect(long.isTruncated)
        #expect(long.height == 100 * line.height)
        // A style's max-lines below the limit is the limit.
        let capped = try TextHost.measurer.measure(
            word,
            style: TextStyle(font: "DejaVu Sans 13", maxLines: 30),
            width: 1
        )
        #expect(capped.lines == 30)
        #expect(capped.height == 30 * line.height)
    }

    @Test("heights beyond Pango's 32-bit units are summed without wrapping")
    func tallText() throws {
        // 2 097 152 points is 2^31 Pango units: Pango's own extents came out negative here
        // (-1 868 948.58 and -1 866 179).
        let words = String(repeating: "i ", count: 2_000)
        let line = try TextHost.measurer.measure("i", style: TextStyle(font: "DejaVu Sans 1000"), width: 300)
        let plain = try TextHost.measurer.measure(words, style: TextStyle(font: "DejaVu Sans 1000"), width: 300)
        #expect(plain.lines == 2_000)
        #expect(plain.height == 2_000 * line.height)

        let spaced = TextStyle(font: "DejaVu Sans 200", lineSpacing: 10, maxLines: 1_000)
        let small = try TextHost.measurer.measure("i", style: TextStyle(font: "DejaVu Sans 200"), width: 100)
        let capped = try TextHost.measurer.measure(words, style: spaced, width: 100)
        #expect(capped.lines == 1_000)
        #expect(capped.isTruncated)
        // Baselines 10 line heights apart, added in Float as Pango does: within a few points.
        let expected = small.height + 999 * 10 * small.height
        #expect(abs(capped.height - expected) < expected * 1e-5, "\(capped.height) for about \(expected)")
    }
}
