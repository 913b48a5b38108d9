import CommandTable
import HomeFeeds
import Varlink

/// `homefeedctl history add|list`: the user-history section's events.
enum HistoryCommand {
    static let command = Command(
        "history",
        abstract: "record or list user-history events",
        discussion: """
            Records something the user opened or did (a new version shows it in the history section), \
            or lists the history the served home screen shows.
            """,
        subcommands: [CommandGroup([add, list])]
    )

    static let add = Command(
        "add",
        abstract: "record a user-history event",
        discussion: """
            Records something the user opened or did (io.homefeed.RecordHistory); a new version shows \
            it in the history section.
            """,
        arguments: [Argument("TITLE", help: "what the user opened or did, as the history section shows it")],
        options: [
            .value("--link", "URL", help: "where the event leads"),
            .value("--kind", "KIND", help: "what kind of event it is, a word of 1 to 64 bytes (default open)"),
        ] + DaemonCommand.options,
        examples: [#"homefeedctl history add "도서관 좌석 예약" --link https://example.test/library --kind open"#],
        body: DaemonCommand.body(runAdd)
    )

    static let list = Command(
        "list",
        abstract: "the history the served home screen shows",
        discussion: """
            Lists the history events the served home screen shows (the manifest of the first \
            configured profile), in the section's order.
            """,
        options: DaemonCommand.options,
        examples: ["homefeedctl history list --json"],
        body: DaemonCommand.body(runList)
    )

    static func runAdd(_ arguments: ParsedArguments, _ client: DaemonClient) throws(CommandFailure) -> Int32 {
        // Checked before connecting, as every malformed value is (exit 64): the lengths
        // RecordHistory takes, of the text folded as it folds it.
        let title = arguments.positionals[0]
        guard let folded = FoldedText.of(title), folded.utf8.count <= HistoryEventLimits.titleBytes else {
            throw .usage("TITLE: expected 1 to \(HistoryEventLimits.titleBytes) bytes of text")
        }
        var parameters: [String: JSONValue] = ["title": .string(title)]
        if let link = arguments.string("--link") {
            guard link.utf8.count <= HistoryEventLimits.linkBytes else {
                throw .usage("--link: longer than \(HistoryEventLimits.linkBytes) bytes")
            }
            parameters["link"] = .string(link)
        }
        if let kind = arguments.string("--kind") {
            guard let folded = FoldedText.of(kind), folded.utf8.count <= HistoryEventLimits.kindBytes else {
                throw .usage("--kind: expected a word of 1 to \(HistoryEventLimits.kindBytes) bytes")
            }
            parameters["kind"] = .string(kind)
        }
        let reply = try client.call("RecordHistory", parameters)
        Console.out(
            arguments.has("--json")
                ? JSONValue.object(reply).text
                : "recorded \(reply["id"]?.intValue ?? 0); version \(reply["version"]?.intValue ?? 0)"
        )
        return ExitStatus.ok
    }

    static func runList(_ arguments: ParsedArguments, _ client: DaemonClient) throws(CommandFailure) -> Int32 {
        // The interface has no history listing: show what the served home screen shows.
        let reply = try client.call("GetManifest")
        let items = (reply["manifest"]?["sections"]?.arrayValue ?? []).flatMap { $0["items"]?.arrayValue ?? [] }
        let history = items.filter { $0["kind"]?.stringValue == "history" }
        if arguments.has("--json") {
            Console.out(JSONValue.array(history.map { $0["content"] ?? .null }).text)
        } else {
            for item in history {
                let content = item["content"] ?? .null
                Console.out("\(content["at"]?.terminalString ?? "")  \(content["title"]?.terminalString ?? "")")
            }
        }
        return ExitStatus.ok
    }
}
