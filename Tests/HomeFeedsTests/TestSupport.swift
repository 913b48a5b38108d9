import Foundation
import Testing

@testable import HomeFeeds

let feedURL = "https://example.test/feed.xml"

enum Fixture {
    /// The bytes of `Tests/HomeFeedsTests/Fixtures/<name>`.
    static func bytes(_ name: String) throws -> [UInt8] {
        let url = try #require(Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures"))
        return [UInt8](try Data(contentsOf: url))
    }

    static func names(in subdirectory: String) -> [String] {
        guard let url = Bundle.module.url(forResource: subdirectory, withExtension: nil, subdirectory: "Fixtures"),
            let names = try? FileManager.default.contentsOfDirectory(atPath: url.path)
        else { return [] }
        return names.sorted()
    }
}

/// Parses `bytes` and requires a feed (not OPML).
func parseFeed(
    _ bytes: [UInt8],
    url: String = feedURL,
    contentType: String? = nil,
    limits: FeedParseLimits = .default
) throws -> ParsedFeed {
    let document = try FeedParser.parse(bytes, url: url, contentType: contentType, limits: limits)
    guard case .feed(let feed) = document else {
        Issue.record("expected a feed, got \(document)")
        throw FeedParseError(kind: .unsupportedFormat, source: url, message: "not a feed")
    }
    return feed
}

/// Parses `text` and requires an OPML document.
func parseOPML(_ text: String, url: String = feedURL, limits: FeedParseLimits = .default) throws -> OPMLDocument {
    let document = try FeedParser.parse(Array(text.utf8), url: url, limits: limits)
    guard case .opml(let opml) = document else {
        Issue.record("expected OPML, got \(document)")
        throw FeedParseError(kind: .unsupportedFormat, source: url, message: "not OPML")
    }
    return opml
}

/// Parses `body` handed to one `FeedDocumentParser` in pieces of `size` bytes (the last one
/// shorter), as a download arrives. The parser decodes in chunks of its own `chunkSize` at fixed
/// offsets whatever the pieces: `chunkSize` (at most 64 KiB) puts its chunk boundaries where
/// the pieces end.
func parseInPieces(_ body: [UInt8], size: Int, chunkSize: Int = 64 << 10, url: String = feedURL) throws
    -> FeedDocument
{
    let parser = FeedDocumentParser(url: url, limits: FeedParseLimits(chunkSize: chunkSize))
    var offset = 0
    while offset < body.count {
        let end = min(offset + size, body.count)
        try parser.append(Array(body[offset..<end]))
        offset = end
    }
    return try parser.finish()
}

func parseFeed(_ text: String, url: String = feedURL, contentType: String? = nil, limits: FeedParseLimits = .default)
    throws -> ParsedFeed
{
    try parseFeed(Array(text.utf8), url: url, contentType: contentType, limits: limits)
}

/// Wraps item XML in a minimal RSS 2.0 document.
func rss(_ items: String, channel: String = "<title>T</title><link>https://example.test/</link>") -> String {
    """
    <?xml version="1.0" encoding="UTF-8"?>
    <rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:media="http://search.yahoo.com/mrss/"><channel>\(channel)\(items)</channel></rss>
    """
}

/// Wraps entry XML in a minimal Atom document.
func atom(_ entries: String, feed: String = "<title>A</title>") -> String {
    """
    <feed xmlns="http://www.w3.org/2005/Atom">\(feed)\(entries)</feed>
    """
}

/// Captures a thrown `FeedParseError`, or nil when parsing succeeded.
func parseError(_ bytes: [UInt8], url: String = feedURL, contentType: String? = nil, limits: FeedParseLimits = .default)
    -> FeedParseError?
{
    do {
        _ = try FeedParser.parse(bytes, url: url, contentType: contentType, limits: limits)
        return nil
    } catch {
        return error
    }
}
