import Foundation
import HomeDaemon
import HomeLayout
import LogCore
import Synchronization
import TestSupport
import Testing
import TextMeasure

/// A home screen built from the sample configuration in a directory of its own: the headline
/// measured or not (`text = 0:headline`), with the newest notice's title replaced.
struct SampleHome {
    /// The copy of `feeds/` and the state directory, removed once the last copy of this value
    /// (and of the services ``stop(_:)`` stops) is gone.
    let sample: SampleConfiguration
    var config: URL { sample.configDirectory }
    var state: URL { sample.stateDirectory }

    /// The newest notice of `feeds/samples/notices-ko.xml`: the mainService headline.
    static let sampleHeadline = "2026학년도 겨울 계절학기 수강신청 안내"
    /// The sample's `[text headline]`.
    static let headlineStyle = TextStyle(font: "NanumGothic Bold 17", lineSpacing: 1.3, maxLines: 2)

    init(measured: Bool = true, headline: String? = nil, replacing: [(String, String)] = []) throws {
        sample = try SampleConfiguration(prefix: "hf-text")
        if let headline {
            try Self.replace(
                in: config.appendingPathComponent("samples/notices-ko.xml"),
                [(Self.sampleHeadline, headline)]
            )
        }
        var settings = replacing
        if !measured { settings.append(("text = 0:headline\n", "")) }
        try Self.replace(in: config.appendingPathComponent("homefeedd.conf"), settings)
    }

    static func replace(in file: URL, _ pairs: [(String, String)]) throws {
        var text = try String(contentsOf: file, encoding: .utf8)
        for (old, new) in pairs {
            guard text.contains(old) else { throw CocoaError(.fileReadCorruptFile) }
            text = text.replacingOccurrences(of: old, with: new)
        }
        try text.write(to: file, atomically: true, encoding: .utf8)
    }

    /// A service on this directory with the sample feeds fetched.
    func start(
        measurer: TextMeasurer = TextMeasurer(),
        log: (@Sendable (String) -> Void)? = nil
    ) async throws -> HomeService {
        let service = try await HomeService(
            configuration: try await LoadedConfiguration.load(directory: config),
            stateDirectory: state,
            logger: Logger(label: "test", level: .warning, sink: log ?? { _ in }),
            textMeasurer: measurer
        )
        _ = try await service.refresh(url: nil)
        return service
    }

    /// Stops `service` in the background; the directory it uses stays until it has stopped.
    func stop(_ service: HomeService) {
        Task {
            await service.stop()
            withExtendedLifetime(sample) {}
        }
    }

    /// The manifest of a profile, decoded.
    static func manifest(_ service: HomeService, profile: String = "phone") async throws -> [String: Any] {
        let bytes = try #require(await service.manifest(profile: profile)?.bytes)
        return try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
    }

    static func sections(_ manifest: [String: Any]) -> [[String: Any]] {
        manifest["sections"] as? [[String: Any]] ?? []
    }

    static func headline(_ manifest: [String: Any]) throws -> [String: Any] {
        let main = try #require(sections(manifest).first { $0["id"] as? String == "mainService" })
        return try #require((main["items"] as? [[String: Any]])?.first)
    }

    /// Every element with a frame, in manifest order: sections (`section:ID`), headers,
    /// footers, supplementaries and items by id.
    static func elements(_ manifest: [String: Any]) -> [(id: String, frame: [String: Double])] {
        var list: [(String, [String: Double])] = []
        func add(_ element: [String: Any]?, id: String? = nil) {
            guard let element, let frame = element["frame"] as? [String: Double] else { return }
            list.append((id ?? element["id"] as? String ?? "?", frame))
        }
        for section in sections(manifest) {
            add(section, id: "section:\(section["id"] as? String ?? "?")")
            add(section["header"] as? [String: Any])
            add(section["footer"] as? [String: Any])
            for element in section["supplementaries"] as? [[String: Any]] ?? [] { add(element) }
            for element in section["items"] as? [[String: Any]] ?? [] { add(element) }
        }
        return list
    }
}

extension TextMeasurer {
    /// NanumGothic is installed (the sample's headline font).
    static let hasSampleFonts = (try? TextMeasurer().resolveFontNow("NanumGothic Bold 17"))?.missingFamily == nil
}

/// Text measured by the daemon: the sample's headline gets its Pango height from the first
/// version, as a computed size below client reports.
@Suite(
    .timeLimit(.minutes(1)),
    .enabled(if: TextMeasurer.hasSampleFonts, "needs fonts-nanum (make deps installs it)")
)
struct ComputedSizingTests {
    /// The computed height of a headline in the sample style at the phone's 335 points: the
    /// text's height plus the 3 + 3 padding, rounded up to the phone's pixels (scale 3).
    static func expectedHeight(_ title: String) throws -> (height: Double, metrics: TextMetrics) {
        let metrics = try TextMeasurer().measure(title, style: SampleHome.headlineStyle, width: 335)
        return (((metrics.height + 6) * 3 - 1e-6).rounded(.up) / 3, metrics)
    }

    @Test("a two-line headline is its measured height, and everything below it moves by the difference")
    func twoLines() async throws {
        let title = "2026학년도 겨울 계절학기 수강신청 안내: 신청 기간은 12월 1일부터 3일까지입니다"
        let (height, metrics) = try Self.expectedHeight(title)
        // With NanumGothic Bold 17 a line is 19.55 points (20 019 Pango units); the second
        // baseline is 1.3 lines further: 19.55 + 1.3 × 19.55 = 44.96, + 6 = 50.96 → 153/3 = 51.
        try #require(metrics.lines == 2 && !metrics.isTruncated, "the title must take exactly two lines: \(metrics)")
        #expect(abs(height - 51) < 1)
        let measuredHome = try SampleHome(headline: title)
        let plainHome = try SampleHome(measured: false, headline: title)
        let measured = try await measuredHome.start()
        defer { measuredHome.stop(measured) }
        let plain = try await plainHome.start()
        defer { plainHome.stop(plain) }
        let after = try await SampleHome.manifest(measured)
        let before = try await SampleHome.manifest(plain)
        let headline = try SampleHome.headline(after)
        let id = try #require(headline["id"] as? String)
        #expect(headline["sizing"] as? String == "computed")
        #expect(headline["truncated"] == nil)
        #expect((headline["frame"] as? [String: Double])?["height"] == height)
        #expect((try SampleHome.headline(before)["frame"] as? [String: Double])?["height"] == 25)

        // Element by element: above the headline nothing moves; the headline and its section
        // grow by the difference; everything whose top was at or below the headline's bottom
        // moves down by it, keeping its size.
        let delta = height - 25
        let old = SampleHome.elements(before)
        let new = SampleHome.elements(after)
        // The same elements in the same order (a notice id holds a hash of its feed's URL, which
        // differs between the two directories: compare by position).
        #expect(old.count == new.count)
        let position = try #require(new.firstIndex { $0.id == id })
        #expect(old[position].id.hasPrefix("notice:"))
        let headlineBottom = (old[position].frame["y"] ?? 0) + 25
        for (index, (o, n)) in zip(old, new).enumerated() {
            var expected = o.frame
            if index == position || n.id == "section:mainService" {
                expected["height"] = (o.frame["height"] ?? 0) + delta
            } else if (o.frame["y"] ?? 0) >= headlineBottom - 0.001 {
                expected["y"] = (o.frame["y"] ?? 0) + delta
            }
            for key in ["x", "y", "width", "height"] {
                #expect(abs((n.frame[key] ?? .nan) - (expected[key] ?? .nan)) < 1e-9, "\(n.id).\(key)")
            }
        }
        let oldSize = before["contentSize"] as? [String: Double]
        let newSize = after["contentSize"] as? [String: Double]
        #expect(newSize?["height"] == oldSize?["height"].map { $0 + delta })
    }

    @Test("a headline longer than max-lines is measured at two lines and says truncated")
    func truncated() async throws {
        let title = String(repeating: "2026학년도 겨울 계절학기 수강신청 안내, ", count: 4)
        let (height, metrics) = try Self.expectedHeight(title)
        #expect(metrics.lines == 2)
        #expect(metrics.isTruncated)
        let home = try SampleHome(headline: title)
        let service = try await home.start()
        defer { home.stop(service) }
        let manifest = try await SampleHome.manifest(service)
        let headline = try SampleHome.headline(manifest)
        #expect(headline["sizing"] as? String == "computed")
        #expect(headline["truncated"] as? Bool == true)
        #expect((headline["frame"] as? [String: Double])?["height"] == height)
        // Only the measured headline says so.
        let flagged = SampleHome.sections(manifest).flatMap { $0["items"] as? [[String: Any]] ?? [] }
            .filter { $0["truncated"] != nil }
        #expect(flagged.count == 1)
    }

    @Test("a history title of many lines is one paragraph: folded when recorded, measured at max-lines")
    func historyTitleLines() async throws {
        // The headline slot, measured in [text headline] (max-lines = 2), shows the newest event.
        let home = try SampleHome(replacing: [
            ("items = notices:1! services/main-service:3", "items = history:1! services/main-service:3")
        ])
        let service = try await home.start()
        defer { home.stop(service) }
        _ = try await service.recordHistory(
            title: String(repeating: "x\n", count: 500),
            link: nil,
            kind: "open\u{2029}\r\n now",
            at: nil
        )
        let headline = try SampleHome.headline(try await SampleHome.manifest(service))
        let folded = Array(repeating: "x", count: 500).joined(separator: " ")
        let content = try #require(headline["content"] as? [String: Any])
        #expect(content["title"] as? String == folded)
        #expect(content["subtitle"] as? String == "open now")
        let (height, metrics) = try Self.expectedHeight(folded)
        #expect(metrics.lines == 2 && metrics.isTruncated)
        #expect(headline["sizing"] as? String == "computed")
        #expect(headline["truncated"] as? Bool == true)
        #expect((headline["frame"] as? [String: Double])?["height"] == height)
        // Nothing but white space is no kind.
        await #expect(throws: ServiceError.self) {
            _ = try await service.recordHistory(title: "x", link: nil, kind: " \n\u{2028} ", at: nil)
        }
    }

    @Test("every profile measures at its own width and pixel grid; the sample's one-line headline")
    func profiles() async throws {
        let home = try SampleHome()
        let service = try await home.start()
        defer { home.stop(service) }
        // tablet: 820 − 2 × 32 insets = 756 points wide, scale 2; kiosk: 1280 − 64, scale 1.
        for (profile, width, scale) in [("phone", 335.0, 3.0), ("tablet", 756, 2), ("kiosk", 1216, 1)] {
            let metrics = try TextMeasurer().measure(
                SampleHome.sampleHeadline,
                style: SampleHome.headlineStyle,
                width: width
            )
            let expected = ((metrics.height + 6) * scale - 1e-6).rounded(.up) / scale
            let headline = try SampleHome.headline(try await SampleHome.manifest(service, profile: profile))
            #expect((headline["frame"] as? [String: Double])?["width"] == width, "\(profile)")
            #expect((headline["frame"] as? [String: Double])?["height"] == expected, "\(profile)")
            #expect(headline["sizing"] as? String == "computed")
            #expect(metrics.lines == 1)
        }
    }

    @Test("a client's report beats the computed height; clearing it brings the computed one back")
    func reportedWins() async throws {
        let home = try SampleHome()
        let service = try await home.start()
        defer { home.stop(service) }
        let computed = try SampleHome.headline(try await SampleHome.manifest(service))
        let id = try #require(computed["id"] as? String)
        let report = try await service.reportSizes([ReportedSize(id: id, height: 80)], for: .profile("phone"))
        #expect(report.ignored.isEmpty)
        let reported = try SampleHome.headline(try await SampleHome.manifest(service))
        #expect(reported["sizing"] as? String == "measured")
        #expect((reported["frame"] as? [String: Double])?["height"] == 80)
        // Computed sizes are not stored or listed: only the client's report is.
        #expect(try await service.listSizes(for: nil).map(\.id) == [id])
        _ = try await service.clearSizes(for: nil)
        let again = try SampleHome.headline(try await SampleHome.manifest(service))
        #expect(again["sizing"] as? String == "computed")
        #expect(again["frame"] as? [String: Double] == computed["frame"] as? [String: Double])
    }

    @Test("a font family fontconfig does not have is one warning naming it and its substitute")
    func substitutedFamily() async throws {
        let lines = Mutex<[String]>([])
        let home = try SampleHome(replacing: [("font = NanumGothic Bold 17", "font = Nanum Gothicc Bold 17")])
        let service = try await home.start(log: { line in lines.withLock { $0.append(line) } })
        defer { home.stop(service) }
        try await service.publishNow()
        let warnings = lines.withLock { $0 }.filter { $0.contains("Nanum Gothicc") }
        #expect(warnings.count == 1)
        #expect(warnings.first?.hasPrefix("<4>") == true)
        #expect(warnings.first?.contains("is not installed; fontconfig substitutes \"") == true)
        // Measured all the same, in the substitute.
        #expect(try SampleHome.headline(try await SampleHome.manifest(service))["sizing"] as? String == "computed")
    }
}

/// Without fonts the daemon still serves, with estimates: no fontconfig configuration, or one
/// with no font.
@Suite(.timeLimit(.minutes(1)))
struct TextFallbackTests {
    @Test("without fonts the headline keeps its estimate, and the log says so once")
    func noFonts() async throws {
        let home = try SampleHome()
        let empty = home.sample.root.url.appendingPathComponent("empty-fonts.conf")
        try Data("<?xml version=\"1.0\"?>\n<fontconfig></fontconfig>\n".utf8).write(to: empty)
        let lines = Mutex<[String]>([])
        let service = try await home.start(
            measurer: TextMeasurer(configuration: TextMeasurer.Configuration(fontconfigFile: empty.path)),
            log: { line in lines.withLock { $0.append(line) } }
        )
        defer { home.stop(service) }
        try await service.publishNow()
        _ = try await service.recordHistory(title: "도서관", link: nil, kind: nil, at: nil)
        let headline = try SampleHome.headline(try await SampleHome.manifest(service))
        #expect(headline["sizing"] as? String == "estimated")
        #expect((headline["frame"] as? [String: Double])?["height"] == 25)
        let warnings = lines.withLock { $0 }.filter { $0.contains("text measurement unavailable") }
        #expect(
            warnings == [
                "<4>test: text measurement unavailable: fontconfig found no fonts; text cells keep their estimated heights"
            ]
        )
    }
}
