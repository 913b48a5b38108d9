import CommandTable
import Varlink

/// `homefeedctl reload`: `io.homefeed.Reload`, as SIGHUP.
enum ReloadCommand {
    static let command = Command(
        "reload",
        abstract: "re-read configuration, sources and layout",
        discussion: """
            Re-reads the configuration, sources and layout (as SIGHUP does). A configuration that does \
            not validate, or whose layout cannot lay out the stored content, is rejected and the running \
            one keeps serving. Waits until the daemon has applied it, however long that takes.
            """,
        options: DaemonCommand.options,
        examples: ["homefeedctl reload"],
        body: DaemonCommand.body(run)
    )

    static func run(_ arguments: ParsedArguments, _ client: DaemonClient) throws(CommandFailure) -> Int32 {
        // Until done: a reload reads the store, lays out every profile and publishes, each store
        // step waiting up to store-busy-timeout (60 s at most) for another process's lock.
        let reply = try client.call("Reload", untilDone: true)
        Console.out(
            arguments.has("--json")
                ? JSONValue.object(reply).text : "reloaded; version \(reply["version"]?.intValue ?? 0)"
        )
        return ExitStatus.ok
    }
}
