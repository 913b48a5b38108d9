import Varlink

/// `store check`: SQLite's `integrity_check` of the daemon's store, run by the daemon
/// (`io.homefeed.CheckStore`).
enum StoreCommand {
    static let usage = """
        usage: homefeedctl store check [--socket PATH] [--json]

        Runs SQLite's integrity_check on the daemon's store: every page and every index, so it
        reads the whole file. Prints "store ok", or each problem found (exit 1). Needs the right
        to call mutating methods (root or the client group). The daemon checks the file with the
        quicker quick_check at every start and moves a corrupt file aside by itself.
        \(DaemonClient.socketHelp)

        Example:
          homefeedctl store check
        """

    static func run(_ words: [String]) -> Int32 {
        // The subcommand comes first; anything else is help or a usage error, before connecting.
        guard words.first == "check" else {
            if words.first == "--help" || words.first == "-h" {
                Console.out(usage)
                return ExitStatus.ok
            }
            Console.error("homefeedctl: expected store check\n\n\(usage)")
            return ExitStatus.usage
        }
        return DaemonCommand.run(Array(words.dropFirst()), usage: usage) { (arguments, client) throws(CommandFailure) in
            guard arguments.positionals.isEmpty else {
                throw DaemonCommand.usage("store check takes no arguments", usage)
            }
            let reply = try client.call("CheckStore")
            let isSound = reply["ok"]?.boolValue == true
            if arguments.has("--json") {
                Console.out(JSONValue.object(reply).text)
            } else if isSound {
                Console.out("store ok")
            } else {
                let problems = (reply["problems"]?.arrayValue ?? []).compactMap(\.stringValue)
                Console.out(
                    (["store has \(problems.count) problem(s):"] + problems.map { "  " + $0 }).joined(separator: "\n")
                )
            }
            return isSound ? ExitStatus.ok : ExitStatus.invalidInput
        }
    }
}
