import CommandTable
import Foundation
import HomeLayout

/// `homefeedctl layout solve|sweep|check`: the layout engine offline, and what its
/// subcommands share (the spec, the container options).
enum LayoutCommand {
    static let command = Command(
        "layout",
        abstract: "solve or validate a layout spec offline",
        discussion: """
            Solves or validates a layout spec offline, with the engine the daemon lays the home screen \
            out with. SPEC is a layout JSON file (layout-spec-format.md), or - for standard input.
            """,
        subcommands: [
            CommandGroup([LayoutSolveCommand.command, LayoutSweepCommand.command, LayoutCheckCommand.command])
        ]
    )

    /// The `SPEC` argument of every layout subcommand.
    static let specArgument = Argument(
        "SPEC",
        .file,
        help: "a layout JSON file (layout-spec-format.md), or - for standard input"
    )

    /// What every solve takes: the container and the item counts (`--width` only where the
    /// command solves at one width).
    static func solveOptions(width: Bool) -> [Option] {
        var options: [Option] = []
        if width { options.append(.value("--width", "W", .number, required: true, help: "container width in points")) }
        return options + [
            .value("--height", "H", .number, help: "container height in points (default 812)"),
            .value("--scale", "S", .number, help: "display scale; 0 = no pixel snapping (default 2)"),
            .value(
                "--safe-area",
                "T,L,B,R",
                .numbers,
                help: "safe-area insets (contentInsetsReference automatic/safeArea)"
            ),
            .value(
                "--layout-margins",
                "T,L,B,R",
                .numbers,
                help: "layout margins (contentInsetsReference layoutMargins)"
            ),
            .value(
                "--readable-content",
                "T,L,B,R",
                .numbers,
                help: "readable-content insets (contentInsetsReference readableContent)"
            ),
            .flag("--rtl", help: "right-to-left layout direction"),
            .value(
                "--platform",
                LayoutPlatform.allCases.map(\.rawValue).joined(separator: "|"),
                .choice(LayoutPlatform.allCases.map(\.rawValue)),
                help: "the client's iOS geometry (default: the spec's configuration.platform)"
            ),
            .value(
                "--items",
                "N,N,...",
                .numbers,
                help: """
                    item counts per section, in order, at most one per section (a section without one \
                    keeps its itemCount)
                    """
            ),
        ]
    }

    /// Reads and decodes a spec; on failure prints the error and returns nil.
    static func loadSpec(_ path: String) -> LayoutSpec? {
        guard let bytes = read(path) else { return nil }
        do {
            return try LayoutSpec(json: bytes)
        } catch {
            Console.error("homefeedctl: \(InputFile.name(path)): \(error.description)")
            return nil
        }
    }

    /// Measured sizes for `spec` from a JSON file (`docs/layout.md`, "Self-sizing").
    static func loadMeasurements(_ path: String, for spec: LayoutSpec) -> LayoutMeasurements? {
        guard let bytes = read(path) else { return nil }
        do {
            return try LayoutMeasurements(json: bytes, spec: spec)
        } catch {
            Console.error("homefeedctl: \(InputFile.name(path)): \(error.description)")
            return nil
        }
    }

    /// A file's bytes (stdin for `-`), at most the spec size limit; errors are printed.
    private static func read(_ path: String) -> Data? {
        let limit = LayoutLimits.maxSpecBytes
        guard let bytes = InputFile.read(path, upTo: limit + 1) else { return nil }
        guard bytes.count <= limit else {
            Console.error("homefeedctl: \(InputFile.name(path)): larger than the \(limit)-byte limit for layout specs")
            return nil
        }
        return bytes
    }

    /// The container described by the shared options, at `width`.
    static func environment(_ arguments: ParsedArguments, width: Double) throws(UsageError) -> LayoutEnvironment {
        func insets(_ name: String) throws(UsageError) -> EdgeInsets {
            guard let values = arguments.doubles(name) else { return .zero }
            guard values.count == 4 else { throw UsageError("\(name): expected four numbers T,L,B,R") }
            return EdgeInsets(top: values[0], leading: values[1], bottom: values[2], trailing: values[3])
        }
        return LayoutEnvironment(
            width: width,
            height: arguments.double("--height") ?? 812,
            scale: arguments.double("--scale") ?? 2,
            safeAreaInsets: try insets("--safe-area"),
            layoutMargins: try insets("--layout-margins"),
            readableContentInsets: try insets("--readable-content"),
            layoutDirection: arguments.has("--rtl") ? .rightToLeft : .leftToRight,
            // A choice of the declared platforms' names, checked while parsing.
            platform: arguments.string("--platform").flatMap(LayoutPlatform.init(rawValue:))
        )
    }

    /// `--items N,N,…`: item counts per section, in order.
    static func itemCounts(_ arguments: ParsedArguments) throws(UsageError) -> [Int]? {
        guard let values = arguments.doubles("--items") else { return nil }
        var counts: [Int] = []
        for value in values {
            guard value >= 0, value == value.rounded(), value <= Double(LayoutLimits.maxItemsPerSection) else {
                throw UsageError("--items: expected whole numbers from 0 to \(LayoutLimits.maxItemsPerSection)")
            }
            counts.append(Int(value))
        }
        return counts
    }

    /// `--items` names at most one count per section of `spec`: a count past the last section
    /// would be silently ignored, so it is a usage error.
    static func checkItemCounts(_ counts: [Int]?, for spec: LayoutSpec) throws(UsageError) {
        let sections = spec.sections.count
        guard let counts, counts.count > sections else { return }
        throw UsageError(
            "--items: \(counts.count) counts for \(sections) section\(sections == 1 ? "" : "s"); give at most one per section"
        )
    }
}
