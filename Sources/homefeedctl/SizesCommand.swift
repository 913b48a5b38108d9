import Foundation
import Varlink

/// `homefeedctl sizes report|list|clear`: measured sizes (self-sizing) for people and scripts,
/// over `io.homefeed.ReportSizes`, `ListSizes` and `ClearSizes`.
enum SizesCommand {
    static let usage = """
        usage: homefeedctl sizes report [--profile P | --width W --height H [--scale S]] ID=SIZE ... [--socket PATH] [--json]
               homefeedctl sizes list [--profile P | --width W --height H [--scale S]] [--socket PATH] [--json]
               homefeedctl sizes clear [--profile P | --width W --height H [--scale S]] [--socket PATH] [--json]

        Sizes a client measured for elements of its manifest (docs/manifest.md, "Self-sizing").
        report records them for a profile (default: the first configured) or a container; each
        ID is a manifest element id and SIZE is HEIGHT, WIDTHxHEIGHT or WIDTHx (width only),
        in points. A report that moves any frame makes a new version. list shows the kept
        sizes and clear forgets them, of one profile or container, or of all.
        \(DaemonClient.socketHelp)

        Example:
          homefeedctl sizes report --profile phone 'notice:b36cf2955192fa39:notice-1042=45'
          homefeedctl sizes list
          homefeedctl sizes clear --profile phone
        """

    static func run(_ words: [String]) -> Int32 {
        // The subcommand comes first; anything else is help or a usage error, before connecting.
        guard let subcommand = words.first, ["report", "list", "clear"].contains(subcommand) else {
            if words.first == "--help" || words.first == "-h" {
                Console.out(usage)
                return ExitStatus.ok
            }
            Console.error("homefeedctl: expected sizes report, sizes list or sizes clear\n\n\(usage)")
            return ExitStatus.usage
        }
        let options: Set<String> = ["--profile", "--width", "--height", "--scale"]
        return DaemonCommand.run(Array(words.dropFirst()), usage: usage, options: options) {
            (arguments, client) throws(CommandFailure) in
            var parameters = try target(arguments)
            let json = arguments.has("--json")
            switch subcommand {
            case "report":
                guard !arguments.positionals.isEmpty else {
                    throw DaemonCommand.usage("expected at least one ID=SIZE", usage)
                }
                var sizes: [JSONValue] = []
                for word in arguments.positionals { sizes.append(try size(word)) }
                parameters["sizes"] = .array(sizes)
                let reply = try client.call("ReportSizes", parameters)
                if json {
                    Console.out(JSONValue.object(reply).text)
                } else {
                    let ignored = (reply["ignored"]?.arrayValue ?? []).compactMap(\.stringValue)
                    Console.out("version \(reply["version"]?.intValue ?? 0)")
                    if !ignored.isEmpty { Console.out("ignored: " + ignored.joined(separator: ", ")) }
                }
            case "list":
                guard arguments.positionals.isEmpty else { throw DaemonCommand.usage("list takes no ID", usage) }
                let reply = try client.call("ListSizes", parameters)
                if json {
                    Console.out(JSONValue.object(reply).text)
                    return ExitStatus.ok
                }
                let rows = reply["sizes"]?.arrayValue ?? []
                Console.out(
                    DaemonCommands.pad("TARGET", 24) + DaemonCommands.pad("WIDTH", 8) + DaemonCommands.pad("HEIGHT", 8)
                        + DaemonCommands.pad("REPORTED", 22) + "ID"
                )
                for row in rows {
                    func value(_ key: String) -> String {
                        row[key]?.isNull ?? true ? "-" : DaemonCommands.number(row[key])
                    }
                    Console.out(
                        DaemonCommands.pad(row["target"]?.stringValue ?? "", 24) + DaemonCommands.pad(value("width"), 8)
                            + DaemonCommands.pad(value("height"), 8)
                            + DaemonCommands.pad(row["reportedAt"]?.stringValue ?? "", 22)
                            + (row["id"]?.stringValue ?? "")
                    )
                }
            default:
                guard arguments.positionals.isEmpty else { throw DaemonCommand.usage("clear takes no ID", usage) }
                let reply = try client.call("ClearSizes", parameters)
                Console.out(
                    json
                        ? JSONValue.object(reply).text
                        : "cleared \(reply["cleared"]?.intValue ?? 0); version \(reply["version"]?.intValue ?? 0)"
                )
            }
            return ExitStatus.ok
        }
    }

    /// `--profile` or `--width/--height/--scale`, as `manifest` takes them.
    static func target(_ arguments: Arguments) throws(CommandFailure) -> [String: JSONValue] {
        var parameters: [String: JSONValue] = [:]
        if let profile = arguments.string("--profile") { parameters["profile"] = .string(profile) }
        do throws(UsageError) {
            if let width = try arguments.double("--width") { parameters["width"] = .double(width) }
            if let height = try arguments.double("--height") { parameters["height"] = .double(height) }
            if let scale = try arguments.double("--scale") { parameters["scale"] = .double(scale) }
        } catch {
            throw DaemonCommand.usage(error.description, usage)
        }
        return parameters
    }

    /// `ID=HEIGHT`, `ID=WIDTHxHEIGHT` or `ID=WIDTHx`; the id ends at the last `=` (ids may hold
    /// `=`, as URLs do).
    static func size(_ word: String) throws(CommandFailure) -> JSONValue {
        guard let equals = word.lastIndex(of: "="), equals != word.startIndex else {
            throw DaemonCommand.usage("\(word): expected ID=SIZE", usage)
        }
        let id = String(word[..<equals])
        let value = word[word.index(after: equals)...]
        var entry: [String: JSONValue] = ["id": .string(id)]
        func number(_ text: Substring) throws(CommandFailure) -> Double {
            guard let number = Double(text), number.isFinite else {
                throw DaemonCommand.usage("\(word): expected HEIGHT, WIDTHxHEIGHT or WIDTHx in points", usage)
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
