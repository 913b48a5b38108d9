import Foundation

/// `homefeedctl`: the companion CLI of homefeedd.
///
/// Offline tools (`layout`, `feed`, `text`) use the libraries directly; the others talk Varlink to the
/// daemon. Exit status: 0 ok, 1 invalid input or an error reply, 2 usage error, 69 daemon not
/// running.
@main
enum HomefeedCtl {
    static let usage = """
        usage: homefeedctl <command> [<args>]

        Talking to homefeedd (--socket PATH, else $HOMEFEED_SOCKET, else /run/homefeed/homefeed.sock):
          status                  version, counts and the health of every source
          manifest                the manifest served for a profile or container
          watch                   one line (or manifest) per new version, until interrupted
          refresh [URL]           fetch one source or all now
          history add TITLE       record a user-history event; history list
          notices                 the newest notices
          reload                  re-read configuration, sources and layout
          store check             SQLite's integrity_check of the daemon's store
          preview                 the served home screen as text boxes, or --svg FILE
          sizes report|list|clear measured sizes of manifest elements (self-sizing)

        Offline tools:
          layout solve SPEC ...   solve a layout spec for one container, print frames as JSON
          layout sweep SPEC ...   solve at every width in a range, report errors and warnings
          layout check SPEC       validate a spec at common widths
          feed parse FILE ...     parse an RSS/Atom/RDF/JSON Feed/OPML document, print JSON
          text measure TEXT ...   lines and height of a string in a font at a width (Pango)

        Run 'homefeedctl <command> <subcommand> --help' for details and examples.
        """

    static func main() {
        exit(run(Array(CommandLine.arguments.dropFirst())))
    }

    /// Runs one command line and returns its exit status.
    static func run(_ words: [String]) -> Int32 {
        guard let command = words.first else {
            Console.error(usage)
            return ExitStatus.usage
        }
        let rest = Array(words.dropFirst())
        switch command {
        case "--help", "-h", "help":
            Console.out(usage)
            return ExitStatus.ok
        case "layout":
            return LayoutCommand.run(rest)
        case "feed":
            return FeedCommand.run(rest)
        case "text":
            return TextCommand.run(rest)
        case "status": return DaemonCommands.status(rest)
        case "manifest": return DaemonCommands.manifest(rest)
        case "watch": return DaemonCommands.watch(rest)
        case "refresh": return DaemonCommands.refresh(rest)
        case "history": return DaemonCommands.history(rest)
        case "notices": return DaemonCommands.notices(rest)
        case "reload": return DaemonCommands.reload(rest)
        case "store": return StoreCommand.run(rest)
        case "preview": return PreviewCommand.run(rest)
        case "sizes": return SizesCommand.run(rest)
        default:
            Console.error("homefeedctl: unknown command '\(command)'\n\n\(usage)")
            return ExitStatus.usage
        }
    }
}

/// Exit statuses of every homefeedctl command.
enum ExitStatus {
    static let ok: Int32 = 0
    /// The input (spec, document, flags' values) is invalid, or a layout UIKit would refuse.
    static let invalidInput: Int32 = 1
    /// The command line itself is wrong.
    static let usage: Int32 = 2
    /// homefeedd is not running (`EX_UNAVAILABLE`).
    static let unavailable: Int32 = 69
}

/// Writes whole lines to stdout and stderr.
enum Console {
    static func out(_ text: String, terminator: String = "\n") {
        let line = terminator.isEmpty || text.hasSuffix(terminator) ? text : text + terminator
        FileHandle.standardOutput.write(Data(line.utf8))
    }

    static func error(_ text: String) {
        FileHandle.standardError.write(Data((text.hasSuffix("\n") ? text : text + "\n").utf8))
    }
}
