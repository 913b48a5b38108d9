import CommandTable
import Foundation
import TestSupport
import Testing
import Varlink

/// `homefeedctl refresh` against the real `homefeedd`: a source whose fetch fails is named with
/// its error and makes the exit status 1, in human and `--json` output.
@Suite(.timeLimit(.minutes(2)))
struct RefreshTests {
    @Test("a refreshed source whose file is gone is named with its error, exit 1; a good one exits 0")
    func failedSource() throws {
        let daemon = try DaemonHarness()
        let gone = daemon.configDirectory.appendingPathComponent("samples/notices-en.xml")
        try FileManager.default.removeItem(at: gone)
        try daemon.start()
        let ctl = CommandRunner(executable: "homefeedctl")
        let socket = ["--socket", daemon.socketPath]
        let sources = try daemon.call("io.homefeed.GetStatus")["sources"]?.arrayValue ?? []
        let urls = sources.compactMap { $0["url"]?.stringValue }
        let goneURL = try #require(urls.first { $0.hasSuffix("/samples/notices-en.xml") })
        let goodURL = try #require(urls.first { $0.hasSuffix("/samples/notices-ko.xml") })

        // All sources (stdout is a pipe: one Refresh call).
        let all = try ctl.run(["refresh"] + socket)
        #expect(all.status == ExitStatus.failure, "\(all.stdout)\(all.stderr)")
        let failedLines = all.stdout.split(separator: "\n").filter { $0.hasPrefix("failed: ") }
        #expect(failedLines.count == 1, "\(all.stdout)")
        #expect(failedLines.first?.hasPrefix("failed: \(goneURL): ") == true, "\(all.stdout)")

        let one = try ctl.run(["refresh", goneURL] + socket)
        #expect(one.status == ExitStatus.failure)
        #expect(one.stdout.contains("failed: \(goneURL): "), "\(one.stdout)")

        let json = try ctl.run(["refresh", goneURL, "--json"] + socket)
        #expect(json.status == ExitStatus.failure)
        let reply = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let failed = try #require(reply["failed"] as? [[String: String]])
        #expect(failed.map { $0["url"] } == [goneURL])
        #expect(failed.first?["error"]?.isEmpty == false)

        let good = try ctl.run(["refresh", goodURL, "--json"] + socket)
        #expect(good.status == ExitStatus.ok, "\(good.stdout)\(good.stderr)")
        let goodReply = try #require(try JSONSerialization.jsonObject(with: Data(good.stdout.utf8)) as? [String: Any])
        #expect((goodReply["failed"] as? [Any])?.isEmpty == true)
        #expect(try ctl.run(["refresh", goodURL] + socket).status == ExitStatus.ok)
        daemon.stop()
    }
}
