import CommandTable
import Varlink

/// `homefeedctl manifest`: the manifest the daemon serves for a profile or a container.
enum ManifestCommand {
    static let command = Command(
        "manifest",
        abstract: "the manifest served for a profile or container",
        discussion: """
            The manifest the daemon serves for a profile (default: the first configured) or for any \
            container. Human output lists the sections; --json prints the whole reply.
            """,
        options: targetOptions + DaemonCommand.options,
        examples: [
            "homefeedctl manifest --profile tablet",
            "homefeedctl manifest --width 360 --height 740 --scale 3 --json",
        ],
        body: DaemonCommand.body(run)
    )

    /// Which manifest: a profile, or a container given by its size (`manifest`, `watch`,
    /// `preview`, `sizes report`).
    static let targetOptions = targetOptions(byDefault: "the first")

    /// The target options, `--profile` saying what a command does without one (`byDefault`):
    /// `sizes list` and `sizes clear` act on every target.
    static func targetOptions(byDefault: String) -> [Option] {
        [
            .value("--profile", "P", help: "a configured profile (default: \(byDefault))"),
            .value("--width", "W", .number, help: "or a container: its width in points"),
            .value("--height", "H", .number, help: "the container's height in points"),
            .value("--scale", "S", .number, help: "the container's display scale"),
        ]
    }

    /// The `GetManifest` parameters the target options name.
    ///
    /// - Throws: a usage error, before connecting, for what the daemon refuses whatever its
    ///   configuration: a profile and a container together, or a container without its width or
    ///   height.
    static func targetParameters(_ arguments: ParsedArguments) throws(CommandFailure) -> [String: JSONValue] {
        let profile = arguments.string("--profile")
        let width = arguments.double("--width")
        let height = arguments.double("--height")
        let scale = arguments.double("--scale")
        let container = width != nil || height != nil || scale != nil
        guard profile == nil || !container else {
            throw .usage("give --profile or a container (--width, --height, --scale), not both")
        }
        guard !container || (width != nil && height != nil) else {
            throw .usage("a container needs --width and --height")
        }
        var parameters: [String: JSONValue] = [:]
        if let profile { parameters["profile"] = .string(profile) }
        if let width { parameters["width"] = .double(width) }
        if let height { parameters["height"] = .double(height) }
        if let scale { parameters["scale"] = .double(scale) }
        return parameters
    }

    static func run(_ arguments: ParsedArguments, _ client: DaemonClient) throws(CommandFailure) -> Int32 {
        let reply = try client.call("GetManifest", targetParameters(arguments))
        Console.out(arguments.has("--json") ? JSONValue.object(reply).text : summary(reply))
        return ExitStatus.ok
    }

    /// One line per section: id, item count, frame; then the content size.
    static func summary(_ reply: [String: JSONValue]) -> String {
        let manifest = reply["manifest"] ?? .null
        let container = reply["container"] ?? .null
        var lines = [
            "version \(reply["version"]?.intValue ?? 0) etag \(reply["etag"]?.terminalString ?? "") · "
                + "\(Format.number(container["width"]))×\(Format.number(container["height"]))"
                + "@\(Format.number(container["scale"]))x"
        ]
        for section in manifest["sections"]?.arrayValue ?? [] {
            let frame = section["frame"] ?? .null
            let items = section["items"]?.arrayValue ?? []
            var line =
                "  " + Format.pad(section["id"]?.terminalString ?? "?", 14) + Format.pad("\(items.count) items", 10)
            let bottom = (frame["y"]?.doubleValue ?? 0) + (frame["height"]?.doubleValue ?? 0)
            line += "y \(Format.number(frame["y"]))–\(Format.number(bottom))"
            if let title = section["header"]?["content"]?["title"]?.terminalString { line += "  header \"\(title)\"" }
            lines.append(line)
        }
        let size = manifest["contentSize"] ?? .null
        lines.append("  content \(Format.number(size["width"]))×\(Format.number(size["height"]))")
        return lines.joined(separator: "\n")
    }
}
