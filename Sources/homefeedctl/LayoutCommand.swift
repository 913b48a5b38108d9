import Foundation
import HomeLayout

/// `homefeedctl layout solve|sweep|check`.
enum LayoutCommand {
    static let usage = """
        usage: homefeedctl layout <solve|sweep|check> SPEC [options]

          solve   solve SPEC for one container and print the frames as JSON
          sweep   solve SPEC at every width in a range and report where it errors or warns
          check   validate SPEC and print its errors and warnings

        SPEC is a layout JSON file (layout-spec-format.md), or - for standard input.
        Run 'homefeedctl layout <subcommand> --help' for options and examples.
        """

    static func run(_ words: [String]) -> Int32 {
        guard let subcommand = words.first else {
            Console.error(usage)
            return ExitStatus.usage
        }
        let rest = Array(words.dropFirst())
        switch subcommand {
        case "solve": return LayoutSolveCommand.run(rest)
        case "sweep": return LayoutSweepCommand.run(rest)
        case "check": return LayoutCheckCommand.run(rest)
        case "--help", "-h", "help":
            Console.out(usage)
            return ExitStatus.ok
        default:
            Console.error("homefeedctl layout: unknown subcommand '\(subcommand)'\n\n\(usage)")
            return ExitStatus.usage
        }
    }

    /// Runs a subcommand body, turning usage errors into status 2 with the usage text.
    static func guarded(_ usage: String, _ body: () throws(UsageError) -> Int32) -> Int32 {
        do {
            return try body()
        } catch {
            Console.error("homefeedctl: \(error.description)\n\n\(usage)")
            return ExitStatus.usage
        }
    }

    /// Reads and decodes a spec; on failure prints the error and returns nil.
    static func loadSpec(_ path: String) -> LayoutSpec? {
        guard let bytes = read(path) else { return nil }
        do {
            return try LayoutSpec(json: bytes)
        } catch {
            Console.error("homefeedctl: \(path): \(error.description)")
            return nil
        }
    }

    /// Measured sizes for `spec` from a JSON file (`docs/layout.md`, "Self-sizing").
    static func loadMeasurements(_ path: String, for spec: LayoutSpec) -> LayoutMeasurements? {
        guard let bytes = read(path) else { return nil }
        do {
            return try LayoutMeasurements(json: bytes, spec: spec)
        } catch {
            Console.error("homefeedctl: \(path): \(error.description)")
            return nil
        }
    }

    /// A file's bytes (stdin for `-`), at most the spec size limit; errors are printed.
    private static func read(_ path: String) -> Data? {
        let limit = HomeLayout.Limits.maxSpecBytes
        let bytes: Data
        do {
            let handle =
                path == "-" ? FileHandle.standardInput : try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
            bytes = try handle.read(upToCount: limit + 1) ?? Data()
        } catch {
            Console.error("homefeedctl: \(path): cannot read: \(error.localizedDescription)")
            return nil
        }
        guard bytes.count <= limit else {
            Console.error("homefeedctl: \(path): larger than the \(limit)-byte limit for layout specs")
            return nil
        }
        return bytes
    }

    static let environmentOptions: Set<String> = [
        "--width", "--height", "--scale", "--safe-area", "--layout-margins", "--readable-content", "--platform",
    ]

    static let environmentHelp = """
          --width W                 container width in points (required for solve)
          --height H                container height in points (default 812)
          --scale S                 display scale; 0 = no pixel snapping (default 2)
          --rtl                     right-to-left layout direction
          --safe-area T,L,B,R       safe-area insets (contentInsetsReference automatic/safeArea)
          --layout-margins T,L,B,R  layout margins (contentInsetsReference layoutMargins)
          --readable-content T,L,B,R  readable-content insets (readableContent)
          --platform ios17|ios14    the client's iOS geometry (default: the spec's configuration.platform)
        """

    /// The container described by the shared options, at `width`.
    static func environment(_ arguments: Arguments, width: Double) throws(UsageError) -> LayoutEnvironment {
        func insets(_ name: String) throws(UsageError) -> EdgeInsets {
            guard let values = try arguments.doubles(name) else { return .zero }
            guard values.count == 4 else { throw UsageError("\(name): expected four numbers T,L,B,R") }
            return EdgeInsets(top: values[0], leading: values[1], bottom: values[2], trailing: values[3])
        }
        var platform: LayoutPlatform?
        if let name = arguments.string("--platform") {
            guard let value = LayoutPlatform(rawValue: name) else {
                let names = LayoutPlatform.allCases.map(\.rawValue).joined(separator: " or ")
                throw UsageError("--platform: expected \(names), got \"\(name)\"")
            }
            platform = value
        }
        return LayoutEnvironment(
            width: width,
            height: try arguments.double("--height") ?? 812,
            scale: try arguments.double("--scale") ?? 2,
            safeAreaInsets: try insets("--safe-area"),
            layoutMargins: try insets("--layout-margins"),
            readableContentInsets: try insets("--readable-content"),
            layoutDirection: arguments.has("--rtl") ? .rightToLeft : .leftToRight,
            platform: platform
        )
    }

    /// `--items N,N,…`: item counts per section, in order.
    static func itemCounts(_ arguments: Arguments) throws(UsageError) -> [Int]? {
        guard let values = try arguments.doubles("--items") else { return nil }
        var counts: [Int] = []
        for value in values {
            guard value >= 0, value == value.rounded(), value <= Double(HomeLayout.Limits.maxItemsPerSection) else {
                throw UsageError("--items: expected whole numbers from 0 to \(HomeLayout.Limits.maxItemsPerSection)")
            }
            counts.append(Int(value))
        }
        return counts
    }
}
