import CommandTable
import Varlink

/// `homefeedctl store check`: SQLite's `integrity_check` of the daemon's store, run by the
/// daemon (`io.homefeed.CheckStore`).
enum StoreCommand {
    static let command = Command(
        "store",
        abstract: "the daemon's SQLite store",
        discussion: "Checks the daemon's SQLite store.",
        subcommands: [CommandGroup([check])]
    )

    static let check = Command(
        "check",
        abstract: "SQLite's integrity_check of the daemon's store",
        discussion: """
            Runs SQLite's integrity_check on the daemon's store: every page and every index, so it reads \
            the whole file, and waits for it however long that takes (Ctrl-C stops waiting; the daemon \
            finishes the check). Prints "store ok", or each problem found. Needs the right to call mutating \
            methods (root or the client group). The daemon checks the file with the quicker quick_check \
            at every start and moves a corrupt file aside by itself.
            """,
        options: DaemonCommand.options,
        exitStatuses: [
            ExitStatusMeaning(ExitStatus.ok, "store ok"),
            ExitStatusMeaning(ExitStatus.failure, "problems found, or an error reply"),
            ExitStatusMeaning(ExitStatus.usage, "usage error"),
            ExitStatusMeaning(ExitStatus.unavailable, "homefeedd is not running or refuses the connection"),
            ExitStatusMeaning(ExitStatus.outputFailed, "the output cannot be written"),
        ],
        examples: ["homefeedctl store check"],
        body: DaemonCommand.body(run)
    )

    static func run(_ arguments: ParsedArguments, _ client: DaemonClient) throws(CommandFailure) -> Int32 {
        let reply = try client.call("CheckStore", untilDone: true)
        let isSound = reply["ok"]?.boolValue == true
        if arguments.has("--json") {
            Console.out(JSONValue.object(reply).text)
        } else if isSound {
            Console.out("store ok")
        } else {
            let problems = (reply["problems"]?.arrayValue ?? []).compactMap(\.terminalString)
            Console.out(
                (["store has \(problems.count) problem(s):"] + problems.map { "  " + $0 }).joined(separator: "\n")
            )
        }
        return isSound ? ExitStatus.ok : ExitStatus.failure
    }
}
