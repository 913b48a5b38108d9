import CommandTable
import Foundation
import TestSupport
import Testing
import Varlink

/// Self-sizing across the socket: the real `homefeedd`, a subscriber asking for changes, sizes
/// reported from another connection and by `homefeedctl sizes`.
@Suite(.timeLimit(.minutes(2)))
struct SizesTests {
    func sections(_ parameters: [String: JSONValue]) -> [JSONValue] {
        parameters["manifest"]?["sections"]?.arrayValue ?? []
    }

    /// The ids of a section's elements in manifest order: header, footer, supplementaries, items.
    func ids(_ section: JSONValue) -> [String] {
        var ids: [String] = []
        for key in ["header", "footer"] {
            if let id = section[key]?["id"]?.stringValue { ids.append(id) }
        }
        for key in ["supplementaries", "items"] {
            ids += (section[key]?.arrayValue ?? []).compactMap { $0["id"]?.stringValue }
        }
        return ids
    }

    @Test("a subscriber with changes gets the re-solved manifest and the moved ids after a ReportSizes elsewhere")
    func reportToSubscriber() async throws {
        let daemon = try DaemonHarness()
        // Client reports alone: the headline keeps its estimate (TextTests measure it).
        let settings = daemon.configDirectory.appendingPathComponent("homefeedd.conf")
        try String(contentsOf: settings, encoding: .utf8).replacingOccurrences(of: "text = 0:headline\n", with: "")
            .write(to: settings, atomically: true, encoding: .utf8)
        try daemon.start()
        _ = try daemon.call("io.homefeed.Refresh")
        let subscriber = try daemon.client()
        defer { subscriber.close() }
        var stream = subscriber.replies(
            "io.homefeed.GetManifest",
            parameters: ["profile": "phone", "changes": true]
        ).makeAsyncIterator()
        let first = try #require(try await stream.next()?.parameters.object)
        #expect(first["changes"] == nil)
        let before = sections(first)
        let headline = try #require(before[1]["items"]?.arrayValue?.first)
        let id = try #require(headline["id"]?.stringValue)
        #expect(headline["frame"]?["height"]?.doubleValue == 25)
        #expect(headline["sizing"]?.stringValue == "estimated")

        let report = try daemon.call(
            "io.homefeed.ReportSizes",
            ["profile": "phone", "sizes": [["id": .string(id), "height": 45]]]
        )
        let version = try #require(report["version"]?.intValue)
        #expect(report["ignored"]?.arrayValue == [])
        var pushed: [String: JSONValue] = [:]
        repeat {
            pushed = try #require(try await stream.next()?.parameters.object)
        } while (pushed["version"]?.intValue ?? .max) < version
        let after = sections(pushed)
        let measured = try #require(after[1]["items"]?.arrayValue?.first)
        #expect(measured["frame"]?["height"]?.doubleValue == 45)
        #expect(measured["sizing"]?.stringValue == "measured")
        // Everything from the headline down moved (20 lower, or taller); nothing else changed.
        let changes = try #require(pushed["changes"])
        #expect(changes["since"]?.intValue == first["version"]?.intValue)
        #expect(changes["moved"]?.arrayValue?.compactMap(\.stringValue) == before.dropFirst().flatMap(ids))
        #expect(changes["inserted"]?.arrayValue == [])
        #expect(changes["deleted"]?.arrayValue == [])
        #expect(changes["updated"]?.arrayValue == [])

        // A report that moves nothing makes no version.
        let same = try daemon.call(
            "io.homefeed.ReportSizes",
            ["profile": "phone", "sizes": [["id": .string(id), "height": 45]]]
        )
        #expect(same["version"]?.intValue == version)
        // The subscription's replies (estimated, then measured with changes) match the schema.
        let violations = try daemon.manifestSchemaViolations([first, pushed])
        #expect(violations.isEmpty, "\(violations.joined(separator: "\n"))")
        daemon.stop()
    }

    @Test("bad sizes are InvalidSize errors naming the id; unknown ids are ignored")
    func errors() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        do {
            _ = try daemon.call(
                "io.homefeed.ReportSizes",
                ["sizes": [["id": "a", "height": 4], ["id": "b", "height": -1]]]
            )
            Issue.record("accepted a negative height")
        } catch let error as VarlinkClientError {
            guard case .errorReply(let reply) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(reply.name == "io.homefeed.InvalidSize")
            #expect(reply.parameters["id"] == "b")
        }
        let reply = try daemon.call("io.homefeed.ReportSizes", ["sizes": [["id": "nope", "height": 4]]])
        #expect(reply["ignored"]?.arrayValue == ["nope"])
        daemon.stop()
    }

    @Test("homefeedctl sizes report, list and clear")
    func command() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        _ = try daemon.call("io.homefeed.Refresh")
        let manifest = try daemon.call("io.homefeed.GetManifest", ["profile": "phone"])
        let id = try #require(sections(manifest)[1]["items"]?.arrayValue?.first?["id"]?.stringValue)
        let ctl = CommandRunner(executable: "homefeedctl")
        let socket = ["--socket", daemon.socketPath]

        let report = try ctl.run(["sizes", "report", "--profile", "phone", "\(id)=45", "nope=3x"] + socket)
        #expect(report.status == 0, "\(report.stderr)")
        #expect(report.stdout.contains("ignored: nope"))
        let list = try ctl.run(["sizes", "list", "--json"] + socket)
        let sizes = try #require(try JSONValue(parsing: list.stdout)["sizes"]?.arrayValue)
        #expect(sizes.map { $0["id"] } == [.string(id)])
        #expect(sizes.first?["target"] == "profile:phone")
        #expect(sizes.first?["height"]?.doubleValue == 45)
        #expect(sizes.first?["width"] == .null)
        let clear = try ctl.run(["sizes", "clear"] + socket)
        #expect(clear.stdout.hasPrefix("cleared 1; version "))

        // Decimal numbers only, as every option's: not "tall", not hex (0X10 is 16 to Double).
        for size in ["tall", "0X10", "5xnan", "1e999"] {
            #expect(try ctl.run(["sizes", "report", "\(id)=\(size)"] + socket).status == ExitStatus.usage, "\(size)")
        }
        #expect(try ctl.run(["sizes", "resize"]).status == ExitStatus.usage)
        #expect(try ctl.run(["sizes", "--help"]).stdout.contains("ID=SIZE"))
        daemon.stop()
    }

    @Test("layout solve --measurements re-fits offline; a bad file names the entry")
    func solveWithMeasurements() throws {
        let ctl = CommandRunner(executable: "homefeedctl")
        let scratch = try TemporaryDirectory(prefix: "hf-ctl")
        defer { withExtendedLifetime(scratch) {} }  // removed on release
        let file = try scratch.write(#"[{"section": "mainService", "item": 0, "height": 45}]"#, to: "sizes.json")
        let outcome = try ctl.run(
            ["layout", "solve", "feeds/layout.json", "--width", "375", "--scale", "2", "--measurements", file]
        )
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let root = try JSONValue(parsing: outcome.stdout)
        // 977 without measurements; the headline grows from 25 to 45.
        #expect(root["contentSize"]?["height"]?.doubleValue == 997)
        let headline = root["sections"]?.arrayValue?[1]["items"]?.arrayValue?.first
        #expect(headline?["sizing"]?.stringValue == "measured")
        #expect(headline?["frame"]?["height"]?.doubleValue == 45)

        let bad = try scratch.write(#"[{"section": "nope", "item": 0, "height": 4}]"#, to: "bad.json")
        let failed = try ctl.run(["layout", "solve", "feeds/layout.json", "--width", "375", "--measurements", bad])
        #expect(failed.status == 1)
        #expect(failed.stderr.contains("[0].section: no section \"nope\" in the spec"))
    }
}
