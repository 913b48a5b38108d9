import CommandTable
import Foundation
import HomeFeeds

/// `homefeedctl feed parse FILE|- [--url URL] [--content-type TYPE]`: parses one feed or OPML
/// document offline and prints the JSON of `feed-parsing.md` §1/§4.
enum FeedParseCommand {
    static let command = Command(
        "parse",
        abstract: "parse an RSS/Atom/RDF/JSON Feed/OPML document, print JSON",
        discussion: """
            Parses an RSS, RDF, Atom, JSON Feed or OPML document and prints it as the JSON of \
            feed-parsing.md: plain-text titles and summaries, absolute links, RFC 3339 UTC dates and \
            entry ids. "wellFormed" is false when the parser had to recover (broken XML, bytes invalid in \
            the document's encoding, a bare &, a body cut short); "warnings" lists [{"line", "column", \
            "message"}] for what it recovered from or left out (the first 20): substituted bytes, \
            encoding decisions, dropped entries and refused links. Reads standard input when FILE is "-".
            """,
        arguments: [Argument("FILE", .file, help: "the document, or - for standard input")],
        options: [
            .value(
                "--url",
                "URL",
                help: """
                    the URL the document was fetched from; relative links resolve against it (default for \
                    FILE: its file:// URL; required for -)
                    """
            ),
            .value(
                "--content-type",
                "TYPE",
                help: """
                    the HTTP Content-Type; for text/*, application/xml and application/*+xml its charset wins \
                    over the XML declaration (a byte-order mark wins over both)
                    """
            ),
            .flag("--compact", help: "print the JSON on one line"),
        ],
        exitStatuses: [
            ExitStatusMeaning(ExitStatus.ok, "parsed (with or without warnings)"),
            ExitStatusMeaning(
                ExitStatus.failure,
                #"an unparseable document ({"error": true, "message": ..., "line": ..., "column": ...} on stdout) or an unreadable file"#
            ),
            ExitStatusMeaning(ExitStatus.usage, "usage error"),
            ExitStatusMeaning(ExitStatus.outputFailed, "the output cannot be written"),
        ],
        examples: [
            "homefeedctl feed parse news.xml --url https://example.test/feed.xml \\",
            "    --content-type 'application/rss+xml; charset=EUC-KR'",
        ],
        body: run
    )

    static func run(_ arguments: ParsedArguments) throws(UsageError) -> Int32 {
        let path = arguments.positionals[0]
        var url = arguments.string("--url")
        let pretty = !arguments.has("--compact")
        if path == "-" {
            guard url != nil else { throw UsageError("--url is required when reading standard input") }
        } else if url == nil {
            url = URL(fileURLWithPath: path).absoluteString
        }
        // One byte past the parser's body limit, no more: the parse then fails on the limit, as a
        // fetch would, instead of this reading /dev/zero until memory runs out.
        guard let body = InputFile.read(path, upTo: FeedParseLimits.default.maxBodyBytes + 1) else {
            return ExitStatus.failure
        }
        let documentURL = url ?? ""
        do {
            let document = try FeedParser.parse(
                [UInt8](body),
                url: documentURL,
                contentType: arguments.string("--content-type")
            )
            Console.out(document.jsonString(pretty: pretty))
            return ExitStatus.ok
        } catch {
            Console.out(error.jsonString(pretty: pretty))
            return ExitStatus.failure
        }
    }
}
