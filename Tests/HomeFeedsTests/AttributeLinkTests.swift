import Testing

@testable import HomeFeeds

/// Links read from attribute values (Atom `link`, RSS `enclosure`, `media:content`): libxml2
/// hands `&` over as `&#38;`, which is undone before the link is resolved, and MIME types lose
/// their white space and NBSP, whichever path (clean join or full RFC 3986) resolves them.
@Suite struct AttributeLinkTests {
    @Test("Atom links: each &amp; read as &, relative links joined to the document URL")
    func atomLinks() throws {
        let feed = try parseFeed(
            """
            <feed xmlns="http://www.w3.org/2005/Atom"><title>T</title><entry><id>1</id>
            <link rel="alternate" href="posts/1?a=1&amp;b=2&amp;c"/>
            <link rel="enclosure" type=" audio/mpeg&#160;" length="12" href="media/x.mp3?k=1&amp;v=2"/>
            </entry></feed>
            """
        )
        let entry = try #require(feed.entries.first)
        // feedURL is https://example.test/feed.xml: a relative path replaces `feed.xml`.
        #expect(entry.link == "https://example.test/posts/1?a=1&b=2&c")
        #expect(
            entry.enclosures == [
                FeedEnclosure(url: "https://example.test/media/x.mp3?k=1&v=2", type: "audio/mpeg", length: 12)
            ]
        )
    }

    @Test("an empty href is the base without its fragment (RFC 3986); an empty <link> element stays null")
    func emptyHref() throws {
        let feed = try parseFeed(
            """
            <feed xmlns="http://www.w3.org/2005/Atom" xml:base="https://example.test/dir/doc#top"><title>T</title>
            <link href=" "/><entry><id>1</id><link rel="alternate" href=""/></entry></feed>
            """,
            url: "https://example.test/feed.xml#frag"
        )
        #expect(feed.link == "https://example.test/dir/doc")
        #expect(feed.entries.first?.link == "https://example.test/dir/doc")
        let noBase = try parseFeed(
            atom("<entry><id>1</id><link href=\"\"/></entry>"),
            url: "https://example.test/feed.xml#frag"
        )
        #expect(noBase.entries.first?.link == "https://example.test/feed.xml")
        let rssFeed = try parseFeed(rss("<item><guid isPermaLink=\"false\">1</guid><link></link></item>"))
        #expect(rssFeed.entries.first?.link == nil)
    }

    @Test("RSS enclosure and media:content: absolute, relative, and relative needing percent-encoding")
    func rssEnclosures() throws {
        let feed = try parseFeed(
            """
            <rss version="2.0" xmlns:media="http://search.yahoo.com/mrss/"><channel><title>T</title><item>
            <guid>1</guid>
            <enclosure url="https://cdn.example.test/a.mp3?x=1&amp;y=2" type="audio/mpeg" length="3"/>
            <enclosure url="media/a b.mp3" type="&#160;audio/mpeg "/>
            <media:content url="/v.mp4?q=&amp;" type="video/mp4"/>
            </item></channel></rss>
            """
        )
        let entry = try #require(feed.entries.first)
        #expect(
            entry.enclosures == [
                FeedEnclosure(url: "https://cdn.example.test/a.mp3?x=1&y=2", type: "audio/mpeg", length: 3),
                // The space is percent-encoded (%20) by the full resolution.
                FeedEnclosure(url: "https://example.test/media/a%20b.mp3", type: "audio/mpeg", length: nil),
                // An absolute path keeps only the document's authority.
                FeedEnclosure(url: "https://example.test/v.mp4?q=&", type: "video/mp4", length: nil),
            ]
        )
    }

    @Test("attributes found in one pass: any order, a namespaced twin ignored, a missing one absent")
    func attributesInAnyOrder() throws {
        let feed = try parseFeed(
            """
            <feed xmlns="http://www.w3.org/2005/Atom" xmlns:x="urn:x"><title>T</title><entry><id>1</id>
            <link length="7" x:href="wrong.mp3" href="b.mp3" x:rel="alternate" type="audio/ogg" rel="enclosure"/>
            <link x:type="text/plain" href="page" rel="alternate"/>
            </entry></feed>
            """
        )
        let entry = try #require(feed.entries.first)
        // The un-namespaced href, type and length, whatever their place among the attributes.
        #expect(entry.enclosures == [FeedEnclosure(url: "https://example.test/b.mp3", type: "audio/ogg", length: 7)])
        // No un-namespaced type: the alternate counts as HTML (x:type is not read).
        #expect(entry.link == "https://example.test/page")

        let rss = try parseFeed(
            """
            <rss version="2.0" xmlns:x="urn:x"><channel><title>T</title><item><guid>1</guid>
            <enclosure x:url="https://wrong.test/a.mp3" length="+12" x:type="video/mp4" url="a.mp3"/>
            <enclosure type="audio/mpeg" url="c.mp3"/>
            </item></channel></rss>
            """
        )
        let item = try #require(rss.entries.first)
        #expect(
            item.enclosures == [
                FeedEnclosure(url: "https://example.test/a.mp3", type: nil, length: 12),
                FeedEnclosure(url: "https://example.test/c.mp3", type: "audio/mpeg", length: nil),
            ]
        )
    }
}
