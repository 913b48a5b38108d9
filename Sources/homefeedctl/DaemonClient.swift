import CommandTable
import Foundation
import Varlink

/// The connection to homefeedd for the daemon commands, made at the first call.
///
/// The socket comes from `--socket PATH`, else `$HOMEFEED_SOCKET`, else the default path.
/// Connecting late lets a body check its input first, so a usage error never waits for, or
/// depends on, a running daemon. Confined to the command's one thread.
final class DaemonClient {
    static let defaultSocket = "/run/homefeed/homefeed.sock"

    let socket: String
    private var client: VarlinkClient?

    init(_ arguments: ParsedArguments) {
        socket =
            arguments.string("--socket") ?? ProcessInfo.processInfo.environment["HOMEFEED_SOCKET"] ?? Self.defaultSocket
    }

    /// The connection, made now if it is not yet.
    func connected() throws(CommandFailure) -> VarlinkClient {
        if let client { return client }
        do throws(VarlinkClientError) {
            let made = try VarlinkClient(connectingTo: socket.hasPrefix("unix:") ? socket : "unix:" + socket)
            client = made
            return made
        } catch {
            throw CommandFailure(error, socket: socket)
        }
    }

    /// Calls `io.homefeed.METHOD` and returns the reply's parameters.
    func call(_ method: String, _ parameters: [String: JSONValue] = [:]) throws(CommandFailure) -> [String: JSONValue] {
        let client = try connected()
        do throws(VarlinkClientError) {
            return try client.call("io.homefeed." + method, parameters: parameters)
        } catch {
            throw CommandFailure(error, socket: socket)
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

    init(_ error: VarlinkClientError, socket: String) {
        if error.isUnreachable, case .system(let system) = error, system.errno == EACCES || system.errno == EPERM {
            self.init(
                status: ExitStatus.unavailable,
                message: "no permission to connect to \(socket) (members of group homefeed may)"
            )
        } else if error.isUnreachable {
            self.init(status: ExitStatus.unavailable, message: "homefeedd is not running (no answer on \(socket))")
        } else if case .errorReply(let reply) = error {
            let details = reply.parameters.isEmpty ? "" : " " + JSONValue.object(reply.parameters).encodedString
            self.init(status: ExitStatus.failure, message: "\(reply.name)\(details)")
        } else {
            self.init(status: ExitStatus.failure, message: error.description)
        }
    }

    /// Prints the message and returns the status.
    func report() -> Int32 {
        Console.error("homefeedctl: \(message)")
        return status
    }
}

/// What every daemon command shares: the `--socket` and `--json` options, and the plumbing
/// around its body (the connection, failures as exit statuses 69 or 1).
enum DaemonCommand {
    static let socketOption = Option.value(
        "--socket",
        "PATH",
        .file,
        help: "the daemon's socket (default $HOMEFEED_SOCKET, else \(DaemonClient.defaultSocket))"
    )

    static let jsonFlag = Option.flag("--json", help: "print the reply as JSON, for scripts")

    /// `--socket PATH` and `--json`, which most daemon commands take.
    static let options = [socketOption, jsonFlag]

    /// The command body around `body`: a lazily connected client, closed afterwards; a
    /// failure's message on stderr and its status; a usage failure reported with the usage.
    static func body(
        _ body: @escaping @Sendable (ParsedArguments, DaemonClient) throws(CommandFailure) -> Int32
    ) -> Command.Body {
        { arguments throws(UsageError) in
            let client = DaemonClient(arguments)
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
