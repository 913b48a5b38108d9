import Foundation
import HomeFeeds

/// `homefeedctl feed parse FILE|- --url URL [--content-type TYPE]`: parses one feed or OPML
/// document offline and prints the JSON of `feed-parsing.md` §1/§4.
///
/// Exit status: 0 parsed, 1 the document (or file) could not be parsed or read, 2 bad usage.
enum FeedParseCommand {
    static let usage = """
        usage: homefeedctl feed parse FILE|- --url URL [--content-type TYPE] [--compact]

        Parse an RSS, RDF, Atom, JSON Feed or OPML document and print it as the JSON of
        feed-parsing.md: plain-text titles and summaries, absolute links, RFC 3339 UTC dates and
        entry ids. "wellFormed" is false when the parser had to recover (broken XML, bytes
        invalid in the document's encoding, a bare &, a body cut short); "warnings" lists
        [{"line", "column", "message"}] for what it recovered from or left out (the first 20):
        substituted bytes, encoding decisions, dropped entries and refused links. Reads
        standard input when FILE is "-".

        options:
          --url URL            the URL the document was fetched from; relative links resolve
                               against it (default for FILE: its file:// URL; required for -)
          --content-type TYPE  the HTTP Content-Type; for text/*, application/xml and
                               application/*+xml its charset wins over the XML declaration
                               (a byte-order mark wins over both)
          --compact            print the JSON on one line
          --help               show this help

        exit status: 0 parsed (with or without warnings), 1 unparseable document
        ({"error": true, "message": ..., "line": ..., "column": ...} on stdout) or unreadable
        file, 2 usage error.

        example:
          homefeedctl feed parse news.xml --url https://example.test/feed.xml \\
              --content-type 'application/rss+xml; charset=EUC-KR'
        """

    /// Runs the command; `arguments` are the words after `feed parse`.
    static func run(_ arguments: [String]) -> Int32 {
        var path: String?
        var url: String?
        var contentType: String?
        var pretty = true
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            switch argument {
            case "--help", "-h":
                print(usage)
                return 0
            case "--url", "--content-type":
                guard index + 1 < arguments.count else { return usageError("\(argument) needs a value") }
                if argument == "--url" { url = arguments[index + 1] } else { contentType = arguments[index + 1] }
                index += 1
            case "--compact":
                pretty = false
            default:
                if argument.hasPrefix("--url=") {
                    url = String(argument.dropFirst(6))
                } else if argument.hasPrefix("--content-type=") {
                    contentType = String(argument.dropFirst(15))
                } else if argument.hasPrefix("-") && argument != "-" {
                    return usageError("unknown option \(argument)")
                } else if path == nil {
                    path = argument
                } else {
                    return usageError("more than one FILE")
                }
            }
            index += 1
        }
        guard let path else { return usageError("missing FILE (use - for standard input)") }
        let body: Data
        if path == "-" {
            guard url != nil else { return usageError("--url is required when reading standard input") }
            body = FileHandle.standardInput.readDataToEndOfFile()
        } else {
            guard let data = FileManager.default.contents(atPath: path) else {
                writeError("homefeedctl: cannot read \(path)")
                return 1
            }
            body = data
            if url == nil { url = URL(fileURLWithPath: path).absoluteString }
        }
        let documentURL = url ?? ""
        do {
            let document = try HomeFeeds.parse([UInt8](body), url: documentURL, contentType: contentType)
            print(document.jsonString(pretty: pretty))
            return 0
        } catch {
            print(error.jsonString(pretty: pretty))
            return 1
        }
    }

    private static func usageError(_ message: String) -> Int32 {
        writeError("homefeedctl feed parse: \(message)\n\n\(usage)")
        return 2
    }

    private static func writeError(_ message: String) {
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }
}
