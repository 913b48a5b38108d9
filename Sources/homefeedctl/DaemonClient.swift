import CommandTable
import Foundation
import Varlink

/// The connection to homefeedd for the daemon commands, made at the first call.
///
/// The socket comes from ``DaemonSocket``. Connecting late lets a body check its input first,
/// so a usage error never waits for, or depends on, a running daemon. Confined to the
/// command's one thread.
final class DaemonClient {
    /// How long a call waits for its reply, unless it waits until the work is done.
    static let replyTimeout: Duration = .seconds(45)

    /// The socket, with how it was chosen: failures name both.
    let socket: DaemonSocket
    /// ``replyTimeout``, shorter in tests.
    let timeout: Duration
    private var client: VarlinkClient?

    /// The longest reply read: as long as homefeedd can send (its output limit, 64 MiB), not
    /// sd-varlink's 16 MiB, since a manifest of many items at the 4 096-byte text cap can pass 16
    /// MiB (`docs/manifest.md`, "Limits").
    static let maxReplyBytes = VarlinkServerConfiguration().maxOutputBytes

    init(_ socket: DaemonSocket, timeout: Duration = DaemonClient.replyTimeout) {
        self.socket = socket
        self.timeout = timeout
    }

    /// The connection, made now if it is not yet.
    func connected() throws(CommandFailure) -> VarlinkClient {
        if let client { return client }
        do throws(VarlinkClientError) {
            let made = try VarlinkClient(connectingTo: socket.address, maxMessageSize: Self.maxReplyBytes)
            client = made
            return made
        } catch {
            throw CommandFailure(error, socket: socket)
        }
    }

    /// Calls `io.homefeed.METHOD` and returns the reply's parameters.
    ///
    /// - Parameter untilDone: wait for the reply however long the work takes (a refresh of a
    ///   slow source, a check of a large store), where other calls give up after ``timeout``.
    ///   Ctrl-C ends the wait as it ends any command; the daemon finishes the work all the same.
    func call(
        _ method: String,
        _ parameters: [String: JSONValue] = [:],
        untilDone: Bool = false
    ) throws(CommandFailure) -> [String: JSONValue] {
        let client = try connected()
        do throws(VarlinkClientError) {
            return try client.call("io.homefeed." + method, parameters: parameters, timeout: untilDone ? nil : timeout)
        } catch {
            throw CommandFailure(error, socket: socket, hasReplied: client.hasReceivedBytes)
        }
    }

    func close() {
        client?.close()
        client = nil
    }
}

/// A daemon command that failed, with its exit status.
struct CommandFailure: Error {
    var status: Int32
    var message: String

    init(status: Int32, message: String) {
        self.status = status
        self.message = message
    }

    /// A usage mistake found in the body (a malformed `ID=SIZE`): reported with the usage.
    static func usage(_ message: String) -> CommandFailure {
        CommandFailure(status: ExitStatus.usage, message: message)
    }

    /// The failure a client error means.
    ///
    /// - Parameter hasReplied: whether the daemon sent any byte on the connection before
    ///   `error`: a close before the first is a refusal (a daemon at its connection limit
    ///   accepts and closes at once), exit 69 as a daemon that is not running.
    init(_ error: VarlinkClientError, socket: DaemonSocket, hasReplied: Bool = true) {
        if error.isUnreachable, case .system(let system) = error, system.errno == EACCES || system.errno == EPERM {
            // Only the system socket has a client group; a per-user socket is its user's alone.
            let who = socket.path == DaemonSocket.systemSocket ? " (members of group homefeed may)" : ""
            self.init(status: ExitStatus.unavailable, message: "no permission to connect to \(socket)\(who)")
        } else if error.isUnreachable {
            self.init(status: ExitStatus.unavailable, message: "homefeedd is not running: no answer on \(socket)")
        } else if error == .connectionClosed, !hasReplied {
            self.init(
                status: ExitStatus.unavailable,
                message:
                    "homefeedd refused or closed the connection on \(socket) before replying "
                    + "(probably at its connection limit)"
            )
        } else if error == .connectionClosed {
            self.init(status: ExitStatus.failure, message: "homefeedd closed the connection before it replied")
        } else if case .errorReply(let reply) = error {
            let details = reply.parameters.isEmpty ? "" : " " + JSONValue.object(reply.parameters).encodedString
            self.init(status: ExitStatus.failure, message: "\(reply.name)\(details)")
        } else {
            self.init(status: ExitStatus.failure, message: error.description)
        }
    }

    /// Prints the message and returns the status. The message may quote the daemon's reply (an
    /// error's parameters), so it is shown as a reply's text is (``TerminalText``).
    func report() -> Int32 {
        Console.error("homefeedctl: \(TerminalText.sanitised(message))")
        return status
    }
}

/// What every daemon command shares: the socket options and `--json`, and the plumbing
/// around its body (the connection, failures as exit statuses 69 or 1).
enum DaemonCommand {
    static let socketOption = Option.value(
        "--socket",
        "PATH",
        .file,
        help: "the daemon's socket (default $HOMEFEED_SOCKET, else your per-user daemon's, else the system's)"
    )

    static let userFlag = Option.flag(
        "--user",
        help: "your per-user daemon (\(DaemonSocket.userSocketPattern), systemctl --user)"
    )

    static let systemFlag = Option.flag("--system", help: "the system daemon (\(DaemonSocket.systemSocket))")

    static let jsonFlag = Option.flag("--json", help: "print the reply as JSON, for scripts")

    /// `--socket PATH`, `--user` and `--system`: which daemon (at most one of them).
    static let socketOptions = [socketOption, userFlag, systemFlag]

    /// The socket options and `--json`, which most daemon commands take.
    static let options = socketOptions + [jsonFlag]

    /// The command body around `body`: a lazily connected client, closed afterwards; a
    /// failure's message on stderr and its status; a usage failure reported with the usage.
    static func body(
        _ body: @escaping @Sendable (ParsedArguments, DaemonClient) throws(CommandFailure) -> Int32
    ) -> Command.Body {
        { arguments throws(UsageError) in
            let client = DaemonClient(try DaemonSocket(arguments, environment: ProcessInfo.processInfo.environment))
            defer { client.close() }
            do throws(CommandFailure) {
                return try body(arguments, client)
            } catch {
                if error.status == ExitStatus.usage { throw UsageError(error.message) }
                return error.report()
            }
        }
    }
}

extension JSONValue {
    /// Pretty JSON for people (`--json` output stays compact and sorted).
    var text: String { encodedString }
}
