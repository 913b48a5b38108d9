import Foundation
import Varlink

/// `status`, `manifest`, `watch`, `refresh`, `history`, `notices`, `reload`: io.homefeed calls
/// with human output by default and `--json` for scripts.
enum DaemonCommands {
    // MARK: status

    static let statusUsage = """
        usage: homefeedctl status [--socket PATH] [--json]

        The daemon's version, counts, the store's state when it is not ok, and the health of
        every source.
        \(DaemonClient.socketHelp)

        Example:
          homefeedctl status --socket /tmp/hf/homefeed.sock
        """

    static func status(_ words: [String]) -> Int32 {
        DaemonCommand.run(words, usage: statusUsage) { (arguments, client) throws(CommandFailure) in
            let reply = try client.call("GetStatus")
            if arguments.has("--json") {
                Console.out(JSONValue.object(reply).text)
                return ExitStatus.ok
            }
            func int(_ key: String) -> Int { reply[key]?.intValue ?? 0 }
            var lines = [
                "version \(int("version")) · started \(reply["startedAt"]?.stringValue ?? "?") · "
                    + "\(int("notices")) notices · \(int("serviceLinks")) links · \(int("history")) history · "
                    + "\(int("subscribers")) subscribers",
                "",
                pad("HEALTH", 8) + pad("ENTRIES", 9) + pad("LAST SUCCESS", 22) + pad("NEXT", 22) + "SOURCE",
            ]
            if let store = reply["store"]?.stringValue, store != "ok" {
                lines.insert("store \(store): \(reply["storeReason"]?.stringValue ?? "")", at: 1)
            }
            for source in reply["sources"]?.arrayValue ?? [] {
                let failures = source["failures"]?.intValue ?? 0
                let error = source["lastError"]?.stringValue
                let health = error == nil ? "ok" : (source["nextAttempt"]?.isNull ?? true ? "stopped" : "failing")
                lines.append(
                    pad(health, 8) + pad(String(source["entries"]?.intValue ?? 0), 9)
                        + pad(source["lastSuccess"]?.stringValue ?? "never", 22)
                        + pad(source["nextAttempt"]?.stringValue ?? "-", 22)
                        + (source["url"]?.stringValue ?? "")
                )
                if let error { lines.append("        \(failures) failure(s): \(error)") }
                if let warnings = source["warnings"]?.intValue, warnings > 0 {
                    lines.append(
                        "        \(warnings) warning(s) in the last document (homefeedctl feed parse shows them)"
                    )
                }
            }
            if let images = reply["images"], !images.isNull {
                let errors = images["errors"]?.arrayValue ?? []
                lines += [
                    "",
                    "images: \(images["originals"]?.intValue ?? 0) originals · "
                        + "\(images["renditions"]?.intValue ?? 0) renditions · "
                        + "\(images["cacheBytes"]?.intValue ?? 0) bytes cached · \(errors.count) errors",
                ]
                for error in errors {
                    lines.append("  \(error["url"]?.stringValue ?? "?"): \(error["error"]?.stringValue ?? "")")
                }
            }
            Console.out(lines.joined(separator: "\n"))
            return ExitStatus.ok
        }
    }

    // MARK: manifest and watch

    static let manifestUsage = """
        usage: homefeedctl manifest [--profile P | --width W --height H [--scale S]] [--socket PATH] [--json]

        The manifest the daemon serves for a profile (default: the first configured) or for any
        container. Human output lists the sections; --json prints the whole reply.
        \(DaemonClient.socketHelp)

        Example:
          homefeedctl manifest --profile tablet
          homefeedctl manifest --width 360 --height 740 --scale 3 --json
        """

    static func manifestParameters(_ arguments: Arguments) throws(CommandFailure) -> [String: JSONValue] {
        var parameters: [String: JSONValue] = [:]
        if let profile = arguments.string("--profile") { parameters["profile"] = .string(profile) }
        do throws(UsageError) {
            if let width = try arguments.double("--width") { parameters["width"] = .double(width) }
            if let height = try arguments.double("--height") { parameters["height"] = .double(height) }
            if let scale = try arguments.double("--scale") { parameters["scale"] = .double(scale) }
        } catch {
            throw DaemonCommand.usage(error.description, manifestUsage)
        }
        return parameters
    }

    static func manifest(_ words: [String]) -> Int32 {
        DaemonCommand.run(words, usage: manifestUsage, options: ["--profile", "--width", "--height", "--scale"]) {
            (arguments, client) throws(CommandFailure) in
            let reply = try client.call("GetManifest", try manifestParameters(arguments))
            if arguments.has("--json") {
                Console.out(JSONValue.object(reply).text)
                return ExitStatus.ok
            }
            Console.out(summary(reply))
            return ExitStatus.ok
        }
    }

    /// One line per section: id, item count, frame; then the content size.
    static func summary(_ reply: [String: JSONValue]) -> String {
        let manifest = reply["manifest"] ?? .null
        let container = reply["container"] ?? .null
        var lines = [
            "version \(reply["version"]?.intValue ?? 0) etag \(reply["etag"]?.stringValue ?? "") · "
                + "\(number(container["width"]))×\(number(container["height"]))@\(number(container["scale"]))x"
        ]
        for section in manifest["sections"]?.arrayValue ?? [] {
            let frame = section["frame"] ?? .null
            let items = section["items"]?.arrayValue ?? []
            var line = "  " + pad(section["id"]?.stringValue ?? "?", 14) + pad("\(items.count) items", 10)
            line +=
                "y \(number(frame["y"]))–\(number((frame["y"]?.doubleValue ?? 0) + (frame["height"]?.doubleValue ?? 0)))"
            if let title = section["header"]?["content"]?["title"]?.stringValue { line += "  header \"\(title)\"" }
            lines.append(line)
        }
        let size = manifest["contentSize"] ?? .null
        lines.append("  content \(number(size["width"]))×\(number(size["height"]))")
        return lines.joined(separator: "\n")
    }

    static let watchUsage = """
        usage: homefeedctl watch [--profile P | --width W --height H [--scale S]] [--socket PATH] [--json]

        Subscribes to the manifest and prints one line per new version (with --json, one
        manifest reply per line) until interrupted.
        \(DaemonClient.socketHelp)

        Example:
          homefeedctl watch --profile phone
        """

    static func watch(_ words: [String]) -> Int32 {
        DaemonCommand.run(words, usage: watchUsage, options: ["--profile", "--width", "--height", "--scale"]) {
            (arguments, client) throws(CommandFailure) in
            let json = arguments.has("--json")
            let parameters = try manifestParameters(arguments)
            do throws(VarlinkClientError) {
                try client.client.callMore("io.homefeed.GetManifest", parameters: parameters) {
                    reply in
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
                throw CommandFailure(error, socket: client.client.address.description)
            }
            return ExitStatus.ok
        }
    }

    // MARK: refresh, history, notices, reload

    static let refreshUsage = """
        usage: homefeedctl refresh [URL] [--socket PATH] [--json]

        Fetches one source (or all) now and waits until done. On a terminal, all sources are
        fetched one at a time with a line of progress each.
        \(DaemonClient.socketHelp)

        Example:
          homefeedctl refresh
        """

    static func refresh(_ words: [String]) -> Int32 {
        DaemonCommand.run(words, usage: refreshUsage) { (arguments, client) throws(CommandFailure) in
            guard arguments.positionals.count <= 1 else { throw DaemonCommand.usage("at most one URL", refreshUsage) }
            if let url = arguments.positionals.first {
                return try printRefresh(client.call("Refresh", ["url": .string(url)]), json: arguments.has("--json"))
            }
            guard isatty(STDOUT_FILENO) != 0, !arguments.has("--json") else {
                return try printRefresh(client.call("Refresh"), json: arguments.has("--json"))
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
                let reply = try client.call("Refresh", ["url": .string(url)])
                attempted += reply["attempted"]?.intValue ?? 0
                changed += reply["changed"]?.intValue ?? 0
                version = reply["version"]?.intValue ?? version
                let error = try client.call("GetStatus")["sources"]?.arrayValue?
                    .first { $0["url"]?.stringValue == url }?["lastError"]?.stringValue
                Console.out(
                    error.map { " failed: \($0)" }
                        ?? ((reply["changed"]?.intValue ?? 0) > 0 ? " changed" : " unchanged")
                )
            }
            Console.out("\(attempted) fetched, \(changed) changed; version \(version)")
            return ExitStatus.ok
        }
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

    static let historyUsage = """
        usage: homefeedctl history add TITLE [--link URL] [--kind KIND] [--socket PATH] [--json]
               homefeedctl history list [--socket PATH] [--json]

        Records something the user opened or did (a new version shows it in the history
        section), or lists the history the served home screen shows.
        \(DaemonClient.socketHelp)

        Example:
          homefeedctl history add "도서관 좌석 예약" --link https://example.test/library --kind open
        """

    static func history(_ words: [String]) -> Int32 {
        // The subcommand comes first; anything else is help or a usage error, before connecting.
        guard let subcommand = words.first, subcommand == "add" || subcommand == "list" else {
            if words.first == "--help" || words.first == "-h" {
                Console.out(historyUsage)
                return ExitStatus.ok
            }
            Console.error("homefeedctl: expected history add or history list\n\n\(historyUsage)")
            return ExitStatus.usage
        }
        return DaemonCommand.run(Array(words.dropFirst()), usage: historyUsage, options: ["--link", "--kind"]) {
            (arguments, client) throws(CommandFailure) in
            switch subcommand {
            case "add":
                guard arguments.positionals.count == 1 else {
                    throw DaemonCommand.usage("expected one TITLE", historyUsage)
                }
                var parameters: [String: JSONValue] = ["title": .string(arguments.positionals[0])]
                if let link = arguments.string("--link") { parameters["link"] = .string(link) }
                if let kind = arguments.string("--kind") { parameters["kind"] = .string(kind) }
                let reply = try client.call("RecordHistory", parameters)
                Console.out(
                    arguments.has("--json")
                        ? JSONValue.object(reply).text
                        : "recorded \(reply["id"]?.intValue ?? 0); version \(reply["version"]?.intValue ?? 0)"
                )
            case "list":
                // The interface has no history listing: show what the served home screen shows.
                let reply = try client.call("GetManifest")
                let items = (reply["manifest"]?["sections"]?.arrayValue ?? []).flatMap { $0["items"]?.arrayValue ?? [] }
                let history = items.filter { $0["kind"]?.stringValue == "history" }
                if arguments.has("--json") {
                    Console.out(JSONValue.array(history.map { $0["content"] ?? .null }).text)
                } else {
                    for item in history {
                        let content = item["content"] ?? .null
                        Console.out("\(content["at"]?.stringValue ?? "")  \(content["title"]?.stringValue ?? "")")
                    }
                }
            default:
                throw DaemonCommand.usage("expected add or list", historyUsage)
            }
            return ExitStatus.ok
        }
    }

    static let noticesUsage = """
        usage: homefeedctl notices [--limit N] [--source URL] [--socket PATH] [--json]

        The newest notices, newest first.
        \(DaemonClient.socketHelp)

        Example:
          homefeedctl notices --limit 5
        """

    static func notices(_ words: [String]) -> Int32 {
        DaemonCommand.run(words, usage: noticesUsage, options: ["--limit", "--source"]) {
            (arguments, client) throws(CommandFailure) in
            var parameters: [String: JSONValue] = [:]
            if let text = arguments.string("--limit") {
                guard let limit = Int(text) else {
                    throw DaemonCommand.usage("--limit: expected a number", noticesUsage)
                }
                parameters["limit"] = .int(limit)
            }
            if let source = arguments.string("--source") { parameters["source"] = .string(source) }
            let reply = try client.call("ListNotices", parameters)
            if arguments.has("--json") {
                Console.out(JSONValue.object(reply).text)
                return ExitStatus.ok
            }
            for notice in reply["notices"]?.arrayValue ?? [] {
                Console.out(
                    pad(notice["published"]?.stringValue ?? "", 22) + pad(notice["sourceTitle"]?.stringValue ?? "", 16)
                        + (notice["title"]?.stringValue ?? "(untitled)")
                )
            }
            return ExitStatus.ok
        }
    }

    static let reloadUsage = """
        usage: homefeedctl reload [--socket PATH] [--json]

        Re-reads the configuration, sources and layout (as SIGHUP does). A configuration that
        does not validate is rejected and the running one keeps serving.
        \(DaemonClient.socketHelp)

        Example:
          homefeedctl reload
        """

    static func reload(_ words: [String]) -> Int32 {
        DaemonCommand.run(words, usage: reloadUsage) { (arguments, client) throws(CommandFailure) in
            let reply = try client.call("Reload")
            Console.out(
                arguments.has("--json")
                    ? JSONValue.object(reply).text : "reloaded; version \(reply["version"]?.intValue ?? 0)"
            )
            return ExitStatus.ok
        }
    }

    // MARK: Formatting

    static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }

    static func number(_ value: JSONValue?) -> String {
        guard let v = value?.doubleValue else { return "?" }
        return v == v.rounded() && abs(v) < 1e15 ? String(Int64(v)) : String(v)
    }

    static func number(_ value: Double) -> String { number(.double(value)) }
}
