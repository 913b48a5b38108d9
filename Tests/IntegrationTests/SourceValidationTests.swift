import Foundation
import TestSupport
import Testing
import Varlink

/// Sources the fetcher cannot fetch are configuration errors, with the outline's line.
@Suite(.timeLimit(.minutes(2)))
struct SourceValidationTests {
    /// The sample sources.opml with a gopher feed on line 12, before the `Announcements` one.
    static func addGopher(to root: ScratchRoot) throws {
        try addFeed(text: "Gopher news", url: "gopher://example.test/1/news", to: root)
    }

    /// The sample sources.opml with a feed on line 12, before the `Announcements` one.
    static func addFeed(text title: String, url feed: String, to root: ScratchRoot) throws {
        let url = root.configDirectory.appendingPathComponent("sources.opml")
        let text = try String(contentsOf: url, encoding: .utf8)
        let outline = #"      <outline type="rss" text="\#(title)" xmlUrl="\#(feed)"/>"# + "\n"
        let anchor = try #require(text.range(of: #"      <outline type="rss" text="Announcements""#))
        var edited = text
        edited.insert(contentsOf: outline, at: anchor.lowerBound)
        let lines = edited.split(separator: "\n", omittingEmptySubsequences: false)
        try #require(lines[11].contains(feed))
        try Data(edited.utf8).write(to: url)
    }

    @Test("--check-config rejects a gopher:// source naming sources.opml and the outline's line")
    func checkConfig() async throws {
        let root = try ScratchRoot()
        try Self.addGopher(to: root)
        let config = root.configDirectory.path
        let outcome = try await offPool {
            try CommandRunner(executable: "homefeedd").run(["--check-config", "--config", config])
        }
        #expect(outcome.status == 1)
        #expect(outcome.stderr.contains("sources.opml:12:"), "\(outcome.stderr)")
        #expect(outcome.stderr.contains("gopher://example.test/1/news"))
    }

    @Test("--check-config rejects a source URL with a password, pointing at credential= and not showing it")
    func checkConfigUserinfo() async throws {
        let root = try ScratchRoot()
        try Self.addFeed(text: "Staff", url: "https://staff:s3cret@intra.example/feed.xml", to: root)
        let config = root.configDirectory.path
        let outcome = try await offPool {
            try CommandRunner(executable: "homefeedd").run(["--check-config", "--config", config])
        }
        #expect(outcome.status == 1)
        #expect(
            outcome.stderr.contains("sources.opml:12: outline \"Staff\": https://intra.example/feed.xml: "),
            "\(outcome.stderr)"
        )
        #expect(outcome.stderr.contains("credential=\"NAME\""))
        #expect(!outcome.stderr.contains("s3cret"))
        #expect(!outcome.stdout.contains("s3cret"))
    }

    @Test("a reload that adds a gopher:// source is rejected with a <3> line; the running sources stay")
    func reload() async throws {
        let root = try ScratchRoot()
        let daemon = FaultDaemon(root: root)
        try await daemon.start()
        try Self.addGopher(to: root)
        let error = try await daemon.error("io.homefeed.Reload")
        #expect(error?.name == "io.homefeed.InvalidArgument")
        #expect(
            error?.parameters["reason"]?.stringValue?.contains("sources.opml:12:") == true,
            "\(String(describing: error))"
        )
        #expect(
            daemon.logLines(3).contains { $0.contains("sources.opml:12:") && $0.contains("gopher") },
            "\(root.log())"
        )
        #expect(try await daemon.call("io.homefeed.GetStatus")["sources"]?.arrayValue?.count == 3)
        #expect(await daemon.stop() == 0)
    }
}
