import CommandTable
import HomeLayout
import JSONCore

/// `homefeedctl layout solve`: frames of one container as the JSON of `layout-spec-format.md`.
enum LayoutSolveCommand {
    static let command = Command(
        "solve",
        abstract: "solve a layout spec for one container, print frames as JSON",
        discussion: """
            Solves SPEC offline for one container and prints the frames as JSON on stdout.

            A layout UIKit would refuse prints {"error": {...}} naming the section and group path, \
            and exits 1.
            """,
        arguments: [LayoutCommand.specArgument],
        options: LayoutCommand.solveOptions(width: true) + [
            .value(
                "--measurements",
                "FILE",
                .file,
                help: """
                    measured sizes of items, boundary items and badges (self-sizing), a JSON array such as \
                    [{"section": "mainService", "item": 0, "height": 45}]
                    """
            ),
            .value(
                "--svg",
                "FILE",
                .file,
                help: "also draw a wireframe of the result as SVG (one that cannot be written prints no frames, exit 1)"
            ),
            .flag("--compact", help: "print JSON on one line"),
        ],
        examples: ["homefeedctl layout solve feeds/layout.json --width 375 --height 812 --scale 2 --svg home.svg"],
        body: run
    )

    static func run(_ arguments: ParsedArguments) throws(UsageError) -> Int32 {
        let environment = try LayoutCommand.environment(arguments, width: arguments.requiredDouble("--width"))
        let counts = try LayoutCommand.itemCounts(arguments)
        guard let spec = LayoutCommand.loadSpec(arguments.positionals[0]) else { return ExitStatus.failure }
        try LayoutCommand.checkItemCounts(counts, for: spec)
        var measurements = LayoutMeasurements()
        if let path = arguments.string("--measurements") {
            guard let loaded = LayoutCommand.loadMeasurements(path, for: spec) else { return ExitStatus.failure }
            measurements = loaded
        }
        let result: LayoutResult
        do throws(LayoutSolveError) {
            result = try LayoutSolver.solve(spec, in: environment, itemCounts: counts, measurements: measurements)
        } catch {
            Console.out(error.jsonString(pretty: !arguments.has("--compact")))
            Console.error("homefeedctl: \(error.description)")
            return ExitStatus.failure
        }
        // The SVG first: a run that fails prints no frames, so a script never takes them for success.
        if let svgPath = arguments.string("--svg") {
            let svg = WireframeSVG(result: result).render()
            do throws(OutputFile.Failure) {
                try OutputFile.write(svg, to: svgPath)
            } catch {
                Console.error("homefeedctl: \(svgPath): cannot write: \(error.reason)")
                return ExitStatus.failure
            }
        }
        Console.out(result.jsonString(pretty: !arguments.has("--compact")))
        return ExitStatus.ok
    }
}

extension LayoutSolveError {
    /// `{"error": {...}}` for a layout UIKit would refuse, for scripts: keys in sorted order,
    /// `section` and `sectionId` only when the error names a section.
    func jsonString(pretty: Bool) -> String {
        let bytes = JSONWriter.encode(pretty: pretty, capacity: 512) { writer in
            writer.beginObject()
            writer.key("error")
            writer.beginObject()
            writer.problemMembers(code: code, message: message, path: path, section: sectionIndex, sectionID: sectionID)
            writer.endObject()
            writer.endObject()
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension JSONWriter {
    /// The members a solve's `error` and a sweep's findings share, in the output's key order:
    /// `code`, `message`, `path`, then the section they name when they name one.
    mutating func problemMembers(code: String, message: String, path: String, section: Int?, sectionID: String?) {
        key("code")
        string(code)
        key("message")
        string(message)
        key("path")
        string(path)
        if let section {
            key("section")
            int(section)
        }
        if let sectionID {
            key("sectionId")
            string(sectionID)
        }
    }
}
