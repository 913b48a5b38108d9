import CommandTable
import HomeLayout

/// `homefeedctl layout check`: decodes a spec and solves it at common container widths.
enum LayoutCheckCommand {
    /// Phone, large phone, small tablet, tablet, laptop, kiosk widths in points.
    static let widths: [Double] = [320, 375, 390, 430, 600, 744, 820, 1024, 1280]

    static let command = Command(
        "check",
        abstract: "validate a layout spec at common widths",
        discussion: """
            Validates SPEC: decodes it (errors name the JSON path), then solves it at the widths \
            \(widths.map(pointsText).joined(separator: ", ")) and prints every error and warning. \
            The widths are fixed, so it takes no --width; layout solve and layout sweep choose theirs.
            """,
        arguments: [LayoutCommand.specArgument],
        options: LayoutCommand.solveOptions(width: false),
        exitStatuses: [
            ExitStatusMeaning(ExitStatus.ok, "no errors (warnings allowed)"),
            ExitStatusMeaning(ExitStatus.failure, "an error at some width, or a spec that cannot be read or decoded"),
            ExitStatusMeaning(ExitStatus.usage, "usage error"),
            ExitStatusMeaning(ExitStatus.outputFailed, "the output cannot be written"),
        ],
        examples: [
            "homefeedctl layout check feeds/layout.json",
            "homefeedctl layout check feeds/layout.json --rtl --platform ios14",
        ],
        body: run
    )

    static func run(_ arguments: ParsedArguments) throws(UsageError) -> Int32 {
        let path = arguments.positionals[0]
        let counts = try LayoutCommand.itemCounts(arguments)
        var environments: [LayoutEnvironment] = []
        for width in widths { environments.append(try LayoutCommand.environment(arguments, width: width)) }
        guard let spec = LayoutCommand.loadSpec(path) else { return ExitStatus.failure }
        try LayoutCommand.checkItemCounts(counts, for: spec)

        var errors: [String] = []
        var warnings: [String] = []
        for environment in environments {
            let at =
                "at \(pointsText(environment.width))×\(pointsText(environment.height))@\(pointsText(environment.scale))x"
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
        return ExitStatus.failure
    }
}
