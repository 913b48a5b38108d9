import Foundation

/// `homefeedctl`: the companion CLI of homefeedd.
///
/// Offline tools (`layout`, `feed`) use the libraries directly. Exit status: 0 ok, 1 invalid
/// input, 2 usage error.
@main
enum HomefeedCtl {
    static let usage = """
        usage: homefeedctl <command> [<args>]

        Offline tools:
          layout solve SPEC ...   solve a layout spec for one container, print frames as JSON
          layout sweep SPEC ...   solve at every width in a range, report errors and warnings
          layout check SPEC       validate a spec at common widths
          feed parse FILE ...     parse an RSS/Atom/RDF/JSON Feed/OPML document, print JSON

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
}

/// Writes whole lines to stdout and stderr.
enum Console {
    static func out(_ text: String) {
        FileHandle.standardOutput.write(Data((text.hasSuffix("\n") ? text : text + "\n").utf8))
    }

    static func error(_ text: String) {
        FileHandle.standardError.write(Data((text.hasSuffix("\n") ? text : text + "\n").utf8))
    }
}
