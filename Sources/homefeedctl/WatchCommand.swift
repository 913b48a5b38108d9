import CommandTable
import Varlink

/// `homefeedctl watch`: subscribes to the manifest (`GetManifest` with `more`).
enum WatchCommand {
    static let command = Command(
        "watch",
        abstract: "one line (or manifest) per new version, until interrupted",
        discussion: """
            Subscribes to the manifest and prints one line per new version (with --json, one manifest \
            reply per line) until interrupted.
            """,
        options: ManifestCommand.targetOptions + DaemonCommand.options,
        examples: ["homefeedctl watch --profile phone"],
        body: DaemonCommand.body(run)
    )

    static func run(_ arguments: ParsedArguments, _ client: DaemonClient) throws(CommandFailure) -> Int32 {
        let json = arguments.has("--json")
        let parameters = ManifestCommand.targetParameters(arguments)
        let connection = try client.connected()
        do throws(VarlinkClientError) {
            try connection.callMore("io.homefeed.GetManifest", parameters: parameters) { reply in
                let parameters = reply.parameters.object ?? [:]
                if json {
                    Console.out(JSONValue.object(parameters).text)
                } else {
                    let sections = parameters["manifest"]?["sections"]?.arrayValue ?? []
                    let counts = sections.map {
                        "\($0["id"]?.stringValue ?? "?")=\($0["items"]?.arrayValue?.count ?? 0)"
                    }
                    Console.out(
                        "version \(parameters["version"]?.intValue ?? 0) etag \(parameters["etag"]?.stringValue ?? "") "
                            + counts.joined(separator: " ")
                    )
                }
                return true
            }
        } catch {
            throw CommandFailure(error, socket: client.socket)
        }
        return ExitStatus.ok
    }
}
