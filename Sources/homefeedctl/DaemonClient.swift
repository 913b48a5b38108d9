import Foundation
import Varlink

/// The connection to homefeedd for the daemon commands, and how their failures end the process.
///
/// The socket comes from `--socket PATH`, else `$HOMEFEED_SOCKET`, else the default path.
/// A daemon that is not running exits 69 (`EX_UNAVAILABLE`) with its own message; an error
/// reply exits 1 naming the error.
struct DaemonClient {
    static let defaultSocket = "/run/homefeed/homefeed.sock"
    static let socketHelp = """
          --socket PATH   the daemon's socket (default $HOMEFEED_SOCKET, else \(defaultSocket))
          --json          print the reply as JSON, for scripts
        """

    let client: VarlinkClient

    static func socketPath(_ arguments: Arguments) -> String {
        arguments.string("--socket") ?? ProcessInfo.processInfo.environment["HOMEFEED_SOCKET"] ?? defaultSocket
    }

    /// Connects, or prints why not and returns nil (with the exit status to use).
    static func connect(_ arguments: Arguments) -> Result<DaemonClient, CommandFailure> {
        let path = socketPath(arguments)
        do throws(VarlinkClientError) {
            return .success(
                DaemonClient(client: try VarlinkClient(connectingTo: path.hasPrefix("unix:") ? path : "unix:" + path))
            )
        } catch {
            return .failure(CommandFailure(error, socket: path))
        }
    }

    func call(_ method: String, _ parameters: [String: JSONValue] = [:]) throws(CommandFailure) -> [String: JSONValue] {
        do throws(VarlinkClientError) {
            return try client.call("io.homefeed." + method, parameters: parameters)
        } catch {
            throw CommandFailure(error, socket: client.address.description)
        }
    }
}

/// A daemon command that failed, with its exit status.
struct CommandFailure: Error {
    static let unavailable: Int32 = 69

    var status: Int32
    var message: String

    init(status: Int32, message: String) {
        self.status = status
        self.message = message
    }

    init(_ error: VarlinkClientError, socket: String) {
        if error.isUnreachable, case .system(let system) = error, system.errno == EACCES || system.errno == EPERM {
            self.init(
                status: Self.unavailable,
                message: "no permission to connect to \(socket) (members of group homefeed may)"
            )
        } else if error.isUnreachable {
            self.init(status: Self.unavailable, message: "homefeedd is not running (no answer on \(socket))")
        } else if case .errorReply(let reply) = error {
            let details = reply.parameters.isEmpty ? "" : " " + JSONValue.object(reply.parameters).encodedString
            self.init(status: ExitStatus.invalidInput, message: "\(reply.name)\(details)")
        } else {
            self.init(status: ExitStatus.invalidInput, message: error.description)
        }
    }

    /// Prints the message and returns the status.
    func report() -> Int32 {
        Console.error("homefeedctl: \(message)")
        return status
    }
}

/// Runs a daemon command body with the shared plumbing: `--help`, argument errors (exit 2),
/// connection and call failures (exit 69 or 1).
enum DaemonCommand {
    static func run(
        _ words: [String],
        usage: String,
        options: Set<String> = [],
        flags: Set<String> = [],
        body: (Arguments, DaemonClient) throws(CommandFailure) -> Int32
    ) -> Int32 {
        if words.contains("--help") || words.contains("-h") {
            Console.out(usage)
            return ExitStatus.ok
        }
        let arguments: Arguments
        do throws(UsageError) {
            arguments = try Arguments(words, options: options.union(["--socket"]), flags: flags.union(["--json"]))
        } catch {
            Console.error("homefeedctl: \(error.description)\n\n\(usage)")
            return ExitStatus.usage
        }
        switch DaemonClient.connect(arguments) {
        case .failure(let failure):
            return failure.report()
        case .success(let client):
            defer { client.client.close() }
            do throws(CommandFailure) {
                return try body(arguments, client)
            } catch {
                return error.report()
            }
        }
    }

    /// A usage problem found inside a body.
    static func usage(_ message: String, _ usage: String) -> CommandFailure {
        CommandFailure(status: ExitStatus.usage, message: "\(message)\n\n\(usage)")
    }
}

extension JSONValue {
    /// Pretty JSON for people (`--json` output stays compact and sorted).
    var text: String { encodedString }
}
