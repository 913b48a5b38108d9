import CommandTable
import Foundation
import HomefeedVersion
import SystemCalls
import Varlink

/// `homefeedctl`: the companion CLI of homefeedd.
///
/// Offline tools (`layout`, `feed`, `text`) use the libraries directly; the others talk Varlink to the
/// daemon. Every command is one declaration in ``command``'s table (CommandTable): parsing,
/// `--help`, usage errors and the bash completion script are generated from it. Adding a
/// command is adding its `Command` value, with its body, to a group below.
@main
enum HomefeedCtl {
    static let command = Command(
        "homefeedctl",
        abstract: "query and control homefeedd, and run the layout, feed and text tools offline",
        discussion: """
            Queries and controls homefeedd over Varlink, on --socket PATH, else $HOMEFEED_SOCKET, else \
            your per-user daemon's socket (\(DaemonSocket.userSocketPattern)) when it exists, else the \
            system daemon's (\(DaemonSocket.systemSocket)); --user or --system chooses one. Connecting to \
            the system daemon requires membership in the group homefeed. The offline tools use the \
            libraries directly and need no daemon.
            """,
        version: homefeedVersion,
        subcommands: [
            CommandGroup(
                "talking to homefeedd",
                [
                    StatusCommand.command, ManifestCommand.command, WatchCommand.command, RefreshCommand.command,
                    HistoryCommand.command, NoticesCommand.command, ReloadCommand.command, StoreCommand.command,
                    PreviewCommand.command, SizesCommand.command,
                ]
            ),
            CommandGroup("offline tools", [LayoutCommand.command, FeedCommand.command, TextCommand.command]),
            CommandGroup("shell", [Command.completion(tool: "homefeedctl")]),
        ],
        exitStatuses: [
            ExitStatusMeaning(ExitStatus.ok, "success"),
            ExitStatusMeaning(
                ExitStatus.failure,
                "invalid input, an error reply from the daemon, or a check that failed"
            ),
            ExitStatusMeaning(
                ExitStatus.usage,
                "usage error: an unknown command or option, a missing or malformed value"
            ),
            ExitStatusMeaning(
                ExitStatus.unavailable,
                "homefeedd is not running, refuses the connection, or ended the subscription of watch"
            ),
            ExitStatusMeaning(
                ExitStatus.outputFailed,
                "the output cannot be written (a full disk, a closed standard output)"
            ),
        ],
        examples: [
            "homefeedctl status",
            "homefeedctl manifest --profile tablet",
            "homefeedctl layout solve feeds/layout.json --width 375",
            "source <(homefeedctl completion bash)",
        ]
    )

    static func main() {
        // Before anything opens a descriptor: the daemon's socket must never become a closed
        // stdout, and what a command prints is what it is for, so without one it stops here.
        if StandardDescriptors.openMissing().contains(STDOUT_FILENO) {
            exit(StandardStream.Failure(errno: EBADF).report(tool: "homefeedctl"))
        }
        exit(command.run(Array(CommandLine.arguments.dropFirst())))
    }
}

/// Writes whole lines to stdout and stderr, through CommandTable's one writer.
enum Console {
    /// Writes `text` and the terminator to stdout, always: a text that ends in a blank line (a
    /// preview's last row) keeps it. When stdout takes no more (a full disk, a closed
    /// descriptor), says so on stderr and exits with ``ExitStatus/outputFailed``: the output is
    /// what the command is for, and a script must not take a cut one for the whole.
    static func out(_ text: String, terminator: String = "\n") {
        do throws(StandardStream.Failure) {
            try StandardStream.output.writeAll(text + terminator)
        } catch {
            exit(error.report(tool: "homefeedctl"))
        }
    }

    /// Writes `text` as a line to stderr; a failure there has nowhere to be reported.
    static func error(_ text: String) {
        StandardStream.error.write(text.hasSuffix("\n") ? text : text + "\n")
    }
}

/// Columns of text for people.
enum Format {
    /// `text` left-aligned in `width` terminal cells (``DisplayWidth``), with at least one space
    /// after it.
    static func pad(_ text: String, _ width: Int) -> String {
        let cells = DisplayWidth.cells(text)
        return cells >= width ? text + " " : text + String(repeating: " ", count: width - cells)
    }

    /// A number from a reply: whole numbers without a fraction, `?` when missing.
    static func number(_ value: JSONValue?) -> String {
        guard let v = value?.doubleValue else { return "?" }
        return v == v.rounded() && abs(v) < 1e15 ? String(Int64(v)) : String(v)
    }

    static func number(_ value: Double) -> String { number(.double(value)) }
}
