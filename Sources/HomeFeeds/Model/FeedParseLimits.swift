/// Application limits for one parse (`feed-parsing.md` §6).
///
/// libxml2's SAX2 push parser enforces none of these itself, so the parser checks them as it
/// reads libxml2's events (`SAXRecorder`) and after every chunk, stops libxml2 with
/// `xmlStopParser` when one is passed, and drops the events libxml2 reported after it.
/// Every limit except `maxEntries` turns into a `FeedParseError`; `maxEntries` gives a bounded
/// result marked `isTruncated`, since the first 10 000 entries of a feed are still useful.
public struct FeedParseLimits: Sendable, Equatable {
    /// Body bytes after decompression (Miniflux uses 15 MiB). Also stops gzip bombs.
    public var maxBodyBytes: Int
    /// Element depth; real feeds stay under 10, libxml2's own DOM limit is 256.
    public var maxDepth: Int
    /// UTF-8 bytes in one text field (a title, a description, a link).
    public var maxFieldBytes: Int
    /// UTF-8 bytes of captured text in the whole document.
    public var maxTotalTextBytes: Int
    /// Entries (or OPML outlines) read before the result is truncated.
    public var maxEntries: Int
    /// Wall time of one parse, checked after each chunk and every few hundred elements.
    public var maxParseDuration: Duration
    /// Bytes decoded and handed to `xmlParseChunk` at once, at fixed offsets of the body (bytes
    /// appended in smaller pieces wait for a whole chunk, so a parse does not depend on how the
    /// body was cut); one call above 10 000 000 bytes fails in libxml2.
    public var chunkSize: Int

    public init(
        maxBodyBytes: Int = 15 << 20,
        maxDepth: Int = 100,
        maxFieldBytes: Int = 1 << 20,
        maxTotalTextBytes: Int = 16 << 20,
        maxEntries: Int = 10_000,
        maxParseDuration: Duration = .seconds(20),
        chunkSize: Int = 64 << 10
    ) {
        self.maxBodyBytes = maxBodyBytes
        self.maxDepth = maxDepth
        self.maxFieldBytes = maxFieldBytes
        self.maxTotalTextBytes = maxTotalTextBytes
        self.maxEntries = maxEntries
        self.maxParseDuration = maxParseDuration
        self.chunkSize = max(1, min(chunkSize, 64 << 10))
    }

    /// The suggested values of `feed-parsing.md` §6.
    public static let `default` = FeedParseLimits()
}
