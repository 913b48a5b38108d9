import Foundation
import HomeDaemon
import HomeLayout
import LogCore
import TestSupport
import Testing

/// Self-sizing through the service: reports make versions only when frames move, persist,
/// apply to later versions, and go stale when their element's content changes.
@Suite(.timeLimit(.minutes(1)))
struct SizeReportTests {
    /// A copy of `feeds/` (so tests may edit it) and an empty state directory, removed after
    /// the test.
    let sample: SampleConfiguration
    var configDirectory: URL { sample.configDirectory }
    var stateDirectory: URL { sample.stateDirectory }

    init() throws {
        sample = try SampleConfiguration(prefix: "hf-size")
        // Client reports alone: the sample's headline keeps its estimate (25) instead of the
        // height the daemon computes (ComputedSizingTests).
        let settings = configDirectory.appendingPathComponent("homefeedd.conf")
        let text = try String(contentsOf: settings, encoding: .utf8)
        try text.replacingOccurrences(of: "text = 0:headline\n", with: "").write(
            to: settings,
            atomically: true,
            encoding: .utf8
        )
    }

    func start() async throws -> HomeService {
        let service = try await HomeService(
            configuration: try await LoadedConfiguration.load(directory: configDirectory),
            stateDirectory: stateDirectory,
            logger: Logger(label: "test", level: .error, sink: { _ in })
        )
        _ = try await service.refresh(url: nil)
        return service
    }

    /// The phone manifest's sections.
    func sections(_ service: HomeService, profile: String = "phone") async throws -> [[String: Any]] {
        let bytes = try #require(await service.manifest(profile: profile)?.bytes)
        let root = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
        return try #require(root["sections"] as? [[String: Any]])
    }

    func items(_ section: [String: Any]) -> [[String: Any]] { section["items"] as? [[String: Any]] ?? [] }

    func frame(_ element: [String: Any]) -> [String: Double] { element["frame"] as? [String: Double] ?? [:] }

    @Test("a measured headline moves the cards and later sections by 20 in a new version; once")
    func headline() async throws {
        let service = try await start()
        defer { Task { await service.stop() } }
        let before = try await sections(service)
        let headline = try #require(items(before[1]).first)
        let id = try #require(headline["id"] as? String)
        #expect(headline["sizing"] as? String == "estimated")
        #expect(frame(headline)["height"] == 25)
        let card = try #require(items(before[1]).dropFirst().first?["id"] as? String)
        let version = await service.version

        let report = try await service.reportSizes(
            [
                ReportedSize(id: id, height: 45), ReportedSize(id: "notice:nope", height: 10),
                ReportedSize(id: card, height: 300),
            ],
            for: .profile("phone")
        )
        #expect(report.version > version)
        // The unknown id and the fixed-size card (absolute/fractional) are ignored.
        #expect(report.ignored == ["notice:nope", card])
        let after = try await sections(service)
        let measured = try #require(items(after[1]).first)
        #expect(frame(measured)["height"] == 45)
        #expect(measured["sizing"] as? String == "measured")
        // 45 − 25 = 20: the cards and every later section move down by 20.
        for (old, new) in zip(items(before[1]).dropFirst(), items(after[1]).dropFirst()) {
            #expect(frame(new)["y"] == frame(old)["y"].map { $0 + 20 })
        }
        for index in 2...3 {
            #expect(frame(after[index])["y"] == frame(before[index])["y"].map { $0 + 20 })
        }
        // Other profiles keep their own (unmeasured) headline.
        #expect(frame(try #require(items(try await sections(service, profile: "tablet")[1]).first))["height"] == 25)

        // The same size again moves nothing: no new version.
        let again = try await service.reportSizes([ReportedSize(id: id, height: 45)], for: .profile("phone"))
        #expect(again.version == report.version)
        #expect(again.ignored.isEmpty)
        #expect(await service.version == report.version)
    }

    @Test("measurements persist across a restart and are listed and cleared")
    func persisted() async throws {
        var id = ""
        do {
            let service = try await start()
            id = try #require(items(try await sections(service)[1]).first?["id"] as? String)
            _ = try await service.reportSizes([ReportedSize(id: id, height: 45)], for: .profile("phone"))
            await service.stop()
        }
        let service = try await start()
        defer { Task { await service.stop() } }
        #expect(frame(try #require(items(try await sections(service)[1]).first))["height"] == 45)
        let listed = try await service.listSizes(for: nil)
        #expect(listed.map(\.target) == ["profile:phone"])
        #expect(listed.map(\.id) == [id])
        #expect(listed.first?.entry.height == 45)
        #expect(try await service.listSizes(for: .profile("tablet")).isEmpty)

        let version = await service.version
        let cleared = try await service.clearSizes(for: .profile("phone"))
        #expect(cleared.cleared == 1)
        #expect(cleared.version > version)
        #expect(frame(try #require(items(try await sections(service)[1]).first))["height"] == 25)
        #expect(try await service.listSizes(for: nil).isEmpty)
    }

    @Test("a stale measurement is dropped after a title change")
    func stale() async throws {
        let service = try await start()
        defer { Task { await service.stop() } }
        let id = try #require(items(try await sections(service)[1]).first?["id"] as? String)
        _ = try await service.reportSizes([ReportedSize(id: id, height: 45)], for: .profile("phone"))
        #expect(try await service.listSizes(for: nil).count == 1)

        // The same entry (same guid, same id) with a new title: the measured height was for the
        // old text, so the headline goes back to its estimate and the measurement is forgotten.
        let feed = configDirectory.appendingPathComponent("samples/notices-ko.xml")
        let xml = try String(contentsOf: feed, encoding: .utf8)
        try Data(xml.replacingOccurrences(of: "겨울 계절학기 수강신청 안내", with: "겨울 계절학기 수강신청 일정 변경 안내").utf8)
            .write(to: feed)
        let refreshed = try await service.refresh(url: feed.absoluteString)
        #expect(refreshed.changed == 1)
        let headline = try #require(items(try await sections(service)[1]).first)
        #expect(headline["id"] as? String == id)
        #expect((headline["content"] as? [String: Any])?["title"] as? String == "2026학년도 겨울 계절학기 수강신청 일정 변경 안내")
        #expect(frame(headline)["height"] == 25)
        #expect(headline["sizing"] as? String == "estimated")
        #expect(try await service.listSizes(for: nil).isEmpty)
    }

    /// Makes `[profile phone]` of the sample `width` points wide.
    func setPhoneWidth(_ width: Int) throws {
        let settings = configDirectory.appendingPathComponent("homefeedd.conf")
        let text = try String(contentsOf: settings, encoding: .utf8)
        let phoneWidth = /\[profile phone\]\nwidth = \d+\n/
        try #require(text.contains(phoneWidth))
        try text.replacing(phoneWidth, with: "[profile phone]\nwidth = \(width)\n")
            .write(to: settings, atomically: true, encoding: .utf8)
    }

    /// The headline of a profile's manifest: its sizing and height.
    func headline(_ service: HomeService, profile: String) async throws -> (sizing: String?, height: Double?) {
        let headline = try #require(items(try await sections(service, profile: profile)[1]).first)
        return (headline["sizing"] as? String, frame(headline)["height"])
    }

    @Test("a profile whose container changes at a reload is laid out with estimates again and forgets its sizes")
    func containerChangeAtReload() async throws {
        let service = try await start()
        defer { Task { await service.stop() } }
        let id = try #require(items(try await sections(service)[1]).first?["id"] as? String)
        for profile in ["phone", "tablet"] {
            _ = try await service.reportSizes([ReportedSize(id: id, height: 45)], for: .profile(profile))
        }
        // A reload that leaves the containers as they were keeps every size.
        _ = try await service.reload()
        #expect(try await headline(service, profile: "phone") == ("measured", 45))

        try setPhoneWidth(390)
        _ = try await service.reload()
        #expect(try await headline(service, profile: "phone") == ("estimated", 25))
        #expect(try await headline(service, profile: "tablet") == ("measured", 45))
        #expect(try await service.listSizes(for: nil).map(\.target) == ["profile:tablet"])
        // Forgotten, in the store too: back at 375 points the phone keeps its estimate.
        try setPhoneWidth(375)
        _ = try await service.reload()
        #expect(try await headline(service, profile: "phone") == ("estimated", 25))
    }

    @Test("a profile whose container changed while the daemon was stopped forgets its sizes at the start")
    func containerChangeAtRestart() async throws {
        do {
            let service = try await start()
            let id = try #require(items(try await sections(service)[1]).first?["id"] as? String)
            for profile in ["phone", "tablet"] {
                _ = try await service.reportSizes([ReportedSize(id: id, height: 45)], for: .profile(profile))
            }
            await service.stop()
        }
        try setPhoneWidth(390)
        do {
            let service = try await start()
            #expect(try await headline(service, profile: "phone") == ("estimated", 25))
            #expect(try await headline(service, profile: "tablet") == ("measured", 45))
            #expect(try await service.listSizes(for: nil).map(\.target) == ["profile:tablet"])
            await service.stop()
        }
        try setPhoneWidth(375)
        let service = try await start()
        defer { Task { await service.stop() } }
        #expect(try await headline(service, profile: "phone") == ("estimated", 25))
    }

    @Test("a container equal to a profile's is that profile; another container keeps its own sizes")
    func containers() async throws {
        let service = try await start()
        defer { Task { await service.stop() } }
        let id = try #require(items(try await sections(service)[1]).first?["id"] as? String)
        let small = LayoutEnvironment(width: 320, height: 568, scale: 2)
        _ = try await service.reportSizes([ReportedSize(id: id, height: 61)], for: .container(small))
        let manifest = try await service.manifest(for: small)
        let root = try #require(try JSONSerialization.jsonObject(with: Data(manifest.bytes)) as? [String: Any])
        let main = try #require((root["sections"] as? [[String: Any]])?[1])
        let headline = try #require(items(main).first)
        #expect(frame(headline)["height"] == 61)
        #expect(try await service.listSizes(for: nil).map(\.target) == ["container:320x568@2"])
        // The phone profile's own container: stored under the profile.
        let phone = LayoutEnvironment(
            width: 375,
            height: 812,
            scale: 3,
            safeAreaInsets: EdgeInsets(top: 47, bottom: 34)
        )
        _ = try await service.reportSizes([ReportedSize(id: id, height: 50)], for: .container(phone))
        #expect(try await service.listSizes(for: .profile("phone")).map(\.id) == [id])
    }

    struct BadReport: Sendable, CustomTestStringConvertible {
        var sizes: [ReportedSize]
        var id: String
        var testDescription: String { id }
    }

    @Test(
        "bad values are errors naming the id",
        arguments: [
            BadReport(sizes: [ReportedSize(id: "a", height: 0)], id: "a"),
            BadReport(sizes: [ReportedSize(id: "b", width: -3)], id: "b"),
            BadReport(sizes: [ReportedSize(id: "c", height: .nan)], id: "c"),
            BadReport(sizes: [ReportedSize(id: "d", height: .infinity)], id: "d"),
            BadReport(sizes: [ReportedSize(id: "e", height: 2_000_000)], id: "e"),
            BadReport(sizes: [ReportedSize(id: "f")], id: "f"),
            BadReport(sizes: [ReportedSize(id: "g", height: 3), ReportedSize(id: "g", height: 4)], id: "g"),
            BadReport(sizes: (0...1_000).map { ReportedSize(id: "x\($0)", height: 1) }, id: "x1000"),
        ]
    )
    func badValues(_ c: BadReport) async throws {
        let service = try await start()
        defer { Task { await service.stop() } }
        let version = await service.version
        do {
            _ = try await service.reportSizes(c.sizes, for: .profile("phone"))
            Issue.record("accepted \(c.sizes.prefix(2))")
        } catch {
            guard case .invalidSize(let id, _) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(id == c.id)
        }
        #expect(await service.version == version)
        #expect(try await service.listSizes(for: nil).isEmpty)
    }
}
