import Foundation
import TextMeasure

/// `homefeedctl text measure`: how many lines and how tall a string is in a style, measured as
/// homefeedd measures the text slots of `[text NAME]` styles (Pango, fontconfig), offline.
enum TextCommand {
    static let usage = """
        usage: homefeedctl text measure TEXT|- --font FONT --width POINTS [--max-lines N]
                                        [--line-height FACTOR] [--wrap word|word-char]
                                        [--language TAG] [--json]

        Measure TEXT (standard input for -) with Pango as homefeedd measures a [text NAME] style
        of homefeedd.conf, and print its lines and height in points (unrounded; a renderer at
        scale 1 needs the next whole pixel). For people tuning styles, and for scripts.

        options:
          --font FONT           a Pango font description: families, style words, size in points,
                                e.g. "NanumGothic Bold 17" (required)
          --width POINTS        the width lines wrap at (required)
          --max-lines N         at most N lines; longer text is measured at N and is truncated
          --line-height FACTOR  baselines FACTOR line heights apart (Pango's line spacing)
          --wrap MODE           word, or word-char (default): break inside a word that does not fit
          --language TAG        a language tag for font fallback and line breaking, e.g. ko
          --json                print {"height": …, "lines": …, "truncated": …}
          --help                show this help

        A font family fontconfig does not have is a warning on standard error naming the family
        it substitutes. Text beyond 4096 bytes is measured up to there and is truncated.

        exit status: 0 measured, 1 the text cannot be measured (an invalid font, no fonts), 2
        usage error.

        example:
          homefeedctl text measure "2026학년도 겨울 계절학기 수강신청 안내" --font "NanumGothic 17" \\
              --width 335 --max-lines 2 --line-height 1.3 --json
        """

    static func run(_ words: [String]) -> Int32 {
        guard words.first == "measure" else {
            if ["--help", "-h", "help"].contains(words.first) {
                Console.out(usage)
                return ExitStatus.ok
            }
            Console.error(usage)
            return ExitStatus.usage
        }
        return LayoutCommand.guarded(usage) { () throws(UsageError) -> Int32 in
            let arguments = try Arguments(
                Array(words.dropFirst()),
                options: ["--font", "--width", "--max-lines", "--line-height", "--wrap", "--language"],
                flags: ["--json", "--help"]
            )
            if arguments.has("--help") {
                Console.out(usage)
                return ExitStatus.ok
            }
            guard arguments.positionals.count == 1, var text = arguments.positionals.first else {
                throw UsageError("expected one TEXT (or - for standard input)")
            }
            if text == "-" {
                let data = FileHandle.standardInput.readData(ofLength: 1 << 20)
                text = String(decoding: data, as: UTF8.self)
                if text.hasSuffix("\n") { text.removeLast() }
            }
            guard let font = arguments.string("--font") else { throw UsageError("missing --font") }
            let width = try arguments.requiredDouble("--width")
            guard width > 0, width <= TextMeasurer.Limits.maxWidth else {
                throw UsageError("--width: expected a number of points above 0, at most 1000000")
            }
            var style = TextStyle(font: font, lineSpacing: try arguments.double("--line-height"))
            if let maxLines = try arguments.double("--max-lines") {
                guard maxLines == maxLines.rounded(), maxLines >= 1, maxLines <= Double(TextMeasurer.Limits.maxLines)
                else {
                    throw UsageError("--max-lines: expected a whole number from 1 to \(TextMeasurer.Limits.maxLines)")
                }
                style.maxLines = Int(maxLines)
            }
            if let wrap = arguments.string("--wrap") {
                guard let mode = TextStyle.Wrap(rawValue: wrap) else {
                    throw UsageError("--wrap: expected word or word-char, got \"\(wrap)\"")
                }
                style.wrap = mode
            }
            style.language = arguments.string("--language")
            return measure(text, style: style, width: width, json: arguments.has("--json"))
        }
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
            Console.error("homefeedctl: \(error)")
            return ExitStatus.invalidInput
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
