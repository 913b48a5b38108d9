import CommandTable
import Varlink

/// `homefeedctl notices`: the newest notices (`io.homefeed.ListNotices`).
enum NoticesCommand {
    static let command = Command(
        "notices",
        abstract: "the newest notices",
        discussion: "The newest notices, newest first.",
        options: [
            .value("--limit", "N", .integer(1...1000), help: "how many notices, 1 to 1000 (default 20)"),
            .value("--source", "URL", help: "only the notices of this source"),
        ] + DaemonCommand.options,
        examples: ["homefeedctl notices --limit 5"],
        body: DaemonCommand.body(run)
    )

    static func run(_ arguments: ParsedArguments, _ client: DaemonClient) throws(CommandFailure) -> Int32 {
        var parameters: [String: JSONValue] = [:]
        if let limit = arguments.integer("--limit") { parameters["limit"] = .int(limit) }
        if let source = arguments.string("--source") { parameters["source"] = .string(source) }
        let reply = try client.call("ListNotices", parameters)
        if arguments.has("--json") {
            Console.out(JSONValue.object(reply).text)
            return ExitStatus.ok
        }
        for notice in reply["notices"]?.arrayValue ?? [] {
            Console.out(
                Format.pad(notice["published"]?.terminalString ?? "", 22)
                    + Format.pad(notice["sourceTitle"]?.terminalString ?? "", 16)
                    + (notice["title"]?.terminalString ?? "(untitled)")
            )
        }
        return ExitStatus.ok
    }
}
