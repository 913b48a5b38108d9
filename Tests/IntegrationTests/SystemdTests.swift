import Foundation
import TestSupport
import Testing
import Varlink

/// homefeedd under the service-manager protocols, exercised with real tools: a
/// `$NOTIFY_SOCKET` datagram receiver (path and abstract), `systemd-socket-activate`, the
/// sqlite3 CLI. No timing assertions: every wait is bounded, only order and content count.
@Suite(.timeLimit(.minutes(2)))
struct SystemdTests {
    static func monotonicMicroseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1_000
    }

    @Test(
        "path NOTIFY_SOCKET: READY, STATUS, watchdog pings, RELOADING + MONOTONIC_USEC then READY on SIGHUP, STOPPING on SIGTERM"
    )
    func notifyPath() async throws {
        let root = try ScratchRoot()
        let receiver = try NotifyReceiver(path: root.path("notify.sock"))
        let socket = root.path("s.sock")
        let daemon = try ChildProcess(
            SystemdTools.homefeedd,
            root.daemonArguments(socket: socket),
            environment: SystemdTools.cleanEnvironment([
                "NOTIFY_SOCKET": receiver.socketValue, "WATCHDOG_USEC": "100000",
            ]),
            log: root.logPath
        )
        let ready = try #require(receiver.await("READY=1"), "no READY=1: \(root.log())")
        #expect(
            NotifyReceiver.value("STATUS", in: ready) == "Serving version 1; sources: 3 ok, 0 failing; 0 subscribers"
        )
        // READY=1 means served: the first connection attempt must succeed.
        let client = try VarlinkClient(connectingTo: "unix:" + socket)
        #expect(try await client.call("io.homefeed.GetManifest")["version"]?.intValue == 1)

        // Watchdog pings keep coming (count only, not their cadence); a subscriber shows up
        // in STATUS= on a later ping.
        var subscription = client.replies("io.homefeed.GetManifest").makeAsyncIterator()
        #expect(try await subscription.next()?.continues == true)
        var pings = 0
        var sawSubscriber = false
        while pings < 5 || !sawSubscriber, let message = receiver.receive() {
            if NotifyReceiver.lines(message).contains("WATCHDOG=1") { pings += 1 }
            if NotifyReceiver.value("STATUS", in: message)?.hasSuffix("; 1 subscriber") == true { sawSubscriber = true }
        }
        #expect(pings >= 5)
        #expect(sawSubscriber)
        client.close()

        let before = Self.monotonicMicroseconds()
        daemon.signal(SIGHUP)
        let reloading = try #require(receiver.await("RELOADING=1"))
        let after = Self.monotonicMicroseconds()
        let stamp = try #require(NotifyReceiver.value("MONOTONIC_USEC", in: reloading).flatMap(UInt64.init))
        #expect(before <= stamp && stamp <= after)
        let reloaded = try #require(receiver.await("READY=1"))
        #expect(NotifyReceiver.value("STATUS", in: reloaded)?.hasPrefix("Serving version 2;") == true)

        daemon.signal(SIGTERM)
        #expect(receiver.await("STOPPING=1") != nil)
        #expect(daemon.wait() == 0)
        let order = receiver.messages.compactMap { message -> String? in
            let lines = NotifyReceiver.lines(message)
            return ["READY=1", "RELOADING=1", "STOPPING=1"].first(where: lines.contains)
        }
        #expect(order == ["READY=1", "RELOADING=1", "READY=1", "STOPPING=1"])
    }

    @Test("abstract @ NOTIFY_SOCKET (exact address length): Reload() notifies too; no pings for another WATCHDOG_PID")
    func notifyAbstract() throws {
        let root = try ScratchRoot()
        let receiver = try NotifyReceiver(path: nil)
        #expect(receiver.socketValue.hasPrefix("@"))
        let socket = root.path("s.sock")
        let daemon = try ChildProcess(
            SystemdTools.homefeedd,
            root.daemonArguments(socket: socket),
            environment: SystemdTools.cleanEnvironment([
                "NOTIFY_SOCKET": receiver.socketValue, "WATCHDOG_USEC": "20000", "WATCHDOG_PID": "1",
            ]),
            log: root.logPath
        )
        #expect(receiver.await("READY=1") != nil, "no READY=1 on \(receiver.socketValue): \(root.log())")
        let client = try VarlinkClient(connectingTo: "unix:" + socket)
        let reply = try client.call("io.homefeed.Reload")
        #expect(reply["version"]?.intValue == 2)
        client.close()
        let reloading = try #require(receiver.await("RELOADING=1"))
        #expect(NotifyReceiver.value("MONOTONIC_USEC", in: reloading).flatMap(UInt64.init) != nil)
        #expect(receiver.await("READY=1") != nil)
        daemon.signal(SIGTERM)
        #expect(receiver.await("STOPPING=1") != nil)
        #expect(daemon.wait() == 0)
        #expect(!receiver.messages.contains { NotifyReceiver.lines($0).contains("WATCHDOG=1") })
    }

    @Test("a broken configuration on reload is rejected with a <3> line and the old one keeps serving")
    func brokenReload() throws {
        let root = try ScratchRoot()
        let receiver = try NotifyReceiver(path: root.path("notify.sock"))
        let socket = root.path("s.sock")
        let daemon = try ChildProcess(
            SystemdTools.homefeedd,
            root.daemonArguments(socket: socket),
            environment: SystemdTools.cleanEnvironment([
                "NOTIFY_SOCKET": receiver.socketValue, "JOURNAL_STREAM": root.journalStream(),
            ]),
            log: root.logPath
        )
        #expect(receiver.await("READY=1") != nil, "no READY=1: \(root.log())")
        let client = try VarlinkClient(connectingTo: "unix:" + socket)
        let before = try client.call("io.homefeed.GetManifest")

        try Data("{ \"sections\": [".utf8).write(to: root.configDirectory.appendingPathComponent("layout.json"))
        daemon.signal(SIGHUP)
        #expect(receiver.await("RELOADING=1") != nil)
        let ready = try #require(receiver.await("READY=1"))
        #expect(NotifyReceiver.value("STATUS", in: ready)?.hasPrefix("Reload rejected") == true)
        let after = try client.call("io.homefeed.GetManifest")
        #expect(after["version"] == before["version"])
        #expect(after["etag"] == before["etag"])
        #expect(after["manifest"]?["sections"]?.arrayValue?.count == 4)

        do {
            _ = try client.call("io.homefeed.Reload")
            Issue.record("Reload() accepted a broken layout")
        } catch {
            guard case .errorReply(let reply) = error else { throw error }
            #expect(reply.name == "io.homefeed.InvalidLayout")
        }
        #expect(try client.call("io.homefeed.GetStatus")["version"] == before["version"])
        client.close()
        daemon.signal(SIGTERM)
        #expect(daemon.wait() == 0)
        let errors = root.log().split(separator: "\n").filter { $0.hasPrefix("<3>") }
        #expect(errors.contains { $0.contains("reload rejected") && $0.contains("layout.json") }, "log: \(root.log())")
    }

    @Test(
        "systemd-socket-activate: the client that connects before the daemon runs is served",
        .enabled(if: Host.has(SystemdTools.socketActivate), "needs systemd-socket-activate (Debian package systemd)")
    )
    func socketActivate() throws {
        let root = try ScratchRoot()
        let receiver = try NotifyReceiver(path: root.path("notify.sock"))
        let socket = root.path("a.sock")
        // The flag's path is never bound by the daemon: the socket must come from the tool.
        let daemon = try ChildProcess(
            SystemdTools.socketActivate,
            // -E: the tool consumes its own $NOTIFY_SOCKET; this one is for homefeedd.
            ["-l", socket, "--fdname=varlink", "-E", "NOTIFY_SOCKET=\(receiver.socketValue)", SystemdTools.homefeedd]
                + root.daemonArguments(socket: root.path("unused.sock")),
            environment: SystemdTools.cleanEnvironment(),
            log: root.logPath
        )
        try #require(SystemdTools.waitForFile(socket), "systemd-socket-activate did not listen: \(root.log())")
        // The tool execs homefeedd only when this connection arrives: it is queued, not lost.
        // The path exists from bind(2) on, a moment before listen(2): refused until then.
        var connected: VarlinkClient?
        for _ in 0..<1_000 where connected == nil {
            connected = try? VarlinkClient(connectingTo: "unix:" + socket)
            if connected == nil { usleep(10_000) }
        }
        let client = try #require(connected, "could not connect to \(socket): \(root.log())")
        #expect(try client.call("io.homefeed.GetManifest")["version"]?.intValue == 1)
        #expect(receiver.await("READY=1") != nil)
        client.close()
        daemon.signal(SIGTERM)
        #expect(daemon.wait() == 0)
        #expect(root.log().contains("on the socket passed by systemd"))
        #expect(!FileManager.default.fileExists(atPath: root.path("unused.sock")))
        // The daemon never unlinks a socket it was given.
        #expect(FileManager.default.fileExists(atPath: socket))
    }

    @Test(
        "restarted on the same activated socket, the daemon serves the connection queued while it was down",
        .enabled(if: Host.has(SystemdTools.socketActivate), "needs systemd-socket-activate (Debian package systemd)")
    )
    func restartKeepsQueuedConnection() throws {
        let root = try ScratchRoot()
        let socket = root.path("a.sock")
        // The test holds the listening socket as PID 1 holds homefeed.socket's; each start goes
        // through systemd-socket-activate, which takes it from $LISTEN_FDS and execs homefeedd.
        let listener = try SystemdTools.listeningSocket(at: socket)
        defer { close(listener) }
        func start() throws -> ChildProcess {
            try ChildProcess(
                "/bin/sh",
                [
                    "-c", "LISTEN_PID=$$ LISTEN_FDS=1 exec \"$0\" --fdname=varlink \"$@\"",
                    SystemdTools.socketActivate, SystemdTools.homefeedd,
                ] + root.daemonArguments(socket: root.path("unused.sock")),
                environment: SystemdTools.cleanEnvironment(),
                log: root.logPath,
                inheriting: listener
            )
        }
        let first = try start()
        let early = try VarlinkClient(connectingTo: "unix:" + socket)
        #expect(try early.call("io.homefeed.GetStatus")["history"]?.intValue == 0)
        early.close()
        first.signal(SIGTERM)
        #expect(first.wait() == 0)

        // No daemon runs now: this connection and its call wait in the socket's backlog.
        let queued = try VarlinkClient(connectingTo: "unix:" + socket)
        try queued.callOneway("io.homefeed.RecordHistory", parameters: ["title": "queued while restarting"])
        let second = try start()
        let status = try queued.call("io.homefeed.GetStatus")
        #expect(status["history"]?.intValue == 1)
        queued.close()
        second.signal(SIGTERM)
        #expect(second.wait() == 0)
        #expect(root.log().components(separatedBy: "on the socket passed by systemd").count == 3)
        #expect(try root.integrityCheck() == "ok")
    }

    @Test(
        "a passed fd that is not a listening AF_UNIX stream socket is refused; another process's LISTEN_PID is ignored"
    )
    func activationValidation() throws {
        let root = try ScratchRoot()
        let datagram = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        let fd = fcntl(datagram, F_DUPFD_CLOEXEC, 10)
        close(datagram)
        defer { close(fd) }
        let refused = try ChildProcess(
            "/bin/sh",
            [
                "-c", "LISTEN_PID=$$ LISTEN_FDS=1 LISTEN_FDNAMES=varlink exec \"$0\" \"$@\"", SystemdTools.homefeedd,
            ] + root.daemonArguments(socket: root.path("s.sock")),
            environment: SystemdTools.cleanEnvironment(),
            log: root.logPath,
            inheriting: fd
        )
        #expect(refused.wait() == 1)
        #expect(root.log().contains("socket activation: fd 3 is not a stream socket"), "log: \(root.log())")

        // Variables meant for another process (here PID 1): bind --socket as without systemd.
        let receiver = try NotifyReceiver(path: root.path("notify.sock"))
        let unrelated = try ChildProcess(
            SystemdTools.homefeedd,
            root.daemonArguments(socket: root.path("s.sock")),
            environment: SystemdTools.cleanEnvironment([
                "LISTEN_PID": "1", "LISTEN_FDS": "1", "NOTIFY_SOCKET": receiver.socketValue,
            ]),
            log: root.logPath,
            inheriting: fd
        )
        #expect(receiver.await("READY=1") != nil, "log: \(root.log())")
        let client = try VarlinkClient(connectingTo: "unix:" + root.path("s.sock"))
        #expect(try client.call("io.homefeed.GetStatus")["version"]?.intValue == 1)
        client.close()
        unrelated.signal(SIGTERM)
        #expect(unrelated.wait() == 0)
    }

    @Test("SIGTERM during a subscription: exit 0, the subscription ends, the store is intact")
    func stopDuringSubscription() async throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        let subscriber = try daemon.client()
        var stream = subscriber.replies("io.homefeed.GetManifest", parameters: ["profile": "phone"])
            .makeAsyncIterator()
        #expect(try await stream.next()?.continues == true)
        #expect(daemon.stop() == 0)
        // The connection ends: either a clean end of stream or "connection closed".
        var ended = false
        do {
            while try await stream.next() != nil {}
            ended = true
        } catch {
            ended = true
        }
        #expect(ended)
        subscriber.close()
        let store = daemon.root.appendingPathComponent("state/homefeed.sqlite").path
        let check = try CommandRunner(executable: "/usr/bin/sqlite3").run([store, "PRAGMA integrity_check;"])
        #expect(check.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "ok")
    }

    @Test("SIGTERM during an ingest: exit 0, the store is intact and nothing committed is lost")
    func stopDuringIngest() async throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        _ = try daemon.call("io.homefeed.Refresh")
        _ = try daemon.call("io.homefeed.RecordHistory", ["title": "before the stop"])
        let before = try daemon.call("io.homefeed.GetStatus")
        let feed = daemon.configDirectory.appendingPathComponent("samples/notices-ko.xml")
        var xml = try String(contentsOf: feed, encoding: .utf8)
        xml = xml.replacingOccurrences(
            of: "<item>",
            with: """
                <item><title>종료 중 수집</title><link>https://example.test/notices/2001</link>
                <guid isPermaLink="false">notice-2001</guid><pubDate>Sun, 29 Nov 2026 09:30:00 +0900</pubDate></item>
                <item>
                """,
            options: [],
            range: xml.range(of: "<item>")
        )
        try Data(xml.utf8).write(to: feed)

        let refresher = try daemon.client()
        async let refreshed = refresher.call("io.homefeed.Refresh")
        // Give the call a moment to be written before the stop; either order is correct.
        try await Task.sleep(for: .milliseconds(5))
        #expect(daemon.stop() == 0)
        let completed = (try? await refreshed)?["changed"]?.intValue
        refresher.close()
        let store = daemon.root.appendingPathComponent("state/homefeed.sqlite").path
        let check = try CommandRunner(executable: "/usr/bin/sqlite3").run([store, "PRAGMA integrity_check;"])
        #expect(check.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "ok")

        try daemon.start()
        let after = try daemon.call("io.homefeed.GetStatus")
        #expect(after["history"]?.intValue == before["history"]?.intValue)
        #expect((after["version"]?.intValue ?? 0) >= (before["version"]?.intValue ?? .max))
        let notices = try daemon.call("io.homefeed.ListNotices", ["limit": 100])["notices"]?.arrayValue ?? []
        let beforeNotices = notices.filter { $0["id"]?.stringValue != "notice-2001" }
        #expect(beforeNotices.count >= 1)
        if completed == 1 {
            // The reply said the new notice was stored: it must survive the stop.
            #expect(notices.contains { $0["id"]?.stringValue == "notice-2001" })
        }
        #expect(daemon.stop() == 0)
    }
}
