import CommandTable
import Foundation
import TestSupport
import Testing
import Varlink

/// The real `homefeedd` with a broken store: a file with random bytes over one of its pages, a
/// file another process keeps locked, a store that keeps failing under the watchdog.
@Suite(.timeLimit(.minutes(3)))
struct StoreFaultTests {
    /// Checkpoints the WAL into the file (the daemon leaves it in `-wal`), then writes 4 096
    /// seeded random bytes over the root page of the `notices` table: SQLite reports
    /// `SQLITE_CORRUPT` for every read of it and `PRAGMA quick_check` fails.
    static func corrupt(_ root: ScratchRoot, seed: UInt64) throws {
        let sqlite = CommandRunner(executable: Host.sqlite3)
        _ = try sqlite.run([root.storePath, "PRAGMA wal_checkpoint(TRUNCATE);"])
        let page = try sqlite.run([root.storePath, "SELECT rootpage FROM sqlite_schema WHERE name = 'notices';"])
        let number = try #require(Int(page.stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
        var random = SeededRandom(seed: seed)
        // One byte from each step.
        let garbage = (0..<4096).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: root.storePath))
        // Pages are counted from 1 and are 4 096 bytes (SQLite's default page size).
        try handle.seek(toOffset: UInt64((number - 1) * 4096))
        handle.write(Data(garbage))
        try handle.close()
    }

    func files(in root: ScratchRoot, prefix: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: root.stateDirectory.path)) ?? [])
            .filter { $0.hasPrefix(prefix) }.sorted()
    }

    @Test(
        "a corrupt file is moved aside at start: the last manifests keep serving, status says recovered, everything is fetched again",
        .enabled(if: Host.has(Host.sqlite3))
    )
    func corruptFile() async throws {
        let root = try ScratchRoot()
        let daemon = FaultDaemon(root: root)
        try await daemon.start()
        _ = try await daemon.call("io.homefeed.Refresh")
        _ = try await daemon.call("io.homefeed.RecordHistory", ["title": "도서관"])
        let before = try await daemon.call("io.homefeed.GetManifest", ["profile": "phone"])
        #expect(await daemon.stop() == 0)
        try await offPool { try Self.corrupt(root, seed: 16) }
        #expect(try await offPool { try root.integrityCheck() } != "ok")

        // Offline (--no-fetch): the salvaged manifests are all there is to serve.
        let receiver = try NotifyReceiver(path: root.path("n.sock"))
        try await daemon.start(["--no-fetch"], environment: ["NOTIFY_SOCKET": receiver.socketValue])
        let ready = try #require(await offPool { receiver.await("READY=1") }, "no READY=1: \(root.log())")
        #expect(NotifyReceiver.value("STATUS", in: ready)?.contains("store recovered") == true, "\(ready)")
        let aside = files(in: root, prefix: "homefeed.sqlite.corrupt-")
        #expect(aside.contains { !$0.hasSuffix("-wal") && !$0.hasSuffix("-shm") }, "\(aside)")
        let critical = daemon.logLines(2)
        #expect(
            critical.contains { $0.contains("corrupt") && $0.contains("homefeed.sqlite.corrupt-") },
            "\(root.log())"
        )
        let served = try await daemon.call("io.homefeed.GetManifest", ["profile": "phone"])
        #expect(served["etag"] == before["etag"])
        #expect(served["version"] == before["version"])
        let status = try await daemon.call("io.homefeed.GetStatus")
        #expect(status["store"]?.stringValue == "recovered")
        #expect(status["storeReason"]?.stringValue?.contains("corrupt") == true)
        #expect(status["history"]?.intValue == 1)  // salvaged with the manifests
        #expect(status["notices"]?.intValue == 0)  // the corrupt table is not
        let shown = try await offPool {
            try CommandRunner(executable: "homefeedctl").run(["status", "--socket", daemon.socket])
        }
        #expect(shown.stdout.contains("store recovered: the file was corrupt"), "\(shown.stdout)")

        // Refresh refetches everything into the fresh store: 3 sources, all of them new again.
        let refreshed = try await daemon.call("io.homefeed.Refresh")
        #expect(refreshed["attempted"]?.intValue == 3)
        #expect(refreshed["changed"]?.intValue == 3)
        #expect((refreshed["version"]?.intValue ?? 0) > (before["version"]?.intValue ?? .max))
        #expect(try await daemon.call("io.homefeed.GetStatus")["notices"]?.intValue == 5)
        #expect(await daemon.stop() == 0)
        #expect(try await offPool { try root.integrityCheck() } == "ok")

        // With fetching on, the daemon refetches by itself; a second corrupt file gets its own name.
        try await offPool { try Self.corrupt(root, seed: 17) }
        try await daemon.start([])
        var notices = 0
        for _ in 0..<200 where notices < 5 {
            notices = try await daemon.call("io.homefeed.GetStatus")["notices"]?.intValue ?? 0
            if notices < 5 { try await Task.sleep(for: .milliseconds(50)) }
        }
        #expect(notices == 5)
        #expect(files(in: root, prefix: "homefeed.sqlite.corrupt-").filter { !$0.contains("-wal") }.count >= 2)
        #expect(await daemon.stop() == 0)
    }

    @Test(
        "a store locked by another process: calls fail with StoreUnavailable and a <3> line, then work again",
        .enabled(if: Host.has(Host.sqlite3))
    )
    func lockedFile() async throws {
        let root = try ScratchRoot()
        let daemon = FaultDaemon(root: root)
        try daemon.configure("store-busy-timeout = 1s\n")
        try await daemon.start()
        _ = try await daemon.call("io.homefeed.Refresh")
        let version = try #require(try await daemon.call("io.homefeed.GetStatus")["version"]?.intValue)
        let feed = root.configDirectory.appendingPathComponent("samples/notices-ko.xml")
        let xml = try String(contentsOf: feed, encoding: .utf8)
        try Data(
            xml.replacingOccurrences(of: "<item>", with: "<item><title>잠긴 동안</title><guid>locked-1</guid></item><item>")
                .utf8
        ).write(to: feed)

        let lock = try await offPool { try StoreLock(root.storePath) }
        let history = try await daemon.error("io.homefeed.RecordHistory", ["title": "잠김"])
        #expect(history?.name == "io.homefeed.StoreUnavailable")
        #expect(history?.parameters["reason"]?.stringValue?.contains("SQLITE_BUSY") == true)
        let refresh = try await daemon.error("io.homefeed.Refresh", ["url": .string(feed.absoluteString)])
        #expect(refresh?.name == "io.homefeed.StoreUnavailable")
        // Reads still work in WAL mode, so status answers, and says why the store is failing.
        let status = try await daemon.call("io.homefeed.GetStatus")
        #expect(status["version"]?.intValue == version)
        #expect(status["store"]?.stringValue == "failing")
        #expect(status["storeReason"]?.stringValue?.contains("SQLITE_BUSY") == true)
        let errors = daemon.logLines(3)
        #expect(errors.contains { $0.contains("RecordHistory") && $0.contains("SQLITE_BUSY") }, "\(root.log())")
        #expect(errors.contains { $0.contains("Refresh") && $0.contains("SQLITE_BUSY") }, "\(root.log())")
        await offPool { lock.release() }

        let recorded = try await daemon.call("io.homefeed.RecordHistory", ["title": "풀림"])
        #expect((recorded["version"]?.intValue ?? 0) > version)
        let after = try await daemon.call("io.homefeed.Refresh", ["url": .string(feed.absoluteString)])
        #expect(after["changed"]?.intValue == 1)
        #expect(try await daemon.call("io.homefeed.GetStatus")["store"]?.stringValue == "ok")
        #expect(await daemon.stop() == 0)
    }

    @Test(
        "a store that keeps failing turns STATUS= to failing and stops the watchdog pings until it works again",
        .enabled(if: Host.has(Host.sqlite3))
    )
    func watchdogStops() async throws {
        let root = try ScratchRoot()
        let daemon = FaultDaemon(root: root)
        try daemon.configure("store-busy-timeout = 1s\n")
        let receiver = try NotifyReceiver(path: root.path("n.sock"))
        try await daemon.start(
            ["--no-fetch"],
            // A check every 3 s, with 1.5 s to answer: more than the 1 s busy timeout, so a check
            // behind the lock fails with SQLITE_BUSY rather than missing its time, and a check
            // of a busy machine (the suite runs in parallel) has time to answer.
            environment: ["NOTIFY_SOCKET": receiver.socketValue, "WATCHDOG_USEC": "6000000"]
        )
        #expect(await offPool { receiver.await("READY=1") } != nil, "no READY=1: \(root.log())")
        #expect(await offPool { receiver.await("WATCHDOG=1") } != nil)

        let lock = try await offPool { try StoreLock(root.storePath) }
        // Every watchdog tick first takes the store's write lock; three failures in a row make
        // the store failing (each waits the 1 s busy timeout).
        let failing = await offPool { () -> String? in
            while let message = receiver.receive() {
                if let line = NotifyReceiver.value("STATUS", in: message), line.contains("Store failing") {
                    return line
                }
            }
            return nil
        }
        let line = try #require(failing, "no failing STATUS=: \(root.log())")
        #expect(line.contains("SQLITE_BUSY"))
        #expect(try await daemon.call("io.homefeed.GetStatus")["store"]?.stringValue == "failing")
        // The next two ticks (3 s apart) send no ping.
        let pings = await offPool { () -> Int in
            var pings = 0
            for _ in 0..<2 {
                if let message = receiver.receive(timeout: 3_500), NotifyReceiver.lines(message).contains("WATCHDOG=1")
                {
                    pings += 1
                }
            }
            return pings
        }
        #expect(pings == 0)

        await offPool { lock.release() }
        let resumed = try #require(await offPool { receiver.await("WATCHDOG=1") }, "no pings: \(root.log())")
        #expect(NotifyReceiver.value("STATUS", in: resumed).map { $0.hasPrefix("Serving version") } ?? true)
        #expect(try await daemon.call("io.homefeed.GetStatus")["store"]?.stringValue == "ok")
        #expect(await daemon.stop() == 0)
    }

    @Test(
        "a probe stuck behind a lock for longer than the ping interval does not hold the watchdog pings back",
        .enabled(if: Host.has(Host.sqlite3))
    )
    func stuckProbe() async throws {
        let root = try ScratchRoot()
        let daemon = FaultDaemon(root: root)
        // Each probe waits 5 s for the lock; the pings are due every 0.5 s.
        try daemon.configure("store-busy-timeout = 5s\n")
        let receiver = try NotifyReceiver(path: root.path("n.sock"))
        try await daemon.start(
            ["--no-fetch"],
            environment: ["NOTIFY_SOCKET": receiver.socketValue, "WATCHDOG_USEC": "1000000"]
        )
        #expect(await offPool { receiver.await("WATCHDOG=1") } != nil, "no READY=1 or ping: \(root.log())")

        let lock = try await offPool { try StoreLock(root.storePath) }
        // The pings sent while the first probe after the lock still waits for it: at most one
        // (from a probe that ran before the lock) if a slow probe held them back.
        let pings = await offPool { () -> Int in
            var pings = 0
            for _ in 0..<40 where !root.log().contains("store probe: SQLITE_BUSY") {
                if let message = receiver.receive(timeout: 500), NotifyReceiver.lines(message).contains("WATCHDOG=1") {
                    pings += 1
                }
            }
            return pings
        }
        #expect(pings >= 2, "\(root.log())")
        let missed = daemon.logLines(4).filter { $0.contains("store probe: no answer within 0.25 seconds") }
        #expect(!missed.isEmpty, "\(root.log())")

        await offPool { lock.release() }
        #expect(await offPool { receiver.await("WATCHDOG=1") } != nil, "no pings after the lock: \(root.log())")
        #expect(await daemon.stop() == 0)
    }

    @Test(
        "a start with the full check due asks the service manager for a minute more first, and no line from READY=1 to STOPPING=1 asks again"
    )
    func fullCheckExtendsStartTimeout() async throws {
        let root = try ScratchRoot()
        let daemon = FaultDaemon(root: root)
        try await daemon.start(["--no-fetch"])
        #expect(await daemon.stop() == 0)
        let marker = root.stateDirectory.appendingPathComponent("integrity-check-due").path
        #expect(FileManager.default.createFile(atPath: marker, contents: Data("test\n".utf8)))

        let receiver = try NotifyReceiver(path: root.path("n.sock"))
        try await daemon.start(["--no-fetch"], environment: ["NOTIFY_SOCKET": receiver.socketValue])
        // Sent before the check, so the first message; READY=1 comes after it.
        let first = try #require(await offPool { receiver.receive() }, "no notification: \(root.log())")
        #expect(NotifyReceiver.lines(first).contains("EXTEND_TIMEOUT_USEC=60000000"), "\(first)")
        #expect(await offPool { receiver.await("READY=1") } != nil, "no READY=1: \(root.log())")
        #expect(!FileManager.default.fileExists(atPath: marker))
        #expect(await daemon.stop() == 0)
        #expect(await offPool { receiver.await("STOPPING=1") } != nil)
        // Every line received, in order: READY=1's own message and each one after it up to
        // STOPPING=1 is checked. The extension is sent again only every 20 s, so a start this
        // short shows only that nothing sends one once it has started; that the repeats end with
        // the start is StartTimeoutExtensionTests' (a 10 ms period).
        let lines = receiver.messages.flatMap(NotifyReceiver.lines)
        let ready = try #require(lines.firstIndex(of: "READY=1"))
        let stopping = try #require(lines.firstIndex(of: "STOPPING=1"))
        let afterReady = lines[ready...stopping].filter { $0.hasPrefix("EXTEND_TIMEOUT_USEC=") }
        #expect(afterReady.isEmpty, "\(lines)")
    }

    @Test(
        "SIGTERM during the start: STOPPING=1 at once, no READY=1, exit 0 at the next step, the store as it was",
        .enabled(if: Host.has(Host.sqlite3))
    )
    func stopDuringStart() async throws {
        let root = try ScratchRoot()
        let daemon = FaultDaemon(root: root)
        try daemon.configure("store-busy-timeout = 30s\n")
        try await daemon.start(["--no-fetch"])
        _ = try await daemon.call("io.homefeed.RecordHistory", ["title": "도서관"])
        #expect(await daemon.stop() == 0)
        let marker = root.stateDirectory.appendingPathComponent("integrity-check-due").path
        #expect(FileManager.default.createFile(atPath: marker, contents: Data("test\n".utf8)))

        // Another process's write lock holds the start at its first write, up to the busy timeout.
        let lock = try await offPool { try StoreLock(root.storePath) }
        let receiver = try NotifyReceiver(path: root.path("n.sock"))
        let process = try ChildProcess(
            SystemdTools.homefeedd,
            root.daemonArguments(socket: daemon.socket),
            environment: SystemdTools.cleanEnvironment(["NOTIFY_SOCKET": receiver.socketValue]),
            log: root.logPath
        )
        // The first message comes as the start opens the store.
        _ = try #require(await offPool { receiver.receive() }, "no notification: \(root.log())")
        process.signal(SIGTERM)
        let stopping = await offPool { receiver.await("STOPPING=1") }
        #expect(stopping != nil, "no STOPPING=1 before the start finished: \(root.log())")
        await offPool { lock.release() }
        #expect(await offPool { process.wait() } == 0, "\(root.log())")
        #expect(!receiver.messages.contains { NotifyReceiver.lines($0).contains("READY=1") }, "\(receiver.messages)")
        #expect(root.log().contains("stopped before the start had finished"), "\(root.log())")

        // The next start finds the store whole, with what it held.
        try await daemon.start(["--no-fetch"])
        #expect(try await daemon.call("io.homefeed.GetStatus")["history"]?.intValue == 1)
        #expect(await daemon.stop() == 0)
        #expect(try await offPool { try root.integrityCheck() } == "ok")
    }

    @Test("homefeedctl store check runs integrity_check through the daemon")
    func storeCheck() async throws {
        let root = try ScratchRoot()
        let daemon = FaultDaemon(root: root)
        try await daemon.start()
        let socket = daemon.socket
        let (check, json, help, wrong) = try await offPool {
            let ctl = CommandRunner(executable: "homefeedctl")
            return (
                try ctl.run(["store", "check", "--socket", socket]),
                try ctl.run(["store", "check", "--json", "--socket", socket]),
                try ctl.run(["store", "check", "--help"]),
                try ctl.run(["store", "wipe", "--socket", socket])
            )
        }
        #expect(check.status == 0, "\(check.stderr)")
        #expect(check.stdout == "store ok\n")
        #expect(json.stdout == "{\"ok\":true,\"problems\":[]}\n")
        #expect(help.status == 0)
        #expect(help.stdout.contains("usage: homefeedctl store check"))
        #expect(help.stdout.contains("\nexamples:\n  homefeedctl store check"))
        #expect(wrong.status == ExitStatus.usage)
        #expect(await daemon.stop() == 0)
    }
}
