import CommandTable
import Foundation
import Varlink

/// `homefeedctl sizes report|list|clear`: measured sizes (self-sizing) for people and scripts,
/// over `io.homefeed.ReportSizes`, `ListSizes` and `ClearSizes`.
enum SizesCommand {
    static let command = Command(
        "sizes",
        abstract: "measured sizes of manifest elements (self-sizing)",
        discussion: """
            Sizes a client measured for elements of its manifest (docs/manifest.md, "Self-sizing"), kept \
            per profile or container: report records them, list shows them and clear forgets them.
            """,
        subcommands: [CommandGroup([report, list, clear])]
    )

    static let report = Command(
        "report",
        abstract: "record sizes a client measured",
        discussion: """
            Records sizes a client measured for elements of its manifest (docs/manifest.md, \
            "Self-sizing") for a profile (default: the first configured) or a container. A report that \
            moves any frame makes a new version; ids the manifest does not hold are listed as ignored.
            """,
        arguments: [
            Argument(
                "ID=SIZE",
                .text,
                .oneOrMore,
                help: "a manifest element id and its size in points: HEIGHT, WIDTHxHEIGHT or WIDTHx (width only)"
            )
        ],
        options: ManifestCommand.targetOptions + DaemonCommand.options,
        examples: ["homefeedctl sizes report --profile phone 'notice:b36cf2955192fa39:notice-1042=45'"],
        body: DaemonCommand.body(runReport)
    )

    static let list = Command(
        "list",
        abstract: "the kept sizes",
        discussion: "Lists the measured sizes the daemon keeps, of one profile or container, or of all.",
        options: everyTargetOptions + DaemonCommand.options,
        examples: ["homefeedctl sizes list"],
        body: DaemonCommand.body(runList)
    )

    static let clear = Command(
        "clear",
        abstract: "forget the kept sizes",
        discussion: """
            Forgets the measured sizes of one profile or container, or of all, and makes a new version \
            laid out without them.
            """,
        options: everyTargetOptions + DaemonCommand.options,
        examples: ["homefeedctl sizes clear --profile phone"],
        body: DaemonCommand.body(runClear)
    )

    /// The target of `list` and `clear`: without one, every profile and container.
    static let everyTargetOptions = ManifestCommand.targetOptions(byDefault: "every profile and container")

    static func runReport(_ arguments: ParsedArguments, _ client: DaemonClient) throws(CommandFailure) -> Int32 {
        var parameters = try ManifestCommand.targetParameters(arguments)
        var sizes: [JSONValue] = []
        for word in arguments.positionals { sizes.append(try size(word)) }
        parameters["sizes"] = .array(sizes)
        let reply = try client.call("ReportSizes", parameters)
        if arguments.has("--json") {
            Console.out(JSONValue.object(reply).text)
        } else {
            let ignored = (reply["ignored"]?.arrayValue ?? []).compactMap(\.terminalString)
            Console.out("version \(reply["version"]?.intValue ?? 0)")
            if !ignored.isEmpty { Console.out("ignored: " + ignored.joined(separator: ", ")) }
        }
        return ExitStatus.ok
    }

    static func runList(_ arguments: ParsedArguments, _ client: DaemonClient) throws(CommandFailure) -> Int32 {
        let reply = try client.call("ListSizes", ManifestCommand.targetParameters(arguments))
        if arguments.has("--json") {
            Console.out(JSONValue.object(reply).text)
            return ExitStatus.ok
        }
        Console.out(
            Format.pad("TARGET", 24) + Format.pad("WIDTH", 8) + Format.pad("HEIGHT", 8) + Format.pad("REPORTED", 22)
                + "ID"
        )
        for row in reply["sizes"]?.arrayValue ?? [] {
            func value(_ key: String) -> String {
                row[key]?.isNull ?? true ? "-" : Format.number(row[key])
            }
            Console.out(
                Format.pad(row["target"]?.terminalString ?? "", 24) + Format.pad(value("width"), 8)
                    + Format.pad(value("height"), 8) + Format.pad(row["reportedAt"]?.terminalString ?? "", 22)
                    + (row["id"]?.terminalString ?? "")
            )
        }
        return ExitStatus.ok
    }

    static func runClear(_ arguments: ParsedArguments, _ client: DaemonClient) throws(CommandFailure) -> Int32 {
        let reply = try client.call("ClearSizes", ManifestCommand.targetParameters(arguments))
        Console.out(
            arguments.has("--json")
                ? JSONValue.object(reply).text
                : "cleared \(reply["cleared"]?.intValue ?? 0); version \(reply["version"]?.intValue ?? 0)"
        )
        return ExitStatus.ok
    }

    /// `ID=HEIGHT`, `ID=WIDTHxHEIGHT` or `ID=WIDTHx`; the id ends at the last `=` (ids may hold
    /// `=`, as URLs do).
    static func size(_ word: String) throws(CommandFailure) -> JSONValue {
        guard let equals = word.lastIndex(of: "="), equals != word.startIndex else {
            throw .usage("\(word): expected ID=SIZE")
        }
        let id = String(word[..<equals])
        let value = word[word.index(after: equals)...]
        var entry: [String: JSONValue] = ["id": .string(id)]
        func number(_ text: Substring) throws(CommandFailure) -> Double {
            guard let number = ValueKind.decimal(text) else {
                throw .usage("\(word): expected HEIGHT, WIDTHxHEIGHT or WIDTHx in points")
            }
            return number
        }
        if let x = value.firstIndex(of: "x") {
            entry["width"] = .double(try number(value[..<x]))
            let height = value[value.index(after: x)...]
            if !height.isEmpty { entry["height"] = .double(try number(height)) }
        } else {
            entry["height"] = .double(try number(value))
        }
        return .object(entry)
    }
}
