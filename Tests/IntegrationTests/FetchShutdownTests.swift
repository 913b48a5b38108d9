import Foundation
import TestSupport
import Testing

/// SIGTERM while the real `homefeedd` has 20 transfers in flight, each after a redirect: the
/// daemon cancels them, releases libcurl and exits 0, every time. (With URLSession it was
/// killed by a corelibs trap in up to half of such stops, and hung in up to a third.)
@Suite(.timeLimit(.minutes(5)))
struct FetchShutdownTests {
    @Test("SIGTERM during 20 in-flight redirected transfers exits 0, 50 times out of 50")
    func sigtermDuringTransfers() async throws {
        // Twenty ports: the scheduler fetches one source per host:port at a time.
        let server = try await FixtureServer.start(ports: 20)
        var failures: [String] = []
        for round in 0..<50 {
            let key = "r\(round)-\(UInt32.random(in: 0...UInt32.max))"
            let harness = try DaemonHarness()
            try Self.configure(harness, server: server, key: key)
            try harness.start([])
            try await server.waitForRequests(key: key, prefix: "/stallhead/", count: 20)
            let status = harness.stop(within: 20)
            if status != 0 {
                failures.append("round \(round): " + (status.map { "exit status \($0)" } ?? "hung past 20 s"))
                failures.append(harness.log())
            }
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }

    @Test("homefeedd fetches with libcurl and links no FoundationNetworking")
    func linkLine() throws {
        let daemon = BuiltProducts.path("homefeedd")
        let ldd = try CommandRunner(executable: "/usr/bin/ldd").run([daemon])
        #expect(ldd.status == 0)
        #expect(ldd.stdout.contains("libcurl.so.4"))
        #expect(!ldd.stdout.contains("FoundationNetworking"), "\(ldd.stdout)")
    }

    /// Sources: one feed per port that redirects once and then never answers; fetching 20 at
    /// once.
    static func configure(_ harness: DaemonHarness, server: FixtureServer, key: String) throws {
        let outlines = server.ports.enumerated().map { index, port in
            let url = server.url("/redirect/\(key)-\(index)?code=302&amp;to=/stallhead/\(key)-\(index)", port: port)
            return "    <outline type=\"rss\" text=\"Feed \(index)\" xmlUrl=\"\(url)\"/>"
        }
        let opml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <opml version="2.0"><head><title>stalling sources</title></head><body>
            \(outlines.joined(separator: "\n"))
            </body></opml>
            """
        try opml.write(
            to: harness.configDirectory.appendingPathComponent("sources.opml"),
            atomically: true,
            encoding: .utf8
        )
        let settings = harness.configDirectory.appendingPathComponent("homefeedd.conf")
        let sample = try String(contentsOf: settings, encoding: .utf8)
        try (sample + "\n[fetch]\nconcurrency = 20\nmax-total-connections = 32\n")
            .write(to: settings, atomically: true, encoding: .utf8)
    }
}
