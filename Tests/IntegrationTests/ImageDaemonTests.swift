import Foundation
import Glibc
import TestSupport
import Testing
import Varlink

/// Icons and thumbnails as clients see them: the real `homefeedd` with the real
/// `homefeed-thumbnail`, the sample configuration offline, and hostile images and pages from
/// the loopback fixture server.
@Suite(.timeLimit(.minutes(3)))
struct ImageDaemonTests {
    func items(_ reply: [String: JSONValue]) -> [JSONValue] {
        (reply["manifest"]?["sections"]?.arrayValue ?? []).flatMap { $0["items"]?.arrayValue ?? [] }
    }

    @Test("the sample configuration: every link shows its icon and the notice its thumbnail, as group-readable files")
    func sampleIcons() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        _ = try daemon.call("io.homefeed.Refresh")
        let reply = try daemon.call("io.homefeed.GetManifest", ["profile": "phone"])
        let withImages = items(reply).filter {
            $0["kind"]?.stringValue == "service" || $0["kind"]?.stringValue == "notice"
        }
        // 14 links and the one notice the home screen shows.
        #expect(withImages.count == 15)
        for item in withImages {
            let image = item["content"]?["image"]
            let url = try #require(image?["url"]?.stringValue, "\(item["id"]?.stringValue ?? "?") has no image")
            let path = try #require(URL(string: url)?.path)
            var info = stat()
            #expect(stat(path, &info) == 0)
            // Owner read/write, group read, nothing for others.
            #expect(info.st_mode & 0o777 == 0o640)
            #expect(path.hasPrefix(daemon.root.appendingPathComponent("cache/images/renditions").path))
            #expect(image?["averageColor"]?.stringValue?.count == 7)
        }
        // The notice's thumbnail fills the 48-point square of its section at 3x: 144 × 144.
        let notice = try #require(withImages.first { $0["kind"]?.stringValue == "notice" })
        #expect(notice["content"]?["image"]?["pixelWidth"]?.intValue == 144)
        #expect(notice["content"]?["image"]?["pixelHeight"]?.intValue == 144)
        let status = try daemon.call("io.homefeed.GetStatus")
        #expect(status["images"]?["errors"]?.arrayValue?.isEmpty == true)

        // Renditions are made once: a new version (a history event) reuses every file.
        let renditions = status["images"]?["renditions"]?.intValue
        _ = try daemon.call("io.homefeed.RecordHistory", ["title": "도서관"])
        _ = try daemon.call("io.homefeed.Refresh")
        #expect(try daemon.call("io.homefeed.GetStatus")["images"]?["renditions"]?.intValue == renditions)

        let svg = daemon.root.appendingPathComponent("home.svg").path
        let preview = try CommandRunner(executable: "homefeedctl").run([
            "preview", "--profile", "phone", "--svg", svg, "--socket", daemon.socketPath,
        ])
        #expect(preview.status == 0)
        // Drawn as text at most 1 000 columns wide, as --columns allows, whatever $COLUMNS says.
        let text = try CommandRunner(executable: "homefeedctl").run(
            ["preview", "--profile", "phone", "--socket", daemon.socketPath],
            environment: ["COLUMNS": "9223372036854775807"]
        )
        #expect(text.status == 0)
        #expect(text.stdout.split(separator: "\n").allSatisfy { $0.count <= 1000 })
        #expect(text.stdout.split(separator: "\n").contains { $0.count == 1000 })
        let drawn = try String(contentsOfFile: svg, encoding: .utf8)
        // 4 items with images fit the phone's first screen and beyond: every one is drawn.
        #expect(drawn.components(separatedBy: "<image ").count - 1 == 15)
        // Images ready (url, pixel size, average colour) match docs/manifest.schema.json.
        let violations = try daemon.manifestSchemaViolations()
        #expect(violations.isEmpty, "\(violations.joined(separator: "\n"))")
        #expect(daemon.stop() == 0)
    }

    @Test("hostile images and pages: a clear error each, placeholders kept, bounded memory, the daemon serving")
    func hostile() async throws {
        let server = try await FixtureServer.start(favicon: false)
        let key = UUID().uuidString.lowercased()
        let daemon = try DaemonHarness()
        try Data(
            """
            <?xml version="1.0"?>
            <opml version="2.0"><body>
            <outline type="rss" text="Hostile" xmlUrl="\(server.url("/hostilefeed/\(key)"))"/>
            <outline type="link" text="Links" url="\(server.url("/hostilelinks/\(key)/links.opml"))"/>
            </body></opml>
            """.utf8
        ).write(to: daemon.configDirectory.appendingPathComponent("sources.opml"))
        try Data(
            """
            [profile phone]
            width = 375
            height = 812
            scale = 2
            [section mainService]
            items = notices:10
            [section otherService]
            items = services/other-service
            """.utf8
        ).write(to: daemon.configDirectory.appendingPathComponent("homefeedd.conf"))
        try daemon.start()
        let before = try #require(daemon.memoryKiB("VmHWM"))
        let refreshed = try daemon.call("io.homefeed.Refresh")
        #expect(refreshed["attempted"]?.intValue == 2)

        let status = try daemon.call("io.homefeed.GetStatus")
        var errors: [String: String] = [:]
        for line in status["images"]?["errors"]?.arrayValue ?? [] {
            if let url = line["url"]?.stringValue, let error = line["error"]?.stringValue { errors[url] = error }
        }
        let expected: [(url: String, says: String)] = [
            (server.url("/hugepng/\(key)-huge"), "header claims 100000×100000 pixels, more than the limit of 40 MP"),
            (server.url("/img/\(key)-truncated?name=photo.jpg&cut=400"), "VipsJpeg: Premature end of input file"),
            // libnsgif stops counting at 4097; either way more than the limit.
            (server.url("/frames/\(key)-frames"), "frames, more than 1000; refused"),
            (server.url("/svg/\(key)-svg"), "SVG is not rendered"),
            (server.url("/polyglot/\(key)-polyglot"), "not an image: the body is HTML or XML (served as image/png)"),
            (
                server.url("/redirect/\(key)-passwd?code=302&to=file:///etc/passwd"),
                "redirect to file:///etc/passwd refused"
            ),
            (server.url("/page/\(key)-endless?variant=endless"), "its <head> did not end within 524288 bytes"),
            (server.url("/page/\(key)-links?variant=links"), "HTTP 404"),
        ]
        for (url, says) in expected {
            let error = errors[url]
            #expect(error?.contains(says) == true, "\(url): \(error ?? "no error")")
        }
        #expect(errors.count == expected.count, "\(errors)")
        // No byte of /etc/passwd anywhere in the cache, and the SVG's reference never fetched.
        #expect(try await server.requests(key + "-svgref").isEmpty)

        let reply = try daemon.call("io.homefeed.GetManifest", ["profile": "phone"])
        let shown = items(reply)
        let good = try #require(shown.first { $0["content"]?["title"]?.stringValue == "good" })
        #expect(good["content"]?["image"]?["url"]?.stringValue != nil)
        // Icons found on pages: an apple-touch-icon, and a web app manifest's.
        for title in ["icons", "manifest"] {
            let item = try #require(shown.first { $0["content"]?["title"]?.stringValue == title }, "\(title)")
            #expect(item["content"]?["image"]?["url"]?.stringValue != nil, "\(title) shows no icon")
        }
        for title in ["huge", "truncated", "frames", "svg", "polyglot", "passwd", "endless", "links"] {
            let item = try #require(shown.first { $0["content"]?["title"]?.stringValue == title }, "\(title)")
            #expect(item["content"]?["image"]?["url"] == nil, "\(title) shows an image")
        }

        // Every decode ran in the helper: the daemon's own peak grew by little.
        let after = try #require(daemon.memoryKiB("VmHWM"))
        // Measured: 3.6 MiB over the whole refresh (fetch buffers, parsed heads, the store);
        // the bound leaves room for allocator noise. Decoding happens in the helper, whose
        // memory is its own (ThumbnailRendererTests bound it).
        #expect(after - before < 24 << 10, "the daemon's peak RSS grew by \(after - before) KiB")
        #expect(try daemon.call("io.homefeed.GetStatus")["version"]?.intValue ?? 0 > 0)
        // Items whose image failed (no `image`) beside ready ones match the schema.
        let violations = try daemon.manifestSchemaViolations()
        #expect(violations.isEmpty, "\(violations.joined(separator: "\n"))")
        #expect(daemon.stop() == 0)
    }
}
