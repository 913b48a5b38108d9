import CommandTable
import Foundation
import TestSupport
import Testing
import Varlink

/// `homefeedd` as clients see it: the real binary, a real socket, Varlink calls.
@Suite(.timeLimit(.minutes(2)))
struct DaemonTests {
    func sections(_ reply: [String: JSONValue]) -> [JSONValue] { reply["manifest"]?["sections"]?.arrayValue ?? [] }

    func kinds(_ section: JSONValue) -> [String] {
        (section["items"]?.arrayValue ?? []).compactMap { $0["kind"]?.stringValue }
    }

    @Test("watch prints each version once and, when the daemon stops, says it ended the subscription; exit 69")
    func watchEnds() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        let errors = daemon.root.appendingPathComponent("watch.err").path
        let watch = try ChildProcess(
            BuiltProducts.path("homefeedctl"),
            ["watch", "--profile", "phone", "--socket", daemon.socketPath],
            stdout: .pipe,
            stderr: .file(errors)
        )
        let first = try #require(watch.readLine(seconds: 30))
        #expect(first.hasPrefix("version "))
        // The daemon's final reply repeats that version: not printed again.
        daemon.stop()
        #expect(watch.waitForExit() == ExitStatus.unavailable)
        #expect(watch.readLine(seconds: 5) == nil)
        #expect(
            try String(contentsOfFile: errors, encoding: .utf8) == "homefeedctl: the daemon ended the subscription\n"
        )
    }

    @Test("all four sections with their headers and content; the service describes itself")
    func fourSections() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        let refreshed = try daemon.call("io.homefeed.Refresh")
        #expect(refreshed["attempted"]?.intValue == 3)
        let reply = try daemon.call("io.homefeed.GetManifest", ["profile": "phone"])
        let all = sections(reply)
        #expect(
            all.compactMap { $0["id"]?.stringValue } == ["userHistory", "mainService", "otherService", "appService"]
        )
        #expect(all[0]["header"]?["content"]?["title"]?.stringValue == "김홈피드")
        #expect(kinds(all[1]) == ["notice", "service", "service", "service"])
        #expect(kinds(all[2]).count == 5)
        #expect(all[2]["orthogonal"]?["restOffsets"]?.arrayValue?.count == 5)
        #expect(all[3]["header"]?["content"]?["title"]?.stringValue == "앱 서비스")
        #expect(reply["container"]?["width"]?.doubleValue == 375)

        let info = try daemon.call("org.varlink.service.GetInfo")
        #expect(info["interfaces"]?.arrayValue?.compactMap(\.stringValue).contains("io.homefeed") == true)
        let description = try daemon.call("org.varlink.service.GetInterfaceDescription", ["interface": "io.homefeed"])
        let documented = try String(
            contentsOf: CommandRunner.packageRoot.appendingPathComponent("docs/io.homefeed.varlink"),
            encoding: .utf8
        )
        #expect(
            description["description"]?.stringValue?.trimmingCharacters(in: .newlines)
                == documented.trimmingCharacters(in: .newlines)
        )
        let violations = try daemon.manifestSchemaViolations()
        #expect(violations.isEmpty, "\(violations.joined(separator: "\n"))")
        #expect(daemon.stop() == 0)
    }

    @Test("a history event pushes a new version to every subscriber")
    func subscriptions() async throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        let subscribers = try (0..<3).map { _ in try daemon.client() }
        var streams = subscribers.map {
            $0.replies("io.homefeed.GetManifest", parameters: ["profile": "phone"]).makeAsyncIterator()
        }
        var first: [Int] = []
        for index in streams.indices {
            let reply = try #require(try await streams[index].next())
            #expect(reply.continues)
            first.append(reply.parameters.object?["version"]?.intValue ?? -1)
        }
        let recorded = try daemon.call("io.homefeed.RecordHistory", ["title": "셔틀버스 시간표", "kind": "open"])
        let version = try #require(recorded["version"]?.intValue)
        #expect(first.allSatisfy { $0 < version })
        for index in streams.indices {
            var latest: VarlinkReply?
            repeat {
                latest = try await streams[index].next()
            } while (latest?.parameters.object?["version"]?.intValue ?? .max) < version
            let history = sections(latest?.parameters.object ?? [:]).first?["items"]?.arrayValue?.first
            #expect(history?["content"]?["title"]?.stringValue == "셔틀버스 시간표")
            #expect(history?["id"]?.stringValue == "history:\(recorded["id"]?.intValue ?? 0)")
        }
        let status = try daemon.call("io.homefeed.GetStatus")
        #expect(status["subscribers"]?.intValue == 3)
        // On SIGTERM every subscriber gets a final reply (no `continues`), then the call ends.
        #expect(daemon.stop() == 0)
        let last = try await streams[0].next()
        #expect(last?.continues == false)
        #expect(last?.parameters.object?["manifest"] != nil)
        for client in subscribers { client.close() }
    }

    @Test("a feed change and Refresh put the new notice in the headline; ifNoneMatch saves the transfer")
    func feedChange() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        _ = try daemon.call("io.homefeed.Refresh")
        let feed = daemon.configDirectory.appendingPathComponent("samples/notices-ko.xml")
        var xml = try String(contentsOf: feed, encoding: .utf8)
        xml = xml.replacingOccurrences(
            of: "<item>",
            with: """
                <item><title>긴급: 오늘 휴강</title><link>https://example.test/notices/1043</link>
                <guid isPermaLink="false">notice-1043</guid><pubDate>Sun, 29 Nov 2026 09:00:00 +0900</pubDate></item>
                <item>
                """,
            options: [],
            range: xml.range(of: "<item>")
        )
        try Data(xml.utf8).write(to: feed)
        let before = try daemon.call("io.homefeed.GetManifest")
        let refreshed = try daemon.call("io.homefeed.Refresh", ["url": .string(feed.absoluteString)])
        #expect(refreshed["changed"]?.intValue == 1)
        let after = try daemon.call("io.homefeed.GetManifest")
        let headline = sections(after)[1]["items"]?.arrayValue?.first
        #expect(headline?["content"]?["title"]?.stringValue == "긴급: 오늘 휴강")
        #expect(headline?["id"]?.stringValue?.hasSuffix(":notice-1043") == true)
        #expect(after["etag"] != before["etag"])
        let unchanged = try daemon.call("io.homefeed.GetManifest", ["ifNoneMatch": after["etag"] ?? .null])
        #expect(unchanged["manifest"] == nil)
        #expect(unchanged["etag"] == after["etag"])
        daemon.stop()
    }

    @Test("a feed title of a megabyte is served cut to 4 096 bytes at a character boundary, the manifest small")
    func megabyteTitle() throws {
        let daemon = try DaemonHarness()
        // 8 bytes, then 371 × (한 👍🏽) make 4 089, 한 4 092: the next 4 bytes (👍) would fit,
        // but its skin tone would not, and the two are one character.
        let title = "abcdefgh" + String(repeating: "한👍🏽", count: 90_000)
        let feed = daemon.configDirectory.appendingPathComponent("samples/notices-ko.xml")
        let xml = try String(contentsOf: feed, encoding: .utf8).replacingOccurrences(
            of: "<title>2026학년도 겨울 계절학기 수강신청 안내</title>",
            with: "<title>\(title)</title>"
        )
        try Data(xml.utf8).write(to: feed)
        try daemon.start()
        _ = try daemon.call("io.homefeed.Refresh")
        let reply = try daemon.call("io.homefeed.GetManifest", ["profile": "phone"])
        let served = try #require(sections(reply)[1]["items"]?.arrayValue?.first?["content"]?["title"]?.stringValue)
        #expect(served.utf8.count == 4_092)
        #expect(served.hasSuffix("👍🏽한"))
        #expect(String(title.prefix(served.count)) == served)
        #expect(JSONValue.object(reply).encodedString.utf8.count < 100_000)
        #expect(try daemon.manifestSchemaViolations() == [])
        daemon.stop()
    }

    @Test("a client polling with ifNoneMatch on one connection gets the new manifest as soon as there is one")
    func pollingConnection() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        let poller = try daemon.client()
        defer { poller.close() }
        let first = try poller.call("io.homefeed.GetManifest", parameters: ["profile": "phone"])
        let poll: [String: JSONValue] = ["profile": "phone", "ifNoneMatch": first["etag"] ?? .null]
        // The same bytes again and again: answered from the connection's remembered reply.
        for _ in 0..<3 {
            let unchanged = try poller.call("io.homefeed.GetManifest", parameters: poll)
            #expect(unchanged["manifest"] == nil)
            #expect(unchanged["etag"] == first["etag"])
        }
        let recorded = try daemon.call("io.homefeed.RecordHistory", ["title": "도서관 좌석 예약", "kind": "open"])
        let changed = try poller.call("io.homefeed.GetManifest", parameters: poll)
        #expect(changed["version"] == recorded["version"])
        #expect(changed["etag"] != first["etag"])
        let history = sections(changed).first?["items"]?.arrayValue?.first
        #expect(history?["content"]?["title"]?.stringValue == "도서관 좌석 예약")
        let next: [String: JSONValue] = ["profile": "phone", "ifNoneMatch": changed["etag"] ?? .null]
        #expect(try poller.call("io.homefeed.GetManifest", parameters: next)["manifest"] == nil)
        daemon.stop()
    }

    struct ErrorCase: Sendable, CustomTestStringConvertible {
        var method: String
        var parameters: [String: JSONValue]
        var error: String
        var testDescription: String { "\(method) → \(error)" }
    }

    @Test(
        "unknown interfaces, methods and parameters, and the interface's own errors",
        arguments: [
            ErrorCase(method: "com.example.Nope", parameters: [:], error: "org.varlink.service.InterfaceNotFound"),
            ErrorCase(method: "io.homefeed.Nope", parameters: [:], error: "org.varlink.service.MethodNotFound"),
            ErrorCase(
                method: "io.homefeed.GetStatus",
                parameters: ["bogus": 1],
                error: "org.varlink.service.InvalidParameter"
            ),
            ErrorCase(
                method: "io.homefeed.GetManifest",
                parameters: ["profile": 7],
                error: "org.varlink.service.InvalidParameter"
            ),
            ErrorCase(
                method: "io.homefeed.GetManifest",
                parameters: ["profile": "watch"],
                error: "io.homefeed.UnknownProfile"
            ),
            ErrorCase(
                method: "io.homefeed.GetManifest",
                parameters: ["width": -5, "height": 10],
                error: "io.homefeed.InvalidContainer"
            ),
            ErrorCase(
                method: "io.homefeed.Refresh",
                parameters: ["url": "file:///nope.xml"],
                error: "io.homefeed.SourceNotFound"
            ),
            ErrorCase(
                method: "io.homefeed.RecordHistory",
                parameters: ["title": ""],
                error: "io.homefeed.InvalidArgument"
            ),
            ErrorCase(
                method: "io.homefeed.ListNotices",
                parameters: ["limit": 0],
                error: "io.homefeed.InvalidArgument"
            ),
        ]
    )
    func errors(_ c: ErrorCase) throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        do {
            _ = try daemon.call(c.method, c.parameters)
            Issue.record("no error for \(c.method)")
        } catch let error as VarlinkClientError {
            guard case .errorReply(let reply) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(reply.name == c.error)
        }
        #expect(try daemon.call("io.homefeed.GetStatus")["version"] != nil)
        daemon.stop()
    }

    @Test("a restarted daemon serves the persisted manifest before any fetch")
    func restart() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        _ = try daemon.call("io.homefeed.Refresh")
        let before = try daemon.call("io.homefeed.GetManifest", ["profile": "tablet"])
        #expect(daemon.stop() == 0)
        try daemon.start(["--no-fetch"])
        let after = try daemon.call("io.homefeed.GetManifest", ["profile": "tablet"])
        #expect(after["etag"] == before["etag"])
        #expect(kinds(sections(after)[1]).first == "notice")
        daemon.stop()
    }

    @Test("malformed and oversized messages close only their connection; a client that never reads slows no one")
    func badClients() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        func rawSocket() throws -> Int32 {
            let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { buffer in
                for (index, byte) in daemon.socketPath.utf8.enumerated() { buffer[index] = byte }
            }
            let result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                }
            }
            guard result == 0 else { throw HarnessError("connect failed") }
            return fd
        }
        func sendAll(_ fd: Int32, _ bytes: [UInt8]) {
            var offset = 0
            while offset < bytes.count {
                let sent = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                if sent <= 0 { return }
                offset += sent
            }
        }
        func readsEOF(_ fd: Int32) -> Bool {
            var buffer = [UInt8](repeating: 0, count: 4096)
            var timeout = timeval(tv_sec: 10, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            while true {
                let count = recv(fd, &buffer, buffer.count, 0)
                if count == 0 { return true }
                if count < 0 { return errno == ECONNRESET }
            }
        }

        let malformed = try rawSocket()
        sendAll(malformed, Array("{this is not json".utf8) + [0])
        #expect(readsEOF(malformed))
        close(malformed)

        let noMethod = try rawSocket()
        sendAll(noMethod, Array(#"{"parameters": {}}"#.utf8) + [0])
        #expect(readsEOF(noMethod))
        close(noMethod)

        let oversized = try rawSocket()
        sendAll(
            oversized,
            Array(#"{"method": "io.homefeed.GetStatus", "parameters": {"x": ""#.utf8)
                + [UInt8](repeating: 0x61, count: 2 << 20)
        )
        #expect(readsEOF(oversized))
        close(oversized)

        // A subscriber that never reads while versions pile up.
        let stuck = try rawSocket()
        sendAll(stuck, Array(#"{"method": "io.homefeed.GetManifest", "more": true}"#.utf8) + [0])
        for index in 0..<30 {
            _ = try daemon.call("io.homefeed.RecordHistory", ["title": .string("event \(index)")])
        }
        let status = try daemon.call("io.homefeed.GetStatus")
        #expect(status["version"]?.intValue ?? 0 >= 31)
        close(stuck)
        #expect(daemon.stop() == 0)
    }

    @Test("a stock third-party client (Python varlink) reads the manifest and subscribes")
    func pythonClient() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        let script = """
            import sys, varlink
            with varlink.Client(address="unix:" + sys.argv[1]) as client:
                with client.open("io.homefeed") as homefeed:
                    status = homefeed.GetStatus()
                    reply = homefeed.GetManifest(profile="kiosk")
                    ids = [s["id"] for s in reply["manifest"]["sections"]]
                    print(status["version"], reply["container"]["width"], ",".join(ids))
                # A subscription (more: true) on its own connection: the current manifest, then a
                # push for the history event recorded from a second connection.
                with client.open("io.homefeed") as subscriber, client.open("io.homefeed") as other:
                    versions = []
                    for update in subscriber.GetManifest(profile="phone", _more=True):
                        versions.append(update["version"])
                        if len(versions) == 1:
                            other.RecordHistory(title="python")
                        else:
                            break
                    print("pushed", versions[1] > versions[0])
            """
        let outcome = try CommandRunner(executable: "/usr/bin/env").run(["python3", "-c", script, daemon.socketPath])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.contains("1280.0 userHistory,mainService,otherService,appService\n"))
        #expect(outcome.stdout.hasSuffix("pushed True\n"))
        daemon.stop()
    }

    @Test("a subscription whose profile a reload removes ends with UnknownProfile")
    func subscriptionLosesProfile() async throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        let subscriber = try daemon.client()
        var stream = subscriber.replies("io.homefeed.GetManifest", parameters: ["profile": "kiosk"]).makeAsyncIterator()
        #expect(try await stream.next()?.continues == true)
        let settings = daemon.configDirectory.appendingPathComponent("homefeedd.conf")
        let text = try String(contentsOf: settings, encoding: .utf8)
        let kiosk = try #require(text.range(of: "[profile kiosk]\nwidth = 1280\nheight = 720\nscale = 1\n"))
        try Data(text.replacingCharacters(in: kiosk, with: "").utf8).write(to: settings)
        _ = try daemon.call("io.homefeed.Reload")
        do {
            while let reply = try await stream.next(), reply.continues {}
            Issue.record("the subscription did not end with an error")
        } catch let error as VarlinkClientError {
            guard case .errorReply(let reply) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(reply.name == "io.homefeed.UnknownProfile")
        }
        subscriber.close()
        daemon.stop()
    }

    @Test("homefeedctl history: help and usage errors need no daemon")
    func historyUsage() throws {
        let ctl = CommandRunner(executable: "homefeedctl")
        let help = try ctl.run(["history", "--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("history add TITLE"))
        #expect(try ctl.run(["history", "--socket", "/tmp/none.sock", "list"]).status == ExitStatus.usage)
        #expect(try ctl.run(["history", "list", "--socket", "/tmp/hf-none.sock"]).status == 69)
    }
}
