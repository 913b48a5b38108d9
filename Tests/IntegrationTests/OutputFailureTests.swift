import CommandTable
import Foundation
import TestSupport
import Testing

/// `homefeedctl` whose standard output cannot be written (`/dev/full`): every command says so on
/// stderr and exits 74, where some trapped in Foundation's `FileHandle.write` (SIGILL, exit 132,
/// a backtrace) and others exited 0 with their output lost.
@Suite struct OutputFailureTests {
    static let message = "homefeedctl: cannot write the output: No space left on device\n"

    @Test(
        "stdout on a full disk: the reason on stderr, exit 74",
        arguments: [
            ["layout", "solve", "feeds/layout.json", "--width", "375"],
            ["layout", "check", "feeds/layout.json"],
            ["feed", "parse", "feeds/samples/notices-ko.xml", "--url", "https://example.test/feed.xml"],
            ["completion", "bash"],
            ["layout", "solve", "--help"],
            ["--version"],
        ]
    )
    func fullDisk(_ words: [String]) throws {
        let outcome = try CommandRunner(executable: "homefeedctl").run(words, stdout: .file("/dev/full"))
        #expect(outcome.status == ExitStatus.outputFailed)
        #expect(outcome.stderr == Self.message)
    }

    @Test("homefeedd --check-config on a full disk: the reason on stderr, exit 74, not 0 with the verdict lost")
    func checkConfigFullDisk() throws {
        let outcome = try CommandRunner(executable: "homefeedd").run(
            ["--check-config", "--config", "feeds"],
            stdout: .file("/dev/full")
        )
        #expect(outcome.status == ExitStatus.outputFailed)
        #expect(outcome.stderr.hasSuffix("homefeedd: cannot write the output: No space left on device\n"))
    }

    @Test("stderr on a full disk: the failure's own status, no trap")
    func fullErrorStream() throws {
        let child = try ChildProcess(
            BuiltProducts.path("homefeedctl"),
            ["status", "--socket", "/nonexistent/hf.sock"],
            stdout: .null,
            stderr: .file("/dev/full")
        )
        #expect(child.waitForExit() == ExitStatus.unavailable)
    }
}
