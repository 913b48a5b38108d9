import CommandTable

/// `homefeedctl feed parse`: the feed parser offline.
enum FeedCommand {
    static let command = Command(
        "feed",
        abstract: "parse feed documents offline",
        discussion: """
            Parses RSS, RDF, Atom, JSON Feed and OPML documents offline, with the parser the daemon \
            ingests them with.
            """,
        subcommands: [CommandGroup([FeedParseCommand.command])]
    )
}
