/// HomeFeeds: bytes → plain values. RSS 0.91/0.92/2.0, RSS 1.0 (RDF), Atom 1.0, JSON Feed
/// 1.0/1.1 and OPML 1.0/2.0, normalised per `feed-parsing.md`.
///
/// Never touches files, the network or SQLite: callers hand in bytes. XML goes through libxml2's
/// SAX2 push parser with the hardened configuration of `feed-parsing.md` §5; every byte is
/// treated as hostile and every resource is bounded by `FeedParseLimits`.
public enum FeedParser {
    /// Parses a whole body: detects JSON Feed or XML (then RSS, RDF, Atom or OPML by its root
    /// element) and returns the normalised document.
    ///
    /// - Parameters:
    ///   - body: the document bytes, decompressed.
    ///   - url: the URL the document was fetched from; the base of every relative link.
    ///   - contentType: the HTTP `Content-Type`, if any; its `charset` overrides the XML
    ///     declaration (but not a byte-order mark).
    ///   - limits: resource limits; the defaults are `feed-parsing.md` §6's.
    /// - Throws: `FeedParseError` when the document is not a feed, cannot be recovered, or
    ///   breaks a limit.
    public static func parse(
        _ body: [UInt8],
        url: String,
        contentType: String? = nil,
        limits: FeedParseLimits = .default
    ) throws(FeedParseError) -> FeedDocument {
        let parser = FeedDocumentParser(url: url, contentType: contentType, limits: limits)
        try parser.append(body)
        return try parser.finish()
    }

    /// Initialises libxml2 and installs the deny-all external entity loader
    /// (`feed-parsing.md` §5.1). Parsing does this on first use anyway; the daemon calls it
    /// from its main thread at start-up so the process-wide state is set before any thread
    /// parses.
    public static func prepare() {
        LibXML2Setup.ensure()
    }
}
