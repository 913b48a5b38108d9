import Foundation
import HomeLayout

/// `homefeedctl layout solve`: frames of one container as the JSON of `layout-spec-format.md`.
enum LayoutSolveCommand {
    static let usage = """
        usage: homefeedctl layout solve SPEC --width W [--height H] [--scale S] [--items N,N,...]
                                        [--measurements FILE] [--rtl] [--platform P] [--svg FILE] [--compact]

        Solves SPEC offline for one container and prints the frames as JSON on stdout.

        \(LayoutCommand.environmentHelp)
          --items N,N,...           item counts per section, in order (default: each section's itemCount)
          --measurements FILE       measured sizes of items, boundary items and badges (self-sizing), a
                                    JSON array such as [{"section": "mainService", "item": 0, "height": 45}]
          --svg FILE                also draw a wireframe of the result as SVG
          --compact                 print JSON on one line

        A layout UIKit would refuse prints {"error": {...}} naming the section and group path,
        and exits 1.

        Example:
          homefeedctl layout solve feeds/layout.json --width 375 --height 812 --scale 2 --svg home.svg
        """

    static func run(_ words: [String]) -> Int32 {
        if words.contains("--help") || words.contains("-h") {
            Console.out(usage)
            return ExitStatus.ok
        }
        return LayoutCommand.guarded(usage) { () throws(UsageError) -> Int32 in
            let arguments = try Arguments(
                words,
                options: LayoutCommand.environmentOptions.union(["--items", "--svg", "--measurements"]),
                flags: ["--rtl", "--compact"]
            )
            guard arguments.positionals.count == 1 else { throw UsageError("expected exactly one SPEC") }
            let environment = try LayoutCommand.environment(arguments, width: try arguments.requiredDouble("--width"))
            let counts = try LayoutCommand.itemCounts(arguments)
            guard let spec = LayoutCommand.loadSpec(arguments.positionals[0]) else { return ExitStatus.invalidInput }
            var measurements = LayoutMeasurements()
            if let path = arguments.string("--measurements") {
                guard let loaded = LayoutCommand.loadMeasurements(path, for: spec) else {
                    return ExitStatus.invalidInput
                }
                measurements = loaded
            }
            let result: LayoutResult
            do throws(LayoutSolveError) {
                result = try LayoutSolver.solve(spec, in: environment, itemCounts: counts, measurements: measurements)
            } catch {
                Console.out(SolveErrorJSON(error).encoded(pretty: !arguments.has("--compact")))
                Console.error("homefeedctl: \(error.description)")
                return ExitStatus.invalidInput
            }
            Console.out(result.jsonString(pretty: !arguments.has("--compact")))
            if let svgPath = arguments.string("--svg") {
                let svg = WireframeSVG(result: result).render()
                do {
                    try Data(svg.utf8).write(to: URL(fileURLWithPath: svgPath), options: .atomic)
                } catch {
                    Console.error("homefeedctl: \(svgPath): cannot write: \(error.localizedDescription)")
                    return ExitStatus.invalidInput
                }
            }
            return ExitStatus.ok
        }
    }
}

/// `{"error": {...}}` for a layout UIKit would refuse, for scripts.
struct SolveErrorJSON: Encodable {
    struct Body: Encodable {
        var code: String
        var section: Int?
        var sectionId: String?
        var path: String
        var message: String
    }

    var error: Body

    init(_ error: LayoutSolveError) {
        self.error = Body(
            code: error.code,
            section: error.sectionIndex,
            sectionId: error.sectionID,
            path: error.path,
            message: error.message
        )
    }

    func encoded(pretty: Bool) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes] : [.sortedKeys]
        guard let data = try? encoder.encode(self) else { return #"{"error": true}"# }
        return String(decoding: data, as: UTF8.self)
    }
}
