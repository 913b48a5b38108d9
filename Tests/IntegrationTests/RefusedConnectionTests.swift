import CommandTable
import TestSupport
import Testing
import Varlink

/// A daemon at its connection limit accepts a client and closes it before any byte: every
/// daemon command says so and exits 69, as for a daemon that is not running.
@Suite(.timeLimit(.minutes(2)))
struct RefusedConnectionTests {
    @Test(
        "a connection closed before any reply is a refusal: exit 69 and one message, for every daemon command",
        arguments: [
            ["status"], ["manifest"], ["watch"], ["refresh"], ["history", "add", "x"], ["history", "list"],
            ["notices"], ["reload"], ["store", "check"], ["preview"], ["sizes", "list"], ["sizes", "clear"],
        ]
    )
    func refused(_ command: [String]) async throws {
        var limits = VarlinkServerConfiguration()
        limits.maxConnections = 0
        let daemon = try FakeDaemon([:], configuration: limits)
        let socket = daemon.socket
        let outcome = try await offPool {
            try CommandRunner(executable: "homefeedctl").run(command + ["--socket", socket])
        }
        await daemon.shutdown()
        #expect(outcome.status == ExitStatus.unavailable)
        #expect(
            outcome.stderr == "homefeedctl: homefeedd refused or closed the connection on \(socket) before replying "
                + "(probably at its connection limit)\n"
        )
        #expect(outcome.stdout == "")
    }
}
