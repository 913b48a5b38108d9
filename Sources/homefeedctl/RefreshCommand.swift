import CommandTable
import Foundation
import Varlink

/// `homefeedctl refresh [URL]`: fetches one source or all now (`io.homefeed.Refresh`).
enum RefreshCommand {
    static let command = Command(
        "refresh",
        abstract: "fetch one source or all now",
        discussion: """
            Fetches one source (or all) now and waits until done, however long the fetches take \
            (Ctrl-C stops waiting; the daemon finishes them). On a terminal, all sources are fetched one \
            at a time with a line of progress each.
            """,
        arguments: [Argument("URL", .text, .optional, help: "the source to fetch, as the sources list names it")],
        options: DaemonCommand.options,
        examples: ["homefeedctl refresh", "homefeedctl refresh https://example.test/notices.xml"],
        body: DaemonCommand.body(run)
    )

    static func run(_ arguments: ParsedArguments, _ client: DaemonClient) throws(CommandFailure) -> Int32 {
        let json = arguments.has("--json")
        if let url = arguments.positionals.first {
            return printRefresh(try client.call("Refresh", ["url": .string(url)], untilDone: true), json: json)
        }
        guard isatty(STDOUT_FILENO) != 0, !json else {
            return printRefresh(try client.call("Refresh", untilDone: true), json: json)
        }
        // On a terminal: one source at a time, so each line shows as its fetch ends.
        let sources = (try client.call("GetStatus")["sources"]?.arrayValue ?? []).compactMap {
            $0["url"]?.stringValue
        }
        var attempted = 0
        var changed = 0
        var version = 0
        for (index, url) in sources.enumerated() {
            Console.out("[\(index + 1)/\(sources.count)] \(url) …", terminator: "")
            let reply = try client.call("Refresh", ["url": .string(url)], untilDone: true)
            attempted += reply["attempted"]?.intValue ?? 0
            changed += reply["changed"]?.intValue ?? 0
            version = reply["version"]?.intValue ?? version
            let error = try client.call("GetStatus")["sources"]?.arrayValue?
                .first { $0["url"]?.stringValue == url }?["lastError"]?.stringValue
            Console.out(
                error.map { " failed: \($0)" } ?? ((reply["changed"]?.intValue ?? 0) > 0 ? " changed" : " unchanged")
            )
        }
        Console.out("\(attempted) fetched, \(changed) changed; version \(version)")
        return ExitStatus.ok
    }

    static func printRefresh(_ reply: [String: JSONValue], json: Bool) -> Int32 {
        if json {
            Console.out(JSONValue.object(reply).text)
        } else {
            Console.out(
                "\(reply["attempted"]?.intValue ?? 0) fetched, \(reply["changed"]?.intValue ?? 0) changed; "
                    + "version \(reply["version"]?.intValue ?? 0)"
            )
        }
        return ExitStatus.ok
    }
}
