import HomeLayout

/// `homefeedctl layout check`: decodes a spec and solves it at common container widths.
enum LayoutCheckCommand {
    /// Phone, large phone, small tablet, tablet, laptop, kiosk widths in points.
    static let widths: [Double] = [320, 375, 390, 430, 600, 744, 820, 1024, 1280]

    static let usage = """
        usage: homefeedctl layout check SPEC [--height H] [--scale S] [--items N,N,...] [--rtl]
                                        [--platform P]

        Validates SPEC: decodes it (errors name the JSON path), then solves it at the widths
        \(widths.map { String(Int($0)) }.joined(separator: ", ")) and prints every error and warning.
        Exits 0 when there are no errors (warnings allowed), 1 otherwise.

        Example:
          homefeedctl layout check feeds/layout.json
        """

    static func run(_ words: [String]) -> Int32 {
        if words.contains("--help") || words.contains("-h") {
            Console.out(usage)
            return ExitStatus.ok
        }
        return LayoutCommand.guarded(usage) { () throws(UsageError) -> Int32 in
            let arguments = try Arguments(
                words,
                options: LayoutCommand.environmentOptions.union(["--items"]),
                flags: ["--rtl"]
            )
            guard arguments.positionals.count == 1 else { throw UsageError("expected exactly one SPEC") }
            let path = arguments.positionals[0]
            let counts = try LayoutCommand.itemCounts(arguments)
            var environments: [LayoutEnvironment] = []
            for width in widths { environments.append(try LayoutCommand.environment(arguments, width: width)) }
            guard let spec = LayoutCommand.loadSpec(path) else { return ExitStatus.invalidInput }

            var errors: [String] = []
            var warnings: [String] = []
            for environment in environments {
                let at = "at \(Int(environment.width))×\(Int(environment.height))@\(fmtScale(environment.scale))"
                do throws(LayoutSolveError) {
                    let result = try LayoutSolver.solve(spec, in: environment, itemCounts: counts)
                    for diagnostic in result.diagnostics where !warnings.contains(diagnostic.description) {
                        warnings.append(diagnostic.description)
                    }
                } catch {
                    errors.append("error \(at): \(error.description)")
                }
            }
            for line in warnings { Console.out(line) }
            for line in errors { Console.out(line) }
            if errors.isEmpty {
                Console.out("\(path): ok (\(spec.sections.count) sections, \(warnings.count) warnings)")
                return ExitStatus.ok
            }
            return ExitStatus.invalidInput
        }
    }

    static func fmtScale(_ scale: Double) -> String {
        scale == scale.rounded() ? "\(Int(scale))x" : "\(scale)x"
    }
}
