import Foundation
import TestSupport
import Testing
import TextMeasure
import Varlink

/// Text measured by the shipped binaries: `homefeedctl text measure`, `--check-config`'s font
/// warnings, and a daemon without fonts.
@Suite(.timeLimit(.minutes(2)))
struct TextTests {
    static let hasFonts = (try? TextMeasurer().resolveFontNow("NanumGothic Bold 17"))?.missingFamily == nil
    let ctl = CommandRunner(executable: "homefeedctl")

    @Test("text measure prints lines and height, and JSON for scripts", .enabled(if: hasFonts, "needs fonts-nanum"))
    func measure() throws {
        let title = "2026학년도 겨울 계절학기 수강신청 안내"
        let expected = try TextMeasurer().measure(
            title,
            style: TextStyle(font: "NanumGothic 17", lineSpacing: 1.3, maxLines: 2),
            width: 100
        )
        let json = try ctl.run([
            "text", "measure", title, "--font", "NanumGothic 17", "--width", "100", "--max-lines", "2",
            "--line-height", "1.3", "--json",
        ])
        #expect(json.status == 0, "\(json.stderr)")
        #expect(json.stderr.isEmpty)
        let object = try JSONValue(parsing: json.stdout)
        #expect(object["height"]?.doubleValue == expected.height)
        #expect(object["lines"]?.intValue == 2)
        #expect(object["truncated"] == .bool(true))

        let plain = try ctl.run(["text", "measure", title, "--font=NanumGothic 17", "--width=335"])
        #expect(plain.status == 0)
        #expect(plain.stdout.hasPrefix("lines: 1\nheight: "))
        #expect(plain.stdout.hasSuffix("truncated: false\n"))
    }

    @Test("a family fontconfig does not have is a warning; bad styles and usage fail")
    func failures() throws {
        if Self.hasFonts {
            let substituted = try ctl.run(["text", "measure", "abc", "--font", "Nanum Gothicc 17", "--width", "100"])
            #expect(substituted.status == 0)
            #expect(
                substituted.stderr.contains("font family \"Nanum Gothicc\" is not installed; fontconfig substitutes")
            )
        }
        let noSize = try ctl.run(["text", "measure", "abc", "--font", "NanumGothic", "--width", "100"])
        #expect(noSize.status == 1)
        #expect(noSize.stderr.contains("font \"NanumGothic\" has no size"))
        #expect(try ctl.run(["text", "measure", "--help"]).stdout.contains("--max-lines N"))
        #expect(try ctl.run(["text", "count"]).status == 64)
    }

    @Test("TEXT - from a standard input that cannot be read (a directory) fails naming it, exit 1, as layout's SPEC -")
    func unreadableStandardInput() throws {
        for words in [["text", "measure", "-", "--font", "Sans 12", "--width", "100"], ["layout", "check", "-"]] {
            // A directory opens for reading; read(2) then fails with EISDIR.
            let outcome = try ChildProcess.run(
                BuiltProducts.path("homefeedctl"),
                words,
                stdin: .file(CommandRunner.packageRoot.appendingPathComponent("feeds").path)
            )
            #expect(outcome.status == 1, "\(words)")
            #expect(outcome.stdoutText.isEmpty)
            #expect(outcome.stderrText == "homefeedctl: standard input: cannot read: Is a directory\n")
        }
    }

    @Test(
        "a usage error names the option and what is wrong, then the usage; exit 64",
        arguments: [
            (["abc", "--font", "Sans 12"], "missing --width POINTS"),
            (["abc", "--width", "100"], "missing --font FONT"),
            (["--font", "Sans 12", "--width", "100"], "missing TEXT"),
            (
                ["abc", "--font", "Sans 12", "--width", "0"],
                "--width: expected a number of points above 0, at most 1000000, got 0"
            ),
            (
                ["abc", "--font", "Sans 12", "--width", "9", "--wrap", "x"],
                #"--wrap: expected word or word-char, got "x""#
            ),
            (
                ["abc", "--font", "Sans 12", "--width", "9", "--max-lines", "0"],
                #"--max-lines: expected a whole number from 1 to 1000, got "0""#
            ),
            (["abc", "--font", "Sans 12", "--width", "9", "--bold"], "unknown option --bold"),
        ]
    )
    func usageErrors(_ words: [String], _ message: String) throws {
        let outcome = try ctl.run(["text", "measure"] + words)
        #expect(outcome.status == 64)
        #expect(outcome.stdout.isEmpty)
        #expect(
            outcome.stderr.hasPrefix("homefeedctl text measure: \(message)\n\nusage: homefeedctl text measure"),
            "\(outcome.stderr)"
        )
    }

    @Test("--check-config warns about a font family it would substitute, and passes")
    func checkConfig() throws {
        let root = try ScratchRoot()
        let settings = root.configDirectory.appendingPathComponent("homefeedd.conf")
        let text = try String(contentsOf: settings, encoding: .utf8)
        try text.replacingOccurrences(of: "font = NanumGothic Bold 17", with: "font = Nanum Gothicc Bold 17")
            .write(to: settings, atomically: true, encoding: .utf8)
        let outcome = try CommandRunner(executable: "homefeedd").run([
            "--check-config", "--config", root.configDirectory.path,
        ])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.contains(": ok ("))
        let line =
            try #require(
                text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0 == "[text headline]" }
            ) + 1
        #expect(
            outcome.stderr.contains(
                "warning: \(settings.path): [text headline] (line \(line)): font family \"Nanum Gothicc\" is not "
                    + "installed; fontconfig substitutes \""
            ),
            "\(outcome.stderr)"
        )
    }

    @Test("a daemon without fonts serves the estimate and logs one warning")
    func noFonts() async throws {
        let root = try ScratchRoot()
        let empty = root.path("no-fonts.conf")
        try Data("<?xml version=\"1.0\"?>\n<fontconfig></fontconfig>\n".utf8).write(to: URL(fileURLWithPath: empty))
        let daemon = FaultDaemon(root: root)
        try await daemon.start(environment: ["FONTCONFIG_FILE": empty])
        _ = try await daemon.call("io.homefeed.Refresh")
        _ = try await daemon.call("io.homefeed.RecordHistory", ["title": "도서관"])
        let reply = try await daemon.call("io.homefeed.GetManifest", ["profile": "phone"])
        let headline = reply["manifest"]?["sections"]?.arrayValue?[1]["items"]?.arrayValue?.first
        #expect(headline?["sizing"]?.stringValue == "estimated")
        #expect(headline?["frame"]?["height"]?.doubleValue == 25)
        #expect(await daemon.stop() == 0)
        let warnings = daemon.logLines(4).filter { $0.contains("text measurement unavailable") }
        #expect(
            warnings == [
                "<4>homefeedd: text measurement unavailable: fontconfig found no fonts; text cells keep their "
                    + "estimated heights"
            ],
            "\(root.log())"
        )
    }
}
