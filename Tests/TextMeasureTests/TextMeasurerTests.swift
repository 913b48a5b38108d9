import Foundation
import TestSupport
import Testing

@testable import TextMeasure

/// The measurer's own behaviour: styles are checked, measurements are cached within bounds,
/// fonts are resolved, and without fonts every call fails cleanly.
@Suite
struct TextMeasurerTests {
    @Test(
        "invalid styles are refused with the reason",
        arguments: [
            (TextStyle(font: "NanumGothic"), "has no size"),
            (TextStyle(font: "17"), "names no family"),
            (TextStyle(font: "NanumGothic 2000"), "out of range (1 to 1000 points)"),
            (TextStyle(font: "NanumGothic 17", lineSpacing: 0), "line spacing 0.0 is out of range"),
            (TextStyle(font: "NanumGothic 17", maxLines: 0), "max lines 0 is out of range"),
            (TextStyle(font: "NanumGothic 17", language: "en US"), "not a language tag"),
        ]
    )
    func invalidStyles(_ style: TextStyle, reason: String) {
        #expect {
            try style.validate()
        } throws: { error in
            guard case .invalidStyle(let message) = error as? TextMeasureError else { return false }
            return message.contains(reason)
        }
    }

    @Test("a font description's families and size")
    func fontDescriptions() {
        #expect(FontDescription.parse("NanumGothic Bold 17") == FontDescription(families: ["NanumGothic"], size: 17))
        #expect(
            FontDescription.parse("DejaVu Sans, NanumGothic 15.5")
                == FontDescription(families: ["DejaVu Sans", "NanumGothic"], size: 15.5)
        )
        #expect(FontDescription.parse("Sans 12px") == FontDescription(families: ["Sans"], size: 12))
        #expect(FontDescription.sameFamily("Nanum Gothic", "nanumgothic"))
    }

    @Test("the input is capped at maxTextBytes on a scalar boundary, NUL replaced")
    func input() {
        // 'ㄱ' is 3 bytes of UTF-8: 4 096 / 3 = 1 365 whole scalars (4 095 bytes) fit.
        let long = String(repeating: "ㄱ", count: 100_000)
        let (bytes, capped) = TextInput.prepare(long, limit: TextMeasurer.Limits.maxTextBytes)
        #expect(capped)
        #expect(bytes.count == 4_095)
        #expect(String(validating: bytes, as: UTF8.self) != nil)
        let (nul, nulCapped) = TextInput.prepare("a\u{0}b", limit: 100)
        #expect(!nulCapped)
        #expect(nul == Array("a\u{FFFD}b".utf8))
    }

    @Test("combining marks beyond maxCombiningMarks in a row are left out")
    func combiningMarks() {
        // U+0301 and U+064E (an Arabic haraka) are non-starters and count together; "b" and a
        // zero-width joiner (combining class 0) end a run.
        let marks = String(repeating: "\u{301}\u{64E}", count: 1_000)
        let (bytes, capped) = TextInput.prepare("a" + marks + "b\u{301}\u{302}\u{200D}" + marks, limit: 10_000)
        #expect(!capped)
        let kept = String(String(repeating: "\u{301}\u{64E}", count: 15).unicodeScalars)
        #expect(bytes == Array(("a" + kept + "b\u{301}\u{302}\u{200D}" + kept).utf8))
        // 30 in a row are all kept.
        #expect(TextInput.prepare("e" + kept, limit: 10_000).bytes == Array(("e" + kept).utf8))
    }

    @Test("line and paragraph breaks are laid out as one space each: Pango sees one paragraph")
    func breaks() {
        let (bytes, capped) = TextInput.prepare("a\nb\r\nc\rd\u{2028}e\u{2029}f\n\ng\r\r\nh", limit: 100)
        #expect(!capped)
        #expect(String(decoding: bytes, as: UTF8.self) == "a b c d e f  g  h")
        // Other controls are left as they are.
        #expect(TextInput.prepare("a\tb\u{B}c", limit: 100).bytes == Array("a\tb\u{B}c".utf8))
    }

    @Test("the lines laid out: the style's for short text, fewer for thousands of lines or a long word")
    func lineLimit() {
        let title = Array("2026학년도 겨울 계절학기 수강신청 안내: 수강신청 기간은 12월 1일부터".utf8)
        #expect(LineLimit.lines(for: title, maxLines: nil, language: nil) == nil)
        #expect(LineLimit.lines(for: title, maxLines: 2, language: nil) == 2)
        // 4 096 characters, words of two: more lines than maxLaidOutLines only.
        let words = Array(String(repeating: "i ", count: 2_048).utf8)
        #expect(LineLimit.longestWord(words, language: nil) == 2)
        #expect(LineLimit.lines(for: words, maxLines: nil, language: nil) == TextMeasurer.Limits.maxLaidOutLines)
        #expect(LineLimit.lines(for: words, maxLines: 1_000, language: nil) == 1_000)
        // One word of 1 000 characters: 100 000 / 1 000 lines, or the style's when fewer.
        let word = Array(String(repeating: "i", count: 1_000).utf8)
        #expect(LineLimit.longestWord(word, language: nil) == 1_000)
        #expect(LineLimit.lines(for: word, maxLines: nil, language: nil) == 100)
        #expect(LineLimit.lines(for: word, maxLines: 500, language: nil) == 100)
        #expect(LineLimit.lines(for: word, maxLines: 30, language: nil) == 30)
        // 316 characters cannot be cut (316² ≤ maxLongWordScan): the style's limit stays.
        let short = Array(String(repeating: "i", count: 316).utf8)
        #expect(LineLimit.lines(for: short, maxLines: nil, language: nil) == nil)
        #expect(LineLimit.lines(for: short + Array("i".utf8), maxLines: nil, language: nil) == 100_000 / 317)
    }

    @Test("the cache keeps at most twice its working set and answers repeats", .enabled(if: TextHost.hasFonts))
    func cache() throws {
        var configuration = TextMeasurer.Configuration()
        configuration.cacheEntries = 8
        let measurer = TextMeasurer(configuration: configuration)
        let style = TextStyle(font: "DejaVu Sans 13")
        let first = try measurer.measure("도서관 좌석 예약", style: style, width: 200)
        #expect(try measurer.measure("도서관 좌석 예약", style: style, width: 200) == first)
        #expect(measurer.cacheStatistics.hits == 1)
        // Another width is another key.
        _ = try measurer.measure("도서관 좌석 예약", style: style, width: 201)
        #expect(measurer.cacheStatistics.misses == 2)
        for index in 0..<50 { _ = try measurer.measure("title \(index)", style: style, width: 200) }
        #expect(measurer.cacheStatistics.count <= 16)
    }

    /// The queue is held by the test: a batch the cache answers whole must come back anyway,
    /// and one with a string not measured yet must wait for the queue.
    @Test("a batch the cache holds is answered without the measurer's queue", .enabled(if: TextHost.hasFonts))
    func cachedBatchSkipsQueue() async {
        let measurer = TextMeasurer()
        let style = TextStyle(font: "DejaVu Sans 13")
        let known = [
            TextMeasurer.Request(text: "도서관 좌석 예약", style: style, width: 200),
            TextMeasurer.Request(text: "학식 메뉴", style: style, width: 120),
        ]
        // Measured the usual way first, on the measurer's queue.
        let measured = await measurer.measure(known).map { try? $0.get() }
        #expect(measured.allSatisfy { $0 != nil })
        let release = DispatchSemaphore(value: 0)
        measurer.queue.async { release.wait() }
        // Answered while the queue is held; were it not, the race is lost to a 10 s sleep and
        // the queue is let go, so the test fails instead of hanging.
        let inTime = await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                _ = await measurer.measure(known)
                return true
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(10))
                return false
            }
            let first = await group.next() ?? false
            if !first { release.signal() }
            group.cancelAll()
            return first
        }
        #expect(inTime, "a batch the cache holds waited for the measurer's queue")
        #expect(await measurer.measure(known).map { try? $0.get() } == measured)
        // Best effort under load (the task may not have started yet), never a false failure: a
        // batch with a new string can only be measured on the queue, which is still held.
        let withNew = Task {
            await measurer.measure(known + [TextMeasurer.Request(text: "새 글", style: style, width: 200)])
        }
        // Not `try`: a cancelled test must still reach the signal below and let the queue go.
        try? await Task.sleep(for: .milliseconds(200))
        #expect(measurer.cacheStatistics.misses == 2, "the new string is measured only once the queue is free")
        if inTime { release.signal() }
        #expect(await withNew.value.count == 3)
        #expect(measurer.cacheStatistics.misses == 3)
    }

    @Test("the byte bound holds for long titles", .enabled(if: TextHost.hasFonts))
    func cacheBytes() throws {
        var configuration = TextMeasurer.Configuration()
        configuration.cacheBytes = 16 << 10
        let measurer = TextMeasurer(configuration: configuration)
        let style = TextStyle(font: "DejaVu Sans 13", maxLines: 2)
        // Each key is a 4 000-byte title: a generation of 16 KiB holds 4, two generations at most 8.
        for index in 0..<20 {
            _ = try measurer.measure(String(repeating: "x", count: 3_990) + "\(index)", style: style, width: 200)
        }
        #expect(measurer.cacheStatistics.count <= 8)
    }

    @Test("an unknown family is resolved to what fontconfig substitutes", .enabled(if: TextHost.hasFonts))
    func substitution() async throws {
        let missing = try await TextHost.measurer.resolveFont("Nanum Gothicc Bold 17")
        #expect(missing.missingFamily == "Nanum Gothicc")
        #expect(!missing.loadedFamily.isEmpty)
        #expect(try await TextHost.measurer.resolveFont("NanumGothic Bold 17").missingFamily == nil)
        #expect(try await TextHost.measurer.resolveFont("sans-serif 12").missingFamily == nil)
    }

    @Test("a family named by its localized name is installed, not substituted", .enabled(if: TextHost.hasFonts))
    func localizedFamily() async throws {
        // fc-list: NanumGothic,나눔고딕. Pango describes the font by its first name only.
        let korean = try await TextHost.measurer.resolveFont("나눔고딕 17")
        #expect(korean.missingFamily == nil, "loaded \(korean.loadedFamily), names \(korean.loadedFamilyNames)")
        #expect(korean.loadedFamilyNames.contains("나눔고딕"))
        let english = try await TextHost.measurer.resolveFont("NanumGothic 17")
        #expect(english.loadedFamily == korean.loadedFamily)
    }

    @Test("without fonts every call fails as unavailable, and stays failed")
    func noFonts() async throws {
        let directory = try TemporaryDirectory(prefix: "hf-fc")
        defer { withExtendedLifetime(directory) {} }
        let empty = directory.file("fonts.conf")
        try Data("<?xml version=\"1.0\"?>\n<fontconfig></fontconfig>\n".utf8).write(to: URL(fileURLWithPath: empty))
        for file in [empty, directory.file("missing.conf")] {
            let measurer = TextMeasurer(configuration: TextMeasurer.Configuration(fontconfigFile: file))
            let results = await measurer.measure([
                TextMeasurer.Request(text: "안내", style: TextStyle(font: "NanumGothic 17"), width: 100),
                TextMeasurer.Request(text: "notice", style: TextStyle(font: "DejaVu Sans 13"), width: 100),
            ])
            #expect(results.count == 2)
            for result in results {
                #expect(throws: TextMeasureError.self) { try result.get() }
                if case .failure(.unavailable) = result {} else { Issue.record("expected unavailable, got \(result)") }
            }
            #expect(throws: TextMeasureError.self) { try measurer.resolveFontNow("NanumGothic 17") }
        }
    }

    @Test(
        "fontconfig writes the caches it rebuilds into the measurer's cache directory, not its configuration's",
        .enabled(if: FileManager.default.fileExists(atPath: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"))
    )
    func writesCachesToCacheDirectory() throws {
        let root = try TemporaryDirectory(prefix: "hf-fc")
        defer { withExtendedLifetime(root) {} }
        let fonts = try root.directory("fonts")
        let ours = root.url.appendingPathComponent("cache/fontconfig")
        let theirs = try root.directory("their-cache")
        // A font directory no cache knows yet, and a configuration with a writable cache
        // directory of its own: the measurer's is declared first, so fontconfig writes there.
        try FileManager.default.copyItem(
            at: URL(fileURLWithPath: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"),
            to: fonts.appendingPathComponent("DejaVuSans.ttf")
        )
        let config = root.url.appendingPathComponent("fonts.conf")
        try Data(
            """
            <?xml version="1.0"?>
            <fontconfig><dir>\(fonts.path)</dir><cachedir>\(theirs.path)</cachedir></fontconfig>
            """.utf8
        ).write(to: config)
        let measurer = TextMeasurer(
            configuration: TextMeasurer.Configuration(cacheDirectory: ours.path, fontconfigFile: config.path)
        )
        let metrics = try measurer.measure("cache", style: TextStyle(font: "DejaVu Sans 13"), width: 100)
        #expect(metrics.lines == 1)
        let written = (try? FileManager.default.contentsOfDirectory(atPath: ours.path)) ?? []
        #expect(written.contains { $0.contains(".cache-") }, "\(written)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: theirs.path).isEmpty)
    }

    @Test("the font cache directory is declared before fontconfig's own, escaped")
    func cacheDirectory() {
        #expect(
            PangoEngine.cacheDirectorySnippet("/var/cache/home&feed/fontconfig")
                == "<fontconfig><cachedir>/var/cache/home&amp;feed/fontconfig</cachedir></fontconfig>"
        )
        #expect(PangoEngine.cacheDirectorySnippet("relative/dir") == nil)
    }
}
