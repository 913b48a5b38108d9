import Foundation
import TestSupport
import Testing
import Varlink

/// `examples/homefeed_consumer.py` against the real daemon, so the example keeps working: it
/// subscribes with changes, reports the estimated headline's size and prints one line per
/// manifest, including a change another client caused.
@Suite(.timeLimit(.minutes(2)))
struct ConsumerExampleTests {
    static let example = CommandRunner.packageRoot.appendingPathComponent("examples/homefeed_consumer.py").path

    @Test("the Python consumer example follows the phone manifest, reports sizes and prints each change")
    func consumer() async throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        _ = try daemon.call("io.homefeed.Refresh")
        let start = try #require(try daemon.call("io.homefeed.GetStatus")["version"]?.intValue)
        let socket = daemon.socketPath
        // coreutils' timeout: an example that waits for a change that never comes fails the
        // test (status 124) instead of holding up the suite.
        async let run = offPool {
            try CommandRunner(executable: "/usr/bin/env").run([
                "timeout", "60", "python3", Self.example, "--socket", socket, "--profile", "phone", "--updates", "2",
            ])
        }
        // Its own size report makes version start + 1; then a history event from elsewhere.
        var version = start
        for _ in 0..<400 where version == start {
            try await Task.sleep(for: .milliseconds(25))
            version = try daemon.call("io.homefeed.GetStatus")["version"]?.intValue ?? start
        }
        #expect(version == start + 1)
        _ = try daemon.call("io.homefeed.RecordHistory", ["title": "도서관"])
        let outcome = try await run
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let lines = outcome.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 4, "\(outcome.stdout)")
        // The sample layout at phone: its items, headers and supplementaries, counted by the example.
        #expect(lines.first == "version \(start): 18 elements")
        #expect(lines.dropFirst().first == "reported 1 sizes, 0 ignored: version \(start + 1)")
        #expect(
            lines.dropFirst(2).first?.hasPrefix("version \(start + 1) since \(start): 0 inserted, 0 deleted") == true
        )
        // The history event replaces the history placeholder.
        #expect(lines.last?.hasPrefix("version \(start + 2) since \(start + 1): 1 inserted, 1 deleted") == true)

        // The stand-in measure: the 24-character headline at 335 points wide wraps to
        // ceil(24 × 8 / 335) = 1 line: 12 + 20 × 1 = 32 points.
        let sizes = try daemon.call("io.homefeed.ListSizes", ["profile": "phone"])["sizes"]?.arrayValue ?? []
        #expect(sizes.count == 1)
        #expect(sizes.first?["height"]?.doubleValue == 32)
        #expect(daemon.stop() == 0)
    }
}
