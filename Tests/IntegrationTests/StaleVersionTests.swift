import Foundation
import TestSupport
import Testing
import Varlink

/// The real `homefeedd` with content its running layout cannot lay out: it serves the last
/// version, and says why that version is stale in `STATUS=`, `GetStatus` and `homefeedctl status`.
@Suite(.timeLimit(.minutes(2)))
struct StaleVersionTests {
    @Test("GetStatus has stale with STATUS='s reason while the content cannot be laid out, and none once it is")
    func staleInGetStatus() async throws {
        let root = try ScratchRoot()
        // Validates: nothing is fetched yet, so the section is empty and the first version made.
        try OverBudgetLayout.write(in: root.configDirectory)
        let receiver = try NotifyReceiver(path: root.path("n.sock"))
        let daemon = FaultDaemon(root: root)
        // A watchdog of 6 s: a health check, and the STATUS= line it leads to, every 3 s. Each
        // ping waits in the receiver's queue until read, and the daemon's sends block once ten
        // wait (net.unix.max_dgram_qlen), as they would with a service manager that stopped
        // reading: the 30 s that takes is more than any step between two reads here.
        try await daemon.start(
            ["--no-fetch"],
            environment: ["NOTIFY_SOCKET": receiver.socketValue, "WATCHDOG_USEC": "6000000"]
        )
        let socket = daemon.socket
        let status = { (json: Bool) async throws -> String in
            try await offPool {
                try CommandRunner(executable: "homefeedctl").run(
                    ["status", "--socket", socket] + (json ? ["--json"] : [])
                )
            }.stdout
        }
        let current = try await daemon.call("io.homefeed.GetStatus")
        #expect(current["stale"] == nil, "\(current)")
        #expect(!(try await status(false)).contains("\nstale: "))

        // The services list brings six links into the section: the version cannot be made.
        #expect(try await daemon.error("io.homefeed.Refresh") != nil)
        let reply = try await daemon.call("io.homefeed.GetStatus")
        let stale = try #require(reply["stale"]?.stringValue, "\(reply)")
        #expect(
            stale.hasPrefix("cannot make a new version: the layout cannot lay out the content stored now: "),
            "\(stale)"
        )
        #expect(stale.contains("/layout.json: sections[3]: at profile phone, with the content stored now: solver"))
        // STATUS= gives the same reason, from the next health check on (bounded: 20 messages).
        var line: String?
        for _ in 0..<20 where line == nil {
            guard let message = await offPool({ receiver.receive() }) else { break }
            line = NotifyReceiver.value("STATUS", in: message).flatMap { $0.contains(", stale: ") ? $0 : nil }
        }
        let statusLine = try #require(line, "no STATUS= with stale: \(receiver.messages)")
        #expect(statusLine.contains(", stale: \(stale); "), "\(statusLine)")
        // homefeedctl status shows it, and --json passes the field on.
        #expect(try await status(false).contains("\nstale: \(stale)\n"))
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(try await status(true).utf8)) as? [String: Any]
        )
        #expect(json["stale"] as? String == stale)

        // A layout that lays the content out makes a version: the field is gone.
        let layout = root.configDirectory.appendingPathComponent("layout.json")
        try FileManager.default.removeItem(at: layout)
        try FileManager.default.copyItem(at: PackageRoot.url.appendingPathComponent("feeds/layout.json"), to: layout)
        // What waits is read first, so the reload's own notifications have room.
        await offPool { while receiver.receive(timeout: 0) != nil {} }
        _ = try await daemon.call("io.homefeed.Reload")
        let recovered = try await daemon.call("io.homefeed.GetStatus")
        #expect(recovered["stale"] == nil, "\(recovered)")
        #expect((recovered["version"]?.intValue ?? 0) > (current["version"]?.intValue ?? .max))
        #expect(!(try await status(false)).contains("\nstale: "))
        #expect(await daemon.stop() == 0)
    }
}
