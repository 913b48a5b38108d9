import CommandTable
import Foundation
import Synchronization
import TestSupport
import Testing
import Varlink

/// Executables started without descriptor 0, 1 or 2 (`>&-`): nothing they open later takes the
/// number. `homefeedctl status >&-` connected its socket as fd 1, printed into the Varlink
/// connection and exited 0; now it exits 74 before connecting, and the daemons put `/dev/null`
/// where a descriptor is missing.
@Suite(.timeLimit(.minutes(2)))
struct StandardDescriptorTests {
    /// What the process `pid` has as descriptor `fd` (`/dev/null`, `socket:[…]`), nil for none.
    func target(_ pid: Int32, _ fd: Int32) -> String? {
        try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\(fd)")
    }

    @Test("homefeedctl with stdout closed says so and exits 74 without calling the daemon")
    func closedOutput() async throws {
        final class Calls: Sendable { let count = Mutex(0) }
        let calls = Calls()
        let daemon = try FakeDaemon([
            "GetStatus": VarlinkMethod { _ in
                calls.count.withLock { $0 += 1 }
                return .parameters(["version": 1])
            }
        ])
        let outcome = await offPool {
            Result {
                try CommandRunner(executable: "homefeedctl").run(
                    ["status", "--socket", daemon.socket],
                    stdout: .closed
                )
            }
        }
        await daemon.shutdown()
        let run = try outcome.get()
        #expect(run.status == ExitStatus.outputFailed)
        #expect(run.stderr == "homefeedctl: cannot write the output: Bad file descriptor\n")
        #expect(calls.count.withLock { $0 } == 0)
    }

    @Test("homefeedd started without stdin and stderr has /dev/null on both")
    func daemon() throws {
        let harness = try DaemonHarness()
        try harness.start(closingInputAndErrors: true)
        let pid = try #require(harness.pid)
        #expect(target(pid, 0) == "/dev/null")
        #expect(target(pid, 2) == "/dev/null")
        #expect(harness.stop() == 0)
    }

    @Test("homefeed-thumbnail started without stderr has /dev/null there")
    func thumbnail() throws {
        let child = try ChildProcess(
            BuiltProducts.path("homefeed-thumbnail"),
            [],
            stdin: .pipe,
            stdout: .pipe,
            stderr: .closed
        )
        // Its hello line: main has run by then.
        #expect(child.readLine(seconds: 30) != nil)
        #expect(target(child.pid, 2) == "/dev/null")
        child.closeInput()
        #expect(child.waitForExit() == 0)
    }
}
