import Foundation
import Testing
import Varlink

/// `docs/manifest.schema.json` against what the real daemon serves, with the Python
/// `jsonschema` validator: every profile and an ad-hoc container, empty and filled, measured
/// sizes, a subscription's changes; and a manifest that breaks the schema is rejected.
@Suite(.timeLimit(.minutes(2)))
struct ManifestSchemaTests {
    /// The profiles of the sample `feeds/homefeedd.conf`.
    static let profiles = ["phone", "phone-large", "tablet", "kiosk"]

    static func items(_ reply: [String: JSONValue]) -> [JSONValue] {
        (reply["manifest"]?["sections"]?.arrayValue ?? []).flatMap { $0["items"]?.arrayValue ?? [] }
    }

    @Test("every manifest served validates: all profiles, a container, empty states, content, every sizing, changes")
    func served() async throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        let container: [String: JSONValue] = ["width": 500, "height": 900, "scale": 2]
        // Empty states first: --no-fetch and a fresh store, so no notices and no history yet.
        for profile in Self.profiles { _ = try daemon.call("io.homefeed.GetManifest", ["profile": .string(profile)]) }
        _ = try daemon.call("io.homefeed.GetManifest", container)

        let subscriber = try daemon.client()
        defer { subscriber.close() }
        var stream = subscriber.replies(
            "io.homefeed.GetManifest",
            parameters: ["profile": "phone", "changes": true]
        ).makeAsyncIterator()
        var subscription = [try #require(try await stream.next()?.parameters.object)]

        _ = try daemon.call("io.homefeed.Refresh")
        _ = try daemon.call("io.homefeed.RecordHistory", ["title": "도서관 좌석 예약", "link": "https://example.test/l"])
        for profile in Self.profiles { _ = try daemon.call("io.homefeed.GetManifest", ["profile": .string(profile)]) }
        let filled = try daemon.call("io.homefeed.GetManifest", container)
        let estimated = try #require(
            Self.items(filled).first { $0["sizing"]?.stringValue == "estimated" }?["id"]?.stringValue
        )
        let report = try daemon.call(
            "io.homefeed.ReportSizes",
            container.merging(["sizes": [["id": .string(estimated), "height": 57]]]) { $1 }
        )
        _ = try daemon.call("io.homefeed.GetManifest", container)
        // ifNoneMatch with the current etag: the reply without its manifest.
        let phone = try daemon.call("io.homefeed.GetManifest", ["profile": "phone"])
        _ = try daemon.call("io.homefeed.GetManifest", ["profile": "phone", "ifNoneMatch": phone["etag"] ?? .null])
        _ = try daemon.call(
            "io.homefeed.ReportSizes",
            ["profile": "phone", "sizes": [["id": .string(estimated), "height": 51]]]
        )
        let last = try daemon.call("io.homefeed.GetStatus")["version"]?.intValue ?? 0
        while (subscription.last?["version"]?.intValue ?? .max) < last {
            subscription.append(try #require(try await stream.next()?.parameters.object))
        }

        // What was validated covers the cases the schema describes.
        let everything = daemon.manifestReplies + subscription
        let allItems = everything.flatMap(Self.items)
        #expect(allItems.contains { $0["kind"]?.stringValue == "placeholder" })
        #expect(
            Set(allItems.compactMap { $0["kind"]?.stringValue }) == ["placeholder", "history", "notice", "service"]
        )
        #expect(allItems.contains { $0["sizing"]?.stringValue == "measured" })
        // The sample's headline is measured by the daemon (when its fonts are installed).
        #expect(allItems.contains { $0["sizing"]?.stringValue == "computed" })
        #expect(report["ignored"]?.arrayValue == [])
        #expect(everything.contains { $0["manifest"] == nil })
        #expect(everything.contains { $0["manifest"]?["profile"] == .null })
        #expect(subscription.dropFirst().contains { $0["changes"]?["since"]?.intValue != nil })
        let orthogonal = everything.flatMap { $0["manifest"]?["sections"]?.arrayValue ?? [] }
            .filter { $0["orthogonal"]?.objectValue != nil }
        #expect(!orthogonal.isEmpty)

        let violations = try daemon.manifestSchemaViolations(subscription)
        #expect(violations.isEmpty, "\(violations.joined(separator: "\n"))")
        daemon.stop()
    }

    @Test("a manifest that breaks the schema is rejected, naming where")
    func rejectsWrongManifests() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        _ = try daemon.call("io.homefeed.Refresh")
        let reply = try daemon.call("io.homefeed.GetManifest", ["profile": "phone"])
        daemon.stop()
        #expect(try ManifestSchema.violations([reply]).isEmpty)

        // One change per reply, each against a different rule of the schema.
        func changed(_ edit: (inout [String: JSONValue]) -> Void) -> [String: JSONValue] {
            var manifest = reply["manifest"]?.objectValue ?? [:]
            edit(&manifest)
            return reply.merging(["manifest": .object(manifest)]) { $1 }
        }
        func editItem(_ manifest: inout [String: JSONValue], _ edit: (inout [String: JSONValue]) -> Void) {
            guard var sections = manifest["sections"]?.arrayValue, var section = sections[1].objectValue,
                var items = section["items"]?.arrayValue, var item = items[0].objectValue
            else { return }
            edit(&item)
            items[0] = .object(item)
            section["items"] = .array(items)
            sections[1] = .object(section)
            manifest["sections"] = .array(sections)
        }
        let wrong: [[String: JSONValue]] = [
            changed { $0["etag"] = nil },
            changed { editItem(&$0) { $0["sizing"] = "guessed" } },
            changed { editItem(&$0) { $0["colour"] = "red" } },
            changed { $0["schema"] = "homefeed.manifest/2" },
            changed { $0["generatedAt"] = "2026-12-01 15:41" },
            changed { editItem(&$0) { $0["content"] = ["image": ["url": "file:///x.png"]] } },
            reply.merging(["changes": ["since": 3, "inserted": []]]) { $1 },
        ]
        let violations = try ManifestSchema.violations(wrong)
        let expected = [
            "reply 0 $.manifest: 'etag' is a required property",
            "reply 1 $.manifest.sections[1].items[0].sizing: 'guessed' is not one of",
            "reply 2 $.manifest.sections[1].items[0]: Additional properties are not allowed ('colour' was unexpected)",
            "reply 3 $.manifest.schema: 'homefeed.manifest/1' was expected",
            "reply 4 $.manifest.generatedAt: '2026-12-01 15:41' does not match",
            "reply 5 $.manifest.sections[1].items[0].content.image",
            "reply 6 $.changes",
        ]
        for (index, prefix) in expected.enumerated() {
            #expect(
                violations.contains { $0.hasPrefix(prefix) },
                "reply \(index): expected \(prefix), got \(violations.filter { $0.hasPrefix("reply \(index) ") })"
            )
        }
        // Nothing but the broken replies is reported.
        #expect(Set(violations.compactMap { $0.split(separator: " ").dropFirst().first }).count == wrong.count)
    }
}
