import CommandTable
import TestSupport
import Testing
import Varlink

@testable import homefeedctl

/// How long homefeedctl waits for the daemon: `refresh`, `reload` and `store check` until the work is
/// done, other commands at most their timeout. Run in the test process against ``FakeDaemon``,
/// with the timeout shortened from 45 s to a tenth of a second and replies later than that.
@Suite(.timeLimit(.minutes(2)))
struct ReplyTimeoutTests {
    static let timeout = Duration.milliseconds(100)

    /// A method that answers `parameters` a good while after ``timeout``.
    static func late(_ parameters: [String: JSONValue]) -> VarlinkMethod {
        VarlinkMethod { _ in
            try? await Task.sleep(for: timeout * 6)
            return .parameters(parameters)
        }
    }

    @Test("refresh, reload and store check wait for a reply later than the timeout; notices gives up")
    func untilDone() async throws {
        let daemon = try FakeDaemon([
            "Refresh": Self.late(["attempted": 3, "changed": 1, "version": 7]),
            "CheckStore": Self.late(["ok": true, "problems": []]),
            "Reload": Self.late(["version": 8]),
            // What refresh reads after its Refresh, answered at once.
            "GetStatus": VarlinkMethod { _ in .parameters(["version": 7, "sources": []]) },
            "ListNotices": Self.late(["notices": []]),
        ])
        let socket = DaemonSocket(path: daemon.socket, origin: nil)
        // The command bodies block: off the cooperative pool, whose threads serve the fake daemon.
        let (refresh, reload, check, notices) = await offPool {
            func run(_ command: Command, _ body: (ParsedArguments, DaemonClient) throws(CommandFailure) -> Int32)
                -> Result<Int32, CommandFailure>
            {
                let client = DaemonClient(socket, timeout: Self.timeout)
                defer { client.close() }
                // --json: one call, whether or not the test's stdout is a terminal.
                guard let arguments = try? command.parse(["--json"]) else { return .success(ExitStatus.usage) }
                return Result { () throws(CommandFailure) in try body(arguments, client) }
            }
            let notices = Result { () throws(CommandFailure) in
                try DaemonClient(socket, timeout: Self.timeout).call("ListNotices")
            }
            return (
                run(RefreshCommand.command, RefreshCommand.run), run(ReloadCommand.command, ReloadCommand.run),
                run(StoreCommand.check, StoreCommand.run), notices
            )
        }
        await daemon.shutdown()
        #expect(try refresh.get() == ExitStatus.ok)
        #expect(try reload.get() == ExitStatus.ok)
        #expect(try check.get() == ExitStatus.ok)
        #expect(throws: CommandFailure.self) { try notices.get() }
        if case .failure(let failure) = notices {
            #expect(failure.message == "io.homefeed.ListNotices: no reply within the timeout")
        }
    }

    @Test("a connection closed before the reply is said to be the daemon's doing")
    func closed() {
        let failure = CommandFailure(.connectionClosed, socket: DaemonSocket(path: "/run/x.sock", origin: nil))
        #expect(failure.status == ExitStatus.failure)
        #expect(failure.message == "homefeedd closed the connection before it replied")
    }
}
