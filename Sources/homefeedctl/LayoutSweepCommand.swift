import CommandTable
import Foundation
import HomeLayout
import JSONCore

/// `homefeedctl layout sweep`: solves at every width of a range and reports, per section, the
/// widths at which it errors or warns. UIKit's "cannot fit" crashes tend to hide at unusual
/// widths; this finds them before a device does.
enum LayoutSweepCommand {
    static let command = Command(
        "sweep",
        abstract: "solve at every width in a range, report errors and warnings",
        discussion: """
            Solves SPEC at every width from W1 to W2 (inclusive, step S, default 1) and reports, per \
            section, the width ranges where it raises an error or a warning. A solve stops at its first \
            error, so later sections are only checked at widths where earlier ones solved.
            """,
        arguments: [LayoutCommand.specArgument],
        options: [
            .value("--from", "W1", .number, required: true, help: "the narrowest width, in points"),
            .value("--to", "W2", .number, required: true, help: "the widest width, in points"),
            .value("--step", "S", .number, help: "width increment (default 1; at most 100 000 widths)"),
        ] + LayoutCommand.solveOptions(width: false) + [.flag("--json", help: "print the report as JSON")],
        exitStatuses: [
            ExitStatusMeaning(ExitStatus.ok, "no width errors (warnings allowed)"),
            ExitStatusMeaning(ExitStatus.failure, "an error at some width, or a spec that cannot be read or decoded"),
            ExitStatusMeaning(ExitStatus.usage, "usage error"),
            ExitStatusMeaning(ExitStatus.outputFailed, "the output cannot be written"),
        ],
        examples: ["homefeedctl layout sweep feeds/layout.json --from 200 --to 1400"],
        body: run
    )

    /// One finding: a section (or the whole layout), a severity and what went wrong where.
    struct Key: Hashable, Comparable {
        var section: Int  // -1: the layout as a whole
        var severity: String
        var code: String
        var path: String

        static func < (a: Key, b: Key) -> Bool {
            (a.section, a.severity, a.path, a.code) < (b.section, b.severity, b.path, b.code)
        }
    }

    struct Finding {
        var section: Int?
        var sectionId: String?
        var severity: String
        var code: String
        var path: String
        /// Inclusive width ranges, `[from, to]`.
        var widths: [[Double]]
        /// The message at the first width of the first range.
        var message: String
    }

    struct Report {
        var from: Double
        var to: Double
        var step: Double
        var solves: Int
        var failedSolves: Int
        var findings: [Finding]
    }

    static func run(_ arguments: ParsedArguments) throws(UsageError) -> Int32 {
        let from = arguments.requiredDouble("--from")
        let to = arguments.requiredDouble("--to")
        let step = arguments.double("--step") ?? 1
        // Counted before any is made, and made by index: a step too small to move a width
        // (--step 1e-300) makes one width, not an endless loop.
        let steps = ((to - from) / step + 1e-9).rounded(.down)
        guard from > 0, to >= from, step > 0, steps < 100_000 else {
            throw UsageError("need 0 < --from ≤ --to, --step > 0 and at most 100 000 widths")
        }
        let counts = try LayoutCommand.itemCounts(arguments)
        var environments: [LayoutEnvironment] = []
        for index in 0...Int(steps) {
            environments.append(try LayoutCommand.environment(arguments, width: from + Double(index) * step))
        }
        guard let spec = LayoutCommand.loadSpec(arguments.positionals[0]) else { return ExitStatus.failure }
        try LayoutCommand.checkItemCounts(counts, for: spec)

        var widthsByKey: [Key: [Double]] = [:]
        var messages: [Key: String] = [:]
        var failed = 0
        func record(_ key: Key, _ width: Double, _ message: String) {
            widthsByKey[key, default: []].append(width)
            if messages[key] == nil { messages[key] = message }
        }
        for environment in environments {
            do throws(LayoutSolveError) {
                let result = try LayoutSolver.solve(spec, in: environment, itemCounts: counts)
                for d in result.diagnostics {
                    record(
                        Key(section: sectionIndex(of: d.path), severity: "warning", code: "warning", path: d.path),
                        environment.width,
                        d.message
                    )
                }
            } catch {
                failed += 1
                record(
                    Key(section: error.sectionIndex ?? -1, severity: "error", code: error.code, path: error.path),
                    environment.width,
                    error.message
                )
            }
        }
        let findings = widthsByKey.keys.sorted().map { key in
            let id = key.section >= 0 && key.section < spec.sections.count ? spec.sections[key.section].id : nil
            return Finding(
                section: key.section >= 0 ? key.section : nil,
                sectionId: id,
                severity: key.severity,
                code: key.code,
                path: key.path,
                widths: ranges(widthsByKey[key] ?? [], step: step),
                message: messages[key] ?? ""
            )
        }
        let report = Report(
            from: from,
            to: to,
            step: step,
            solves: environments.count,
            failedSolves: failed,
            findings: findings
        )
        Console.out(arguments.has("--json") ? json(report) : text(report, spec: spec))
        return failed == 0 ? ExitStatus.ok : ExitStatus.failure
    }

    /// `sections[3].group…` → 3; anything else → -1 (the layout as a whole).
    static func sectionIndex(of path: String) -> Int {
        guard path.hasPrefix("sections["), let close = path.firstIndex(of: "]") else { return -1 }
        return Int(path[path.index(path.startIndex, offsetBy: 9)..<close]) ?? -1
    }

    /// Consecutive widths (one step apart) folded into `[from, to]` ranges.
    static func ranges(_ widths: [Double], step: Double) -> [[Double]] {
        var result: [[Double]] = []
        for width in widths {
            if let last = result.last, let end = last.last, abs(width - end - step) < step * 1e-6 {
                result[result.count - 1][1] = width
            } else {
                result.append([width, width])
            }
        }
        return result
    }

    static func text(_ report: Report, spec: LayoutSpec) -> String {
        var lines = [
            "widths \(pointsText(report.from))–\(pointsText(report.to)) step \(pointsText(report.step)): \(report.solves) solves, \(report.failedSolves) failed"
        ]
        for (index, section) in spec.sections.enumerated() {
            let findings = report.findings.filter { $0.section == index }
            if findings.isEmpty {
                lines.append("section \(index) \(section.id): ok")
                continue
            }
            for f in findings {
                let widths = f.widths.map {
                    $0[0] == $0[1] ? pointsText($0[0]) : "\(pointsText($0[0]))–\(pointsText($0[1]))"
                }.joined(
                    separator: ", "
                )
                lines.append("section \(index) \(section.id): \(f.severity) at \(widths): \(f.path): \(f.message)")
            }
        }
        for f in report.findings where f.section == nil {
            let widths = f.widths.map { "\(pointsText($0[0]))–\(pointsText($0[1]))" }.joined(separator: ", ")
            lines.append("layout: \(f.severity) at \(widths): \(f.path): \(f.message)")
        }
        return lines.joined(separator: "\n")
    }

    /// The report for scripts: keys in sorted order, `section` and `sectionId` only for a
    /// finding in a section, each width range a `[from, to]` pair on one line.
    static func json(_ report: Report) -> String {
        let bytes = JSONWriter.encode(pretty: true, capacity: 1024 + 512 * report.findings.count) { writer in
            writer.beginObject()
            writer.key("failedSolves")
            writer.int(report.failedSolves)
            writer.key("findings")
            writer.beginArray()
            for finding in report.findings {
                writer.beginObject()
                writer.problemMembers(
                    code: finding.code,
                    message: finding.message,
                    path: finding.path,
                    section: finding.section,
                    sectionID: finding.sectionId
                )
                writer.key("severity")
                writer.string(finding.severity)
                writer.key("widths")
                writer.beginArray()
                for range in finding.widths {
                    writer.beginArray(inline: true)
                    for width in range { writer.number(width) }
                    writer.endArray()
                }
                writer.endArray()
                writer.endObject()
            }
            writer.endArray()
            writer.key("from")
            writer.number(report.from)
            writer.key("solves")
            writer.int(report.solves)
            writer.key("step")
            writer.number(report.step)
            writer.key("to")
            writer.number(report.to)
            writer.endObject()
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
