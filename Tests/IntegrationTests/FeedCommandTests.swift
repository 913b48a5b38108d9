import CommandTable
import Foundation
import Testing

/// `homefeedctl feed parse` against the built binary: output, exit statuses, help.
@Suite struct FeedCommandTests {
    let ctl = CommandRunner(executable: "homefeedctl")

    @Test("parses the Korean sample into the feed-parsing JSON")
    func parsesSample() throws {
        let outcome = try ctl.run([
            "feed", "parse", "feeds/samples/notices-ko.xml", "--url", "https://example.test/feed.xml", "--compact",
        ])
        #expect(outcome.status == 0)
        let root = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
        #expect(root["format"] as? String == "rss2.0")
        #expect(root["error"] as? Bool == false)
        let entries = try #require(root["entries"] as? [[String: Any]])
        #expect(entries.first?["title"] as? String == "2026학년도 겨울 계절학기 수강신청 안내")
        // "Wed, 25 Nov 2026 14:30:00 KST" is +09:00.
        #expect(entries[1]["published"] as? String == "2026-11-25T05:30:00Z")
    }

    @Test("an unparseable document prints {\"error\": true, …} and exits 1; usage mistakes exit 64")
    func failures() throws {
        let garbage = try ctl.run(
            ["feed", "parse", "-", "--url", "https://example.test/x"],
            stdin: Data("not a feed".utf8)
        )
        #expect(garbage.status == 1)
        let root = try #require(try JSONSerialization.jsonObject(with: Data(garbage.stdout.utf8)) as? [String: Any])
        #expect(root["error"] as? Bool == true)
        #expect((root["message"] as? String)?.isEmpty == false)
        #expect(try ctl.run(["feed", "parse", "-"], stdin: Data()).status == ExitStatus.usage)
        #expect(try ctl.run(["feed", "parse", "a.xml", "--bogus"]).status == ExitStatus.usage)
        #expect(try ctl.run(["feed", "frobnicate"]).status == ExitStatus.usage)
        // Read up to the parser's body limit and one byte more, then refused as a fetch is.
        let endless = try ctl.run(["feed", "parse", "/dev/zero", "--url", "https://example.test/x", "--compact"])
        #expect(endless.status == 1)
        #expect(endless.stdout.contains("body exceeds 15728640 bytes"), "\(endless.stdout)")
        let help = try ctl.run(["feed", "parse", "--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("\nexamples:\n  homefeedctl feed parse"))
    }
}
