import CommandTable
import Foundation
import HomeDaemon
import Testing

@testable import homefeedctl

/// `--help` of every command and subcommand of homefeedctl, and of homefeedd, run against the
/// built binaries and compared with the checked-in text in `Tests/IntegrationTests/Goldens/help/`,
/// one file per command (`homefeedctl_layout_solve.txt`).
///
/// The commands come from the tools' command tables, so a new command fails here until its
/// golden exists. When help changes on purpose (or a command is added), rewrite the goldens
/// and review the diff before committing:
///
///     HOMEFEED_UPDATE_GOLDENS=1 swift test --disable-xctest --filter HelpGoldenTests
@Suite struct HelpGoldenTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var tool: String
        var words: [String]
        var file: String { ([tool] + words).joined(separator: "_") + ".txt" }
        var testDescription: String { (([tool] + words) + ["--help"]).joined(separator: " ") }
    }

    static let cases =
        HomefeedCtl.command.allPaths.map { Case(tool: "homefeedctl", words: $0) }
        + DaemonOptions.command.allPaths.map { Case(tool: "homefeedd", words: $0) }

    static let directory = CommandRunner.packageRoot.appendingPathComponent("Tests/IntegrationTests/Goldens/help")
    static let isUpdating = ProcessInfo.processInfo.environment["HOMEFEED_UPDATE_GOLDENS"] == "1"

    @Test("--help matches its golden", arguments: cases)
    func help(_ command: Case) throws {
        let outcome = try CommandRunner(executable: command.tool).run(command.words + ["--help"])
        #expect(outcome.status == 0)
        #expect(outcome.stderr.isEmpty)
        let golden = Self.directory.appendingPathComponent(command.file)
        if Self.isUpdating {
            try FileManager.default.createDirectory(at: Self.directory, withIntermediateDirectories: true)
            try Data(outcome.stdout.utf8).write(to: golden)
            return
        }
        let expected = try #require(
            try? String(contentsOf: golden, encoding: .utf8),
            "no golden \(command.file): run with HOMEFEED_UPDATE_GOLDENS=1 (see HelpGoldenTests)"
        )
        #expect(outcome.stdout == expected, "differs from \(command.file); if meant, HOMEFEED_UPDATE_GOLDENS=1")
    }

    @Test("every golden belongs to a command that still exists")
    func noStaleGoldens() throws {
        let files = Set((try? FileManager.default.contentsOfDirectory(atPath: Self.directory.path)) ?? [])
        let stale = files.subtracting(Self.cases.map(\.file))
        if Self.isUpdating {
            for file in stale { try FileManager.default.removeItem(at: Self.directory.appendingPathComponent(file)) }
            return
        }
        #expect(stale.isEmpty, "goldens of commands that no longer exist; HOMEFEED_UPDATE_GOLDENS=1 removes them")
    }

    @Test("help COMMAND prints what COMMAND --help prints")
    func helpCommand() throws {
        let ctl = CommandRunner(executable: "homefeedctl")
        for words in [["layout", "solve"], ["history"], []] {
            let viaWord = try ctl.run(["help"] + words)
            #expect(viaWord.status == 0)
            #expect(viaWord.stdout == (try ctl.run(words + ["--help"])).stdout)
        }
    }

    struct Mistake: Sendable, CustomTestStringConvertible {
        var words: [String]
        var message: String
        var testDescription: String { words.joined(separator: " ") }
    }

    @Test(
        "a usage error names the command and what is wrong, then its usage; exit 64",
        arguments: [
            Mistake(words: ["nonsense"], message: #"homefeedctl: unknown command "nonsense""#),
            Mistake(words: [], message: "homefeedctl: missing command"),
            Mistake(
                words: ["layout", "solve", "feeds/layout.json"],
                message: "homefeedctl layout solve: missing --width W"
            ),
            Mistake(
                words: ["notices", "--limit", "many"],
                message: #"homefeedctl notices: --limit: expected a whole number from 1 to 1000, got "many""#
            ),
            Mistake(
                words: ["notices", "--limit", "0"],
                message: #"homefeedctl notices: --limit: expected a whole number from 1 to 1000, got "0""#
            ),
            Mistake(
                words: ["history", "add", "x", "--kind", String(repeating: "k", count: 65)],
                message: "homefeedctl history add: --kind: expected a word of 1 to 64 bytes"
            ),
            // What the daemon would refuse whatever it serves is found before connecting too.
            Mistake(
                words: ["history", "add", "x", "--kind", " \t "],
                message: "homefeedctl history add: --kind: expected a word of 1 to 64 bytes"
            ),
            Mistake(
                words: ["history", "add", ""],
                message: "homefeedctl history add: TITLE: expected 1 to 1024 bytes of text"
            ),
            Mistake(
                words: ["history", "add", " \n "],
                message: "homefeedctl history add: TITLE: expected 1 to 1024 bytes of text"
            ),
            Mistake(
                words: ["history", "add", String(repeating: "가", count: 342)],
                message: "homefeedctl history add: TITLE: expected 1 to 1024 bytes of text"
            ),
            Mistake(
                words: ["history", "add", "x", "--link", "https://x.test/" + String(repeating: "l", count: 4082)],
                message: "homefeedctl history add: --link: longer than 4096 bytes"
            ),
            Mistake(
                words: ["manifest", "--profile", "phone", "--width", "300"],
                message: "homefeedctl manifest: give --profile or a container (--width, --height, --scale), not both"
            ),
            Mistake(
                words: ["manifest", "--width", "300"],
                message: "homefeedctl manifest: a container needs --width and --height"
            ),
            Mistake(
                words: ["watch", "--scale", "2"],
                message: "homefeedctl watch: a container needs --width and --height"
            ),
            Mistake(
                words: ["sizes", "clear", "--profile", "phone", "--height", "600"],
                message:
                    "homefeedctl sizes clear: give --profile or a container (--width, --height, --scale), not both"
            ),
            Mistake(words: ["status", "--socket"], message: "homefeedctl status: --socket needs a value (PATH)"),
            Mistake(
                words: ["reload", "now"],
                message: #"homefeedctl reload: unexpected argument "now" (takes no arguments)"#
            ),
            Mistake(
                words: ["history", "list", "--kind", "open"],
                message: "homefeedctl history list: unknown option --kind"
            ),
            Mistake(words: ["preview", "--json"], message: "homefeedctl preview: unknown option --json"),
        ]
    )
    func usageErrors(_ mistake: Mistake) throws {
        // No daemon runs on this socket: a usage error is found before connecting.
        let outcome = try CommandRunner(executable: "homefeedctl").run(
            mistake.words,
            environment: ["HOMEFEED_SOCKET": "/nonexistent/hf.sock"]
        )
        #expect(outcome.status == ExitStatus.usage)
        #expect(outcome.stdout.isEmpty)
        #expect(outcome.stderr.hasPrefix(mistake.message + "\n\nusage: homefeedctl"))
    }

    @Test("a socket path too long for sun_path is a usage error naming where it came from, before connecting")
    func socketTooLong() throws {
        // 108 bytes: one more than sun_path holds without its NUL.
        let long = "/" + String(repeating: "s", count: 107)
        let runtime = "/" + String(repeating: "r", count: 90)
        let cases: [([String], [String: String], String)] = [
            (["status", "--socket", long], [:], "homefeedctl status: --socket: longer than the 107 bytes"),
            (
                ["refresh"], ["HOMEFEED_SOCKET": long],
                "homefeedctl refresh: $HOMEFEED_SOCKET: longer than the 107 bytes"
            ),
            (
                ["reload", "--user"], ["XDG_RUNTIME_DIR": runtime],
                "homefeedctl reload: --user: $XDG_RUNTIME_DIR/homefeed/homefeed.sock: longer than the 107 bytes"
            ),
        ]
        for (words, environment, message) in cases {
            let outcome = try CommandRunner(executable: "homefeedctl").run(words, environment: environment)
            #expect(outcome.status == ExitStatus.usage)
            #expect(outcome.stderr.hasPrefix(message), "\(outcome.stderr)")
            #expect(outcome.stderr.contains("usage: homefeedctl"))
        }
    }

    @Test("homefeedd: an unknown option, a bad level, a socket path too long for sun_path; exit 64")
    func daemonUsageErrors() throws {
        let daemon = CommandRunner(executable: "homefeedd")
        let cases: [([String], String)] = [
            (["--bogus"], "homefeedd: unknown option --bogus"),
            (
                ["--log-level", "loud"],
                #"homefeedd: --log-level: expected error, warning, notice, info or debug, got "loud""#
            ),
            // 108 bytes: one more than sun_path holds without its NUL.
            (["--socket", "/" + String(repeating: "s", count: 107)], "homefeedd: --socket: longer than the 107 bytes"),
        ]
        for (words, message) in cases {
            let outcome = try daemon.run(words)
            #expect(outcome.status == ExitStatus.usage)
            #expect(outcome.stderr.hasPrefix(message), "\(outcome.stderr)")
            #expect(outcome.stderr.contains("usage: homefeedd"))
        }
    }
}
