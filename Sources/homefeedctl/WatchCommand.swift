import CommandTable
import Varlink

/// `homefeedctl watch`: subscribes to the manifest (`GetManifest` with `more`).
enum WatchCommand {
    static let command = Command(
        "watch",
        abstract: "one line (or manifest) per new version, until interrupted",
        discussion: """
            Subscribes to the manifest and prints one line per new version (with --json, one manifest \
            reply per line) until interrupted. When the daemon ends the subscription (it is stopping), \
            prints "homefeedctl: the daemon ended the subscription" on stderr and exits 69.
            """,
        options: ManifestCommand.targetOptions + DaemonCommand.options,
        exitStatuses: [
            ExitStatusMeaning(ExitStatus.failure, "an error reply"),
            ExitStatusMeaning(ExitStatus.usage, "usage error"),
            ExitStatusMeaning(
                ExitStatus.unavailable,
                "homefeedd is not running, refuses the connection, or ended the subscription"
            ),
            ExitStatusMeaning(ExitStatus.outputFailed, "the output cannot be written"),
        ],
        examples: ["homefeedctl watch --profile phone"],
        body: DaemonCommand.body(run)
    )

    /// How the subscription's end is reported: the daemon's doing, like a daemon that is not
    /// running, never a success.
    static let ended = CommandFailure(status: ExitStatus.unavailable, message: "the daemon ended the subscription")

    static func run(_ arguments: ParsedArguments, _ client: DaemonClient) throws(CommandFailure) -> Int32 {
        let json = arguments.has("--json")
        let parameters = try ManifestCommand.targetParameters(arguments)
        let connection = try client.connected()
        // The daemon ends a subscription with the current manifest again (its final reply, without
        // continues): a version already printed is not printed twice.
        var printed: Int?
        do throws(VarlinkClientError) {
            try connection.callMore("io.homefeed.GetManifest", parameters: parameters) { reply in
                let parameters = reply.parameters.object ?? [:]
                let version = parameters["version"]?.intValue
                guard version == nil || version != printed else { return true }
                printed = version
                if json {
                    Console.out(JSONValue.object(parameters).text)
                } else {
                    let sections = parameters["manifest"]?["sections"]?.arrayValue ?? []
                    let counts = sections.map {
                        "\($0["id"]?.terminalString ?? "?")=\($0["items"]?.arrayValue?.count ?? 0)"
                    }
                    Console.out(
                        "version \(version ?? 0) etag \(parameters["etag"]?.terminalString ?? "") "
                            + counts.joined(separator: " ")
                    )
                }
                return true
            }
        } catch .connectionClosed where connection.hasReceivedBytes {
            throw ended
        } catch {
            throw CommandFailure(error, socket: client.socket, hasReplied: connection.hasReceivedBytes)
        }
        throw ended
    }
}
