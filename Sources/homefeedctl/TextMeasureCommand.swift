import CommandTable
import Foundation
import TextMeasure

/// `homefeedctl text measure TEXT|- --font FONT --width POINTS`: how many lines and how tall a
/// string is in a style, measured as homefeedd measures the text slots of `[text NAME]` styles
/// (Pango, fontconfig). For people tuning styles, and for scripts (`--json`).
enum TextMeasureCommand {
    static let command = Command(
        "measure",
        abstract: "lines and height of a string in a font at a width (Pango)",
        discussion: """
            Measures TEXT with Pango as homefeedd measures a [text NAME] style of homefeedd.conf, and prints \
            its lines and height in points (unrounded; a renderer at scale 1 needs the next whole pixel). \
            Reads standard input when TEXT is "-" (one trailing newline dropped).

            A font family fontconfig does not have is a warning on standard error naming the family it \
            substitutes. Text beyond \(TextMeasurer.Limits.maxTextBytes) bytes is measured up to there and \
            is truncated, and so is text that needs more lines than homefeedd lays out: \
            \(TextMeasurer.Limits.maxLaidOutLines), fewer for text with a very long word \
            (\(TextMeasurer.Limits.maxLongWordScan) / its length in characters).
            """,
        arguments: [Argument("TEXT", help: "the text, or - for standard input")],
        options: [
            .value(
                "--font",
                "FONT",
                required: true,
                help: "a Pango font description: families, style words, size in points, e.g. \"NanumGothic Bold 17\""
            ),
            .value("--width", "POINTS", .number, required: true, help: "the width lines wrap at, in points"),
            .value(
                "--max-lines",
                "N",
                .integer(1...TextMeasurer.Limits.maxLines),
                help: "at most N lines; longer text is measured at N and is truncated"
            ),
            .value(
                "--line-height",
                "FACTOR",
                .number,
                help: "baselines FACTOR line heights apart (Pango's line spacing; default: the font's own)"
            ),
            .value(
                "--wrap",
                TextStyle.Wrap.allCases.map(\.rawValue).joined(separator: "|"),
                .choice(TextStyle.Wrap.allCases.map(\.rawValue)),
                help: "break at word boundaries only, or also inside a word that does not fit (default word-char)"
            ),
            .value("--language", "TAG", help: "a language tag for font fallback and line breaking, e.g. ko"),
            .flag("--json", help: #"print {"height": ..., "lines": ..., "truncated": ...}"#),
        ],
        exitStatuses: [
            ExitStatusMeaning(ExitStatus.ok, "measured"),
            ExitStatusMeaning(
                ExitStatus.failure,
                "the text cannot be measured: an invalid style, no fonts, an unreadable standard input"
            ),
            ExitStatusMeaning(ExitStatus.usage, "usage error"),
            ExitStatusMeaning(ExitStatus.outputFailed, "the output cannot be written"),
        ],
        examples: [
            "homefeedctl text measure \"2026학년도 겨울 계절학기 수강신청 안내\" --font \"NanumGothic 17\" \\",
            "    --width 335 --max-lines 2 --line-height 1.3 --json",
        ],
        body: run
    )

    static func run(_ arguments: ParsedArguments) throws(UsageError) -> Int32 {
        let width = arguments.requiredDouble("--width")
        guard width > 0, width <= TextMeasurer.Limits.maxWidth else {
            throw UsageError(
                "--width: expected a number of points above 0, at most 1000000, got \(Format.number(width))"
            )
        }
        var text = arguments.positionals[0]
        if text == "-" {
            // Past the measurer's limit the text is cut anyway; a megabyte is plenty.
            guard let data = InputFile.read("-", upTo: 1 << 20) else { return ExitStatus.failure }
            text = String(decoding: data, as: UTF8.self)
            if text.hasSuffix("\n") { text.removeLast() }
        }
        let style = TextStyle(
            font: arguments.string("--font") ?? "",
            lineSpacing: arguments.double("--line-height"),
            maxLines: arguments.integer("--max-lines"),
            // A choice of the declared modes' names, checked while parsing.
            wrap: arguments.string("--wrap").flatMap(TextStyle.Wrap.init(rawValue:)) ?? .wordChar,
            language: arguments.string("--language")
        )
        return measure(text, style: style, width: width, json: arguments.has("--json"))
    }

    private static func measure(_ text: String, style: TextStyle, width: Double, json: Bool) -> Int32 {
        let measurer = TextMeasurer()
        let metrics: TextMetrics
        do throws(TextMeasureError) {
            metrics = try measurer.measure(text, style: style, width: width)
            let resolution = try measurer.resolveFontNow(style.font)
            if let missing = resolution.missingFamily {
                Console.error(
                    "homefeedctl: warning: font family \"\(missing)\" is not installed; fontconfig substitutes "
                        + "\"\(resolution.loadedFamily)\""
                )
            }
        } catch {
            Console.error("homefeedctl text measure: \(error)")
            return ExitStatus.failure
        }
        if json {
            Console.out(
                "{\"height\": \(metrics.height), \"lines\": \(metrics.lines), \"truncated\": \(metrics.isTruncated)}"
            )
        } else {
            Console.out("lines: \(metrics.lines)\nheight: \(metrics.height)\ntruncated: \(metrics.isTruncated)")
        }
        return ExitStatus.ok
    }
}
