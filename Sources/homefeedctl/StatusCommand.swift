import CommandTable
import Varlink

/// `homefeedctl status`: `io.homefeed.GetStatus` for people, or as JSON.
enum StatusCommand {
    static let command = Command(
        "status",
        abstract: "version, counts and the health of every source",
        discussion: """
            The daemon's version, counts, the store's state when it is not ok, why the version is \
            stale while new ones fail, the health of every source, and the images: files cached and \
            the error of each image or service page that failed.
            """,
        options: DaemonCommand.options,
        examples: ["homefeedctl status --socket /tmp/hf/homefeed.sock"],
        body: DaemonCommand.body(run)
    )

    static func run(_ arguments: ParsedArguments, _ client: DaemonClient) throws(CommandFailure) -> Int32 {
        let reply = try client.call("GetStatus")
        if arguments.has("--json") {
            Console.out(JSONValue.object(reply).text)
            return ExitStatus.ok
        }
        func int(_ key: String) -> Int { reply[key]?.intValue ?? 0 }
        var lines = [
            "version \(int("version")) · started \(reply["startedAt"]?.terminalString ?? "?") · "
                + "\(int("notices")) notices · \(int("serviceLinks")) links · \(int("history")) history · "
                + "\(int("subscribers")) subscribers",
            "",
            Format.pad("HEALTH", 8) + Format.pad("ENTRIES", 9) + Format.pad("LAST SUCCESS", 22)
                + Format.pad("NEXT", 22) + "SOURCE",
        ]
        var notes: [String] = []
        if let store = reply["store"]?.terminalString, store != "ok" {
            notes.append("store \(store): \(reply["storeReason"]?.terminalString ?? "")")
        }
        if let stale = reply["stale"]?.terminalString { notes.append("stale: \(stale)") }
        lines.insert(contentsOf: notes, at: 1)
        for source in reply["sources"]?.arrayValue ?? [] {
            let failures = source["failures"]?.intValue ?? 0
            let error = source["lastError"]?.terminalString
            let health = error == nil ? "ok" : (source["nextAttempt"]?.isNull ?? true ? "stopped" : "failing")
            lines.append(
                Format.pad(health, 8) + Format.pad(String(source["entries"]?.intValue ?? 0), 9)
                    + Format.pad(source["lastSuccess"]?.terminalString ?? "never", 22)
                    + Format.pad(source["nextAttempt"]?.terminalString ?? "-", 22)
                    + (source["url"]?.terminalString ?? "")
            )
            if let error { lines.append("        \(failures) failure(s): \(error)") }
            if let warnings = source["warnings"]?.intValue, warnings > 0 {
                lines.append("        \(warnings) warning(s) in the last document (homefeedctl feed parse shows them)")
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
                lines.append("  \(error["url"]?.terminalString ?? "?"): \(error["error"]?.terminalString ?? "")")
            }
        }
        Console.out(lines.joined(separator: "\n"))
        return ExitStatus.ok
    }
}
