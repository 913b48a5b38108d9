import CommandTable
import Varlink

/// `homefeedctl reload`: `io.homefeed.Reload`, as SIGHUP.
enum ReloadCommand {
    static let command = Command(
        "reload",
        abstract: "re-read configuration, sources and layout",
        discussion: """
            Re-reads the configuration, sources and layout (as SIGHUP does). A configuration that does \
            not validate is rejected and the running one keeps serving.
            """,
        options: DaemonCommand.options,
        examples: ["homefeedctl reload"],
        body: DaemonCommand.body(run)
    )

    static func run(_ arguments: ParsedArguments, _ client: DaemonClient) throws(CommandFailure) -> Int32 {
        let reply = try client.call("Reload")
        Console.out(
            arguments.has("--json")
                ? JSONValue.object(reply).text : "reloaded; version \(reply["version"]?.intValue ?? 0)"
        )
        return ExitStatus.ok
    }
}
