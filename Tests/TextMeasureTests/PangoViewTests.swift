import Foundation
import Testing
import TextMeasure

/// Heights equal what `pango-view` renders for the same font, width, wrap and line spacing:
/// `ceil(height)` is the height of its image (pango-view sizes the image to the logical extents,
/// rounded out to whole pixels; at 72 dpi a point is a pixel).
///
/// pango-view's default cairo backend rounds every line's metrics to whole pixels at 72 dpi
/// (hinted metrics: 20 px a line of NanumGothic 17 instead of 19.55), which no client at scale
/// 2 or 3 sees; its ft2 backend lays out with PangoFT2, as the daemon does, unrounded.
@Suite(.enabled(if: TextHost.canCompare, "needs pango-view (pango1.0-tools) and fonts-nanum, fonts-dejavu-core"))
struct PangoViewTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var text: String
        var style: TextStyle
        var width: Int
        var testDescription: String { name }
    }

    static let korean = TextStyle(font: "NanumGothic 17")
    /// 4 000 bytes of words: more characters than maxLaidOutLines, and longer than the 316 that
    /// LineLimit lets through without looking for the longest word; fewer lines than either limit.
    static let summary = String(
        repeating: "2026학년도 겨울 계절학기 수강신청 안내: Campus shuttle timetable changes https://example.test/notices/2026 ",
        count: 30
    )
    static let cases: [Case] = [
        Case(name: "Latin", text: "Campus shuttle timetable changes for the winter break", style: korean, width: 200),
        Case(name: "Korean", text: "2026학년도 겨울 계절학기 수강신청 안내", style: korean, width: 120),
        Case(
            name: "Korean, bold, one line",
            text: "2026학년도 겨울 계절학기 수강신청 안내",
            style: TextStyle(font: "NanumGothic Bold 17"),
            width: 335
        ),
        Case(
            name: "mixed, DejaVu Sans falling back to NanumGothic",
            text: "Library 도서관 시험기간 24시간 개방 & 좌석 예약 변경 (2026-1)",
            style: TextStyle(font: "DejaVu Sans 15"),
            width: 160
        ),
        Case(name: "emoji", text: "축제 🎉 이번 주 금요일 🎶 Music night 😀👍", style: korean, width: 150),
        Case(
            name: "a long unbroken URL",
            text: "https://example.test/notices/2026/winter/registration/very-long-path-without-any-breaks-1042",
            style: TextStyle(font: "DejaVu Sans 13"),
            width: 180
        ),
        Case(name: "empty", text: "", style: korean, width: 335),
        Case(
            name: "max-lines truncation",
            text: "2026학년도 겨울 계절학기 수강신청 안내: 수강신청 기간은 12월 1일부터 12월 3일까지입니다",
            style: TextStyle(font: "NanumGothic 17", maxLines: 2),
            width: 120
        ),
        Case(
            name: "line spacing 1.3 with max lines",
            text: "2026학년도 겨울 계절학기 수강신청 안내: 수강신청 기간은 12월 1일부터 12월 3일까지입니다",
            style: TextStyle(font: "NanumGothic Bold 17", lineSpacing: 1.3, maxLines: 3),
            width: 140
        ),
        Case(
            name: "word wrap, Korean language",
            text: "셔틀버스 동계 시간표 적용 안내 Shuttle bus winter timetable",
            style: TextStyle(font: "NanumGothic 15", wrap: .word, language: "ko"),
            width: 130
        ),
        Case(name: "4 KB of words, 80 lines", text: summary, style: korean, width: 335),
        Case(name: "4 KB of words, 810 lines", text: summary, style: korean, width: 40),
    ]

    @Test("the measured height is pango-view's image height", arguments: cases)
    func sameAsPangoView(_ example: Case) throws {
        let metrics = try TextHost.measurer.measure(example.text, style: example.style, width: Double(example.width))
        let rendered = try TextHost.pangoViewHeight(example.text, style: example.style, width: example.width)
        #expect(Int(metrics.height.rounded(.up)) == rendered, "measured \(metrics)")
    }

    @Test("text cut at max-lines says so, text that fits does not")
    func truncation() throws {
        let text = "2026학년도 겨울 계절학기 수강신청 안내: 수강신청 기간은 12월 1일부터 12월 3일까지입니다"
        let free = try TextHost.measurer.measure(text, style: TextStyle(font: "NanumGothic 17"), width: 120)
        let cut = try TextHost.measurer.measure(text, style: TextStyle(font: "NanumGothic 17", maxLines: 2), width: 120)
        #expect(free.lines > 2)
        #expect(!free.isTruncated)
        #expect(cut.lines == 2)
        #expect(cut.isTruncated)
        // Two lines of the same font, no line spacing: the height of two of the free text's lines.
        #expect(abs(cut.height - free.height * 2 / Double(free.lines)) < 0.01)
        let short = try TextHost.measurer.measure(
            "안내",
            style: TextStyle(font: "NanumGothic 17", maxLines: 2),
            width: 120
        )
        #expect(short.lines == 1)
        #expect(!short.isTruncated)
    }
}
