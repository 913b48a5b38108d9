import TestSupport
import Testing

@testable import HomeFeeds

@Suite struct EntryIdentityTests {
    @Test("native ids: RSS guid verbatim, Atom id trimmed, rdf:about, JSON id stringified")
    func nativeIDs() throws {
        let rssFeed = try parseFeed(rss("<item><guid isPermaLink=\"false\">  relative/guid  </guid></item>"))
        #expect(rssFeed.entries.first?.id == "relative/guid")
        #expect(rssFeed.entries.first?.idSource == .guid)
        let atomFeed = try parseFeed(atom("<entry><id>\n urn:x \n</id></entry>"))
        #expect(atomFeed.entries.first?.id == "urn:x")
        #expect(atomFeed.entries.first?.idSource == .atomID)
        let json = try parseFeed(
            #"{"version":"https://jsonfeed.org/version/1.1","items":[{"id":12345},{"id":"  s  "},{"id":1.5}]}"#
        )
        #expect(json.entries.map(\.id) == ["12345", "s", "1.5"])
        #expect(json.entries.map(\.idSource) == [.jsonID, .jsonID, .jsonID])
    }

    @Test("fallbacks: absolute link, then sha256 of the title, then of the summary; nothing → dropped")
    func fallbacks() throws {
        let feed = try parseFeed(
            rss(
                """
                <item><guid>   </guid><link>/a</link><title>x</title></item>
                <item><title>  안녕   하세요 </title></item>
                <item><description>&lt;p&gt;요약&lt;/p&gt;</description></item>
                <item><pubDate>Sun, 29 Nov 2026 00:00:00 GMT</pubDate></item>
                """
            )
        )
        #expect(feed.entries.count == 3)
        #expect(feed.entries[0].id == "https://example.test/a")
        #expect(feed.entries[0].idSource == .link)
        // sha256("안녕 하세요"), the normalised title.
        #expect(feed.entries[1].id == "sha256:" + SHA256.hexDigest("안녕 하세요".utf8))
        #expect(feed.entries[1].idSource == .titleHash)
        #expect(feed.entries[2].id == "sha256:" + SHA256.hexDigest("요약".utf8))
        #expect(feed.entries[2].idSource == .summaryHash)
    }

    @Test(
        "SHA-256 matches FIPS 180-4 test vectors",
        arguments: [
            ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
            ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
            (
                "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
                "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
            ),
        ]
    )
    func sha256(_ input: String, _ digest: String) {
        #expect(SHA256.hexDigest(input.utf8) == digest)
    }

    @Test("duplicates: exact repeats dropped, then base|link, then base|k; first keeps the plain id")
    func duplicates() throws {
        let feed = try parseFeed(
            rss(
                """
                <item><guid isPermaLink="false">same</guid><title>A</title><link>/1</link></item>
                <item><guid isPermaLink="false">same</guid><title>A</title><link>/1</link></item>
                <item><guid isPermaLink="false">same</guid><title>B</title><link>/2</link></item>
                <item><guid isPermaLink="false">same</guid><title>C</title><link>/1</link></item>
                <item><guid isPermaLink="false">same</guid><title>D</title></item>
                <item><guid isPermaLink="false">other</guid><title>A</title><link>/1</link></item>
                """
            )
        )
        #expect(feed.entries.map(\.id) == ["same", "same|https://example.test/2", "same|3", "same|4", "other"])
        #expect(feed.entries.map(\.idSource) == [.guid, .guidPlusLink, .guidPlusN, .guidPlusN, .guid])
        #expect(feed.entries.map(\.title) == ["A", "B", "C", "D", "A"])
    }

    @Test("ids stay unique: a native id equal to a renamed one clashes with it, and a renamed id skips taken ones")
    func renamedIDsStayUnique() throws {
        let feed = try parseFeed(
            rss(
                """
                <item><guid isPermaLink="false">a</guid><title>A</title><link>/1</link></item>
                <item><guid isPermaLink="false">a</guid><title>B</title><link>/2</link></item>
                <item><guid isPermaLink="false">a|https://example.test/2</guid><title>C</title><link>/3</link></item>
                <item><guid isPermaLink="false">b|2</guid><title>D</title></item>
                <item><guid isPermaLink="false">b</guid><title>E</title></item>
                <item><guid isPermaLink="false">b</guid><title>F</title></item>
                <item><guid isPermaLink="false">c|https://example.test/4</guid><title>G</title></item>
                <item><guid isPermaLink="false">c</guid><title>H</title><link>/5</link></item>
                <item><guid isPermaLink="false">c</guid><title>I</title><link>/4</link></item>
                """
            )
        )
        #expect(
            feed.entries.map(\.id) == [
                "a", "a|https://example.test/2", "a|https://example.test/2|https://example.test/3",
                "b|2", "b", "b|3", "c|https://example.test/4", "c", "c|2",
            ]
        )
        #expect(feed.entries.last?.idSource == .guidPlusN)
        #expect(Set(feed.entries.map(\.id)).count == feed.entries.count)
        // The same in a JSON Feed.
        let json = try parseFeed(
            #"""
            {"version": "https://jsonfeed.org/version/1.1", "items": [
              {"id": "a", "title": "A", "url": "/1"}, {"id": "a", "title": "B", "url": "/2"},
              {"id": "a|https://example.test/2", "title": "C", "url": "/3"}]}
            """#
        )
        #expect(
            json.entries.map(\.id) == [
                "a", "a|https://example.test/2", "a|https://example.test/2|https://example.test/3",
            ]
        )
    }

    @Test("an exact repeat needs the same title, link, summary and published")
    func repeatNeedsAllFields() throws {
        let feed = try parseFeed(
            rss(
                """
                <item><guid>g</guid><title>A</title><pubDate>Sun, 29 Nov 2026 00:00:00 GMT</pubDate></item>
                <item><guid>g</guid><title>A</title><pubDate>Mon, 30 Nov 2026 00:00:00 GMT</pubDate></item>
                <item><guid>g</guid><title>A</title><pubDate>Mon, 30 Nov 2026 00:00:00 GMT</pubDate></item>
                """
            )
        )
        // guid "g" is a permalink, so every entry has the link https://example.test/g: the second gets g|2.
        #expect(feed.entries.map(\.id) == ["g", "g|2"])
    }

    @Test("10 000 items of one guid are told apart in one pass, not by comparing each with every earlier one")
    func manyEntriesOfOneGuid() throws {
        // Each entry was compared with every earlier one of its base: 50 million comparisons,
        // 11 s of this thread's CPU in a debug build. A set lookup each takes well under 1 s.
        let items = (0..<9_999).map {
            "<item><guid isPermaLink=\"false\">s</guid><title>t</title><link>/\($0)</link></item>"
        }
        let document = rss(
            items.joined() + "<item><guid isPermaLink=\"false\">s</guid><title>t</title><link>/7</link></item>"
        )
        let start = threadCPUSeconds()
        let feed = try parseFeed(document)
        let seconds = threadCPUSeconds() - start
        // The last item repeats the eighth exactly and is dropped; the rest are kept, renamed.
        #expect(feed.entries.count == 9_999)
        #expect(feed.entries[7].id == "s|https://example.test/7")
        #expect(Set(feed.entries.map(\.id)).count == 9_999)
        #expect(seconds < 2, "parsing took \(seconds) s of CPU")
    }

    @Test("fallback ids take part in duplicate handling too")
    func duplicateFallbackIDs() throws {
        let feed = try parseFeed(
            rss("<item><title>T</title></item><item><title>T</title><description>d</description></item>")
        )
        let base = "sha256:" + SHA256.hexDigest("T".utf8)
        #expect(feed.entries.map(\.id) == [base, base + "|2"])
    }

    @Test("a native id hashed as it is read clashes like one hashed at the entry's end")
    func nativeIDHashes() throws {
        // The guid, Atom id and rdf:about are hashed when read; a link or title base id at the
        // entry's end. The second item's base id is its link, equal to the first item's guid:
        // the two hashes must agree for the clash to be seen (no link is kept yet, so base|link).
        let mixed = try parseFeed(
            rss(
                """
                <item><guid isPermaLink="false">https://example.test/p</guid><title>A</title></item>
                <item><link>https://example.test/p</link><title>B</title></item>
                <item><guid isPermaLink="false"> https://example.test/p </guid><title>C</title></item>
                """
            )
        )
        #expect(
            mixed.entries.map(\.id) == [
                "https://example.test/p", "https://example.test/p|https://example.test/p", "https://example.test/p|3",
            ]
        )
        // Atom ids are hashed trimmed, as they are kept.
        let atomFeed = try parseFeed(
            atom("<entry><id>urn:a</id><title>A</title></entry><entry><id> urn:a\n</id></entry>")
        )
        #expect(atomFeed.entries.map(\.id) == ["urn:a", "urn:a|2"])
        let rdf = try parseFeed(
            """
            <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/">
            <channel rdf:about="https://example.test/"><title>R</title></channel>
            <item rdf:about=" https://example.test/r "><title>A</title></item>
            <item><link>https://example.test/r</link><title>B</title></item>
            </rdf:RDF>
            """
        )
        #expect(rdf.entries.map(\.id) == ["https://example.test/r", "https://example.test/r|https://example.test/r"])
        // 150 items on 75 guids across the table's growth (64 slots, then 128, 256): items
        // 75–149 repeat guids 0–74 with other titles, so each becomes g<n>|2.
        let items = (0..<150).map { "<item><guid isPermaLink=\"false\">g\($0 % 75)</guid><title>t\($0)</title></item>" }
        let many = try parseFeed(rss(items.joined()))
        #expect(many.entries.map(\.id) == (0..<75).map { "g\($0)" } + (0..<75).map { "g\($0)|2" })
    }
}
