import Foundation
import TestSupport
import Testing

@testable import HomeFeeds

#if canImport(Glibc)
    import Glibc
#endif

/// A loopback TCP listener that counts connection attempts, for the XXE network tests
/// (`feed-parsing.md` §8). Accepted connections are closed at once.
final class LoopbackListener: @unchecked Sendable {
    let port: UInt16
    private let fd: Int32
    private let lock = NSLock()
    private var _connections = 0
    private var running = true
    private let done = DispatchSemaphore(value: 0)

    /// `@unchecked Sendable`: `_connections` and `running` are only touched under `lock`.
    init() throws {
        let listening = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listening, $0, length) }
        }
        try #require(bound == 0)
        try #require(listen(listening, 16) == 0)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listening, $0, &length) }
        }
        fd = listening
        port = UInt16(bigEndian: address.sin_port)
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    var connections: Int { lock.withLock { _connections } }

    private func acceptLoop() {
        while lock.withLock({ running }) {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            if poll(&poller, 1, 20) > 0 {
                let client = accept(fd, nil, nil)
                if client >= 0 {
                    lock.withLock { _connections += 1 }
                    close(client)
                }
            }
        }
        done.signal()
    }

    func stop() {
        lock.withLock { running = false }
        done.wait()
        close(fd)
    }
}

@Suite struct SecurityTests {
    @Test("XXE over the network, external DTD and external parameter entity make no request")
    func noNetworkRequests() throws {
        let listener = try LoopbackListener()
        defer { listener.stop() }
        let base = "http://127.0.0.1:\(listener.port)"
        let documents = [
            """
            <?xml version="1.0"?><!DOCTYPE rss [<!ENTITY xxe SYSTEM "\(base)/entity">]>
            <rss version="2.0"><channel><title>A&xxe;B</title><item><guid>1</guid><title>&xxe;</title></item></channel></rss>
            """,
            """
            <?xml version="1.0"?><!DOCTYPE rss SYSTEM "\(base)/external.dtd">
            <rss version="2.0"><channel><title>DTD</title></channel></rss>
            """,
            """
            <?xml version="1.0"?><!DOCTYPE rss [<!ENTITY % remote SYSTEM "\(base)/param.dtd"> %remote;]>
            <rss version="2.0"><channel><title>PE</title></channel></rss>
            """,
            """
            <?xml version="1.0"?><!DOCTYPE feed PUBLIC "-//x//y" "\(base)/public.dtd">
            <feed xmlns="http://www.w3.org/2005/Atom" xmlns:xi="http://www.w3.org/2001/XInclude"><title>XI</title>
            <xi:include href="\(base)/xinclude.xml" parse="text"/><entry><id>1</id></entry></feed>
            """,
        ]
        for document in documents {
            let result = try? FeedParser.parse(Array(document.utf8), url: feedURL)
            if case .feed(let feed) = result {
                #expect(feed.title == "AB" || feed.title == "DTD" || feed.title == "PE" || feed.title == "XI")
            }
        }
        #expect(listener.connections == 0)
        // Control: the listener does see a real connection.
        let client = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = listener.port.bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(client, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        #expect(connected == 0)
        close(client)
        // Up to 10 s: the accepting thread may wait that long for a core while the suite runs.
        for _ in 0..<2_000 where listener.connections == 0 { usleep(5_000) }
        #expect(listener.connections == 1)
    }

    @Test("XXE with a local file: the canary never appears")
    func noLocalFile() throws {
        let scratch = try TemporaryDirectory(prefix: "hf-xxe")
        defer { withExtendedLifetime(scratch) {} }  // removed on release
        let canary = "CANARY-\(UUID().uuidString)"
        let file = URL(fileURLWithPath: try scratch.write(canary, to: "secret.txt"))
        let documents = [
            "<!DOCTYPE rss [<!ENTITY x SYSTEM \"\(file.absoluteString)\">]><rss version=\"2.0\"><channel><title>t&x;</title><item><guid>&x;g</guid><description>&x;</description></item></channel></rss>",
            "<!DOCTYPE rss [<!ENTITY x SYSTEM \"\(file.path)\">]><rss version=\"2.0\"><channel><title>&x;</title></channel></rss>",
            "<!DOCTYPE rss SYSTEM \"\(file.absoluteString)\"><rss version=\"2.0\"><channel><title>t</title></channel></rss>",
            "<!DOCTYPE rss [<!ENTITY % p SYSTEM \"\(file.absoluteString)\"> %p;]><rss version=\"2.0\"><channel><title>t</title></channel></rss>",
        ]
        for document in documents {
            let output: String
            do {
                output = try FeedParser.parse(Array(document.utf8), url: feedURL).jsonString()
            } catch {
                output = error.jsonString()
            }
            #expect(!output.contains(canary))
        }
        let feed = try parseFeed(documents[0])
        #expect(feed.title == "t")
        #expect(feed.entries.map(\.id) == ["g"])
    }

    @Test("billion laughs expands nothing")
    func billionLaughs() throws {
        var declarations = "<!ENTITY lol0 \"lol\">"
        for level in 1...9 {
            let previous = String(repeating: "&lol\(level - 1);", count: 10)
            declarations += "<!ENTITY lol\(level) \"\(previous)\">"
        }
        let document =
            "<?xml version=\"1.0\"?><!DOCTYPE rss [\(declarations)]><rss version=\"2.0\"><channel><title>L&lol9;</title><item><guid>1</guid><title>&lol9;&lol9;</title></item></channel></rss>"
        let document2 = try FeedParser.parse(Array(document.utf8), url: feedURL)
        // Expanded, the three references would be 3 × 10^9 × "lol". What is left: the feed
        // (< 1 000 bytes) and one "not expanded" warning per reference (3 × < 200 bytes).
        #expect(document2.jsonString(pretty: false).utf8.count < 1600)
        guard case .feed(let feed) = document2 else {
            Issue.record("expected a feed, got \(document2)")
            return
        }
        #expect(feed.title == "L")
        #expect(feed.warnings.count == 3)
        #expect(feed.warnings.allSatisfy { $0.message == "entity &lol9; declared by the document not expanded" })
        // Declared entities are well-formed XML; homefeed just never expands them.
        #expect(feed.isWellFormed)
    }

    @Test("quadratic blow-up: one 100 KB entity referenced 50 000 times stays small")
    func quadraticBlowUp() throws {
        let big = String(repeating: "A", count: 100_000)
        let references = String(repeating: "&q;", count: 50_000)
        let document =
            "<?xml version=\"1.0\"?><!DOCTYPE rss [<!ENTITY q \"\(big)\">]><rss version=\"2.0\"><channel><title>Q</title><item><guid>1</guid><description>\(references)</description></item></channel></rss>"
        let feed = try parseFeed(document)
        #expect(feed.title == "Q")
        #expect(feed.entries.first?.summary == nil)
    }

    @Test("deep nesting stops at the depth limit", arguments: [300, 100_000])
    func deepNesting(_ depth: Int) throws {
        let document =
            "<rss version=\"2.0\"><channel>" + String(repeating: "<x>", count: depth)
            + String(repeating: "</x>", count: depth) + "</channel></rss>"
        let error = try #require(parseError(Array(document.utf8)))
        #expect(error.kind == .limitExceeded(.depth))
        #expect(error.line == 1)
        #expect(error.description.hasPrefix("https://example.test/feed.xml:1:"))
    }

    @Test("huge text stops at the per-field limit")
    func hugeText() throws {
        let document =
            "<rss version=\"2.0\"><channel><item><guid>1</guid><description>"
            + String(repeating: "가나다라", count: 1_000_000) + "</description></item></channel></rss>"
        let error = try #require(parseError(Array(document.utf8)))
        #expect(error.kind == .limitExceeded(.fieldBytes))
    }

    @Test("total text stops at the per-document limit")
    func totalText() throws {
        let items = String(
            repeating: "<item><description>" + String(repeating: "x", count: 1000) + "</description></item>",
            count: 50
        )
        let limits = FeedParseLimits(maxTotalTextBytes: 20_000)
        let error = try #require(parseError(Array(rss(items).utf8), limits: limits))
        #expect(error.kind == .limitExceeded(.totalTextBytes))
    }

    @Test("the spaces block elements stand for count against the text limits")
    func blockSpaces() throws {
        // 3 000 <br/>: 3 000 spaces in one field, past a field limit of 1 000 bytes.
        let breaks = rss(
            "<item><guid>1</guid><description>" + String(repeating: "<br/>", count: 3000) + "</description></item>"
        )
        let field = parseError(Array(breaks.utf8), limits: FeedParseLimits(maxFieldBytes: 1000))
        #expect(field?.kind == .limitExceeded(.fieldBytes))
        // 50 fields of 300 paragraphs (600 spaces each, opening and closing): 30 000 in all.
        let items = (0..<50).map {
            "<item><guid>\($0)</guid><description>\(String(repeating: "<p></p>", count: 300))</description></item>"
        }
        let total = parseError(Array(rss(items.joined()).utf8), limits: FeedParseLimits(maxTotalTextBytes: 10_000))
        #expect(total?.kind == .limitExceeded(.totalTextBytes))
    }

    @Test("attribute values count against the text limits like element text")
    func attributeText() throws {
        let long = String(repeating: "x", count: 2000)
        // One value past the field limit: the element is read without its attributes (review
        // finding: it failed the whole feed, though no link policy keeps a 1 MiB `data:` URL).
        let field = try parseFeed(
            rss("<item><guid>1</guid><title>T</title><enclosure url=\"https://example.test/\(long)\"/></item>"),
            limits: FeedParseLimits(maxFieldBytes: 1000)
        )
        #expect(field.entries.first?.title == "T")
        #expect(field.entries.first?.enclosures.isEmpty == true)
        #expect(
            field.warnings.map(\.message).contains(
                "an attribute value exceeds 1000 bytes: the element's attributes are ignored"
            )
        )
        // 50 enclosures of 500-byte URLs and types: no element text at all.
        let items = (0..<50).map {
            "<item><guid>\($0)</guid><enclosure url=\"/\($0)\" type=\"\(String(repeating: "t", count: 500))\"/></item>"
        }
        let total = parseError(Array(rss(items.joined()).utf8), limits: FeedParseLimits(maxTotalTextBytes: 10_000))
        #expect(total?.kind == .limitExceeded(.totalTextBytes))
        // Markup inside a field keeps no attribute: an inline image of any size does not count.
        let inline =
            "<item><guid>1</guid><description><p>Hi <img src=\"data:image/png;base64,\(long)\"/></p></description></item>"
        let feed = try parseFeed(rss(inline), limits: FeedParseLimits(maxFieldBytes: 1000))
        #expect(feed.entries.first?.summary == "Hi")
    }

    @Test("an OPML outline's folder path counts against the document's text limit at every outline")
    func categoryText() throws {
        // Two folders of 1 000 characters around three feeds: 2 054 bytes of attribute values,
        // and 2 000 more of `categories` at each feed.
        let folder = String(repeating: "x", count: 1000)
        let leaves = String(repeating: #"<outline text="L" xmlUrl="https://e.test/f"/>"#, count: 3)
        let small = Array(
            (#"<opml version="2.0"><body><outline text="\#(folder)"><outline text="\#(folder)">"#
                + leaves + "</outline></outline></body></opml>").utf8
        )
        let within = try FeedParser.parse(small, url: feedURL, limits: FeedParseLimits(maxTotalTextBytes: 8054))
        guard case .opml(let opml) = within else {
            Issue.record("not OPML: \(within)")
            return
        }
        #expect(opml.outlines.map(\.categories) == Array(repeating: [folder, folder], count: 3))
        let past = parseError(small, limits: FeedParseLimits(maxTotalTextBytes: 8053))
        #expect(past?.kind == .limitExceeded(.totalTextBytes))
        // 95 folders of 1 000 characters around 1 000 feeds: a 135 KB list that made 95 MB of
        // `categories` (and several times that in memory) now stops at the default 16 MiB.
        let deep =
            String(repeating: #"<outline text="\#(folder)">"#, count: 95)
            + String(repeating: #"<outline text="L" xmlUrl="https://e.test/f"/>"#, count: 1000)
            + String(repeating: "</outline>", count: 95)
        let error = parseError(Array(#"<opml version="2.0"><body>\#(deep)</body></opml>"#.utf8))
        #expect(error?.kind == .limitExceeded(.totalTextBytes))
        #expect(error?.message == "text exceeds 16777216 bytes")
    }

    @Test("enclosures per entry are bounded: the first 64 different ones, in document order")
    func enclosuresPerEntry() throws {
        // 300 enclosures, each URL three times: without the bound 300 kept, de-duplicated by a
        // scan of the kept ones per enclosure.
        let enclosures = (0..<900).map { "<enclosure url=\"/e\($0 / 3)\" type=\"audio/mpeg\"/>" }
        let feed = try parseFeed(rss("<item><guid>1</guid>" + enclosures.joined() + "</item>"))
        let expected = (0..<FeedEnclosure.limitPerEntry).map { "https://example.test/e\($0)" }
        #expect(feed.entries.first?.enclosures.map(\.url) == expected)
        let attachments = (0..<900).map { #"{"url": "/e\#($0 / 3)"}"# }.joined(separator: ",")
        let json = try parseFeed(#"{"items": [{"id": "1", "attachments": [\#(attachments)]}]}"#)
        #expect(json.entries.first?.enclosures.map(\.url) == expected)
    }

    @Test("body size limit")
    func bodyLimit() throws {
        let body = Array(rss(String(repeating: "<item><guid>x</guid></item>", count: 1000)).utf8)
        let error = try #require(parseError(body, limits: FeedParseLimits(maxBodyBytes: 10_000)))
        #expect(error.kind == .limitExceeded(.bodyBytes))
        let json = Array(("{\"items\":[" + String(repeating: "{},", count: 10_000) + "{}]}").utf8)
        #expect(parseError(json, limits: FeedParseLimits(maxBodyBytes: 10_000))?.kind == .limitExceeded(.bodyBytes))
    }

    @Test("entry limit gives a bounded, truncated result")
    func entryLimit() throws {
        let body = rss((1...50).map { "<item><guid>\($0)</guid></item>" }.joined())
        let feed = try parseFeed(body, limits: FeedParseLimits(maxEntries: 10))
        #expect(feed.entries.map(\.id) == (1...10).map(String.init))
        #expect(feed.isTruncated)
        let json =
            "{\"version\":\"https://jsonfeed.org/version/1.1\",\"items\":["
            + (1...50).map { "{\"id\":\($0)}" }.joined(separator: ",") + "]}"
        let jsonFeed = try parseFeed(json, limits: FeedParseLimits(maxEntries: 10))
        #expect(jsonFeed.entries.count == 10)
        #expect(jsonFeed.isTruncated)
    }

    @Test(
        "a JSON Feed's items past the entry limit are never built: 1 000 000 items barely move the peak memory",
        .enabled(if: PeakMemory.isResettable, "needs /proc/self/clear_refs to reset VmHWM")
    )
    func jsonItemsPastTheLimit() throws {
        // 9 MB. Decoded whole before the entry limit applied, these took over 300 MB
        // (JSONDecoder's map of the document, then every item); read item by item, the parse
        // holds little more than its copies of the body.
        let body = Array(("{\"items\":[" + String(repeating: "{\"id\":1},", count: 1_000_000) + "{}]}").utf8)
        let (growth, feed) = PeakMemory.growth { try? parseFeed(body, limits: FeedParseLimits(maxEntries: 1)) }
        let parsed = try #require(feed)
        #expect(parsed.entries.map(\.id) == ["1"])
        #expect(parsed.isTruncated)
        #expect(parsed.warnings.map(\.message) == ["stopped after 1 items (the entry limit)"])
        #expect(growth < 96 * 1024, "the parse added \(growth) KiB to the peak")
    }

    @Test("a JSON Feed's text limits apply as each text is read, with its position")
    func jsonTextLimits() throws {
        let long = String(repeating: "x", count: 2000)
        let field = parseError(
            Array(#"{"items":[{"id":1},"#.utf8) + Array("\n{\"title\":\"\(long)\"}]}".utf8),
            limits: FeedParseLimits(maxFieldBytes: 1000)
        )
        #expect(field?.kind == .limitExceeded(.fieldBytes))
        #expect(field?.line == 2)
        let items = (0..<50).map { _ in "{\"summary\":\"\(String(repeating: "y", count: 500))\"}" }
        let total = parseError(
            Array("{\"items\":[\(items.joined(separator: ","))]}".utf8),
            limits: FeedParseLimits(maxTotalTextBytes: 10_000)
        )
        #expect(total?.kind == .limitExceeded(.totalTextBytes))
        // Ids, links and attachments count too, as an XML feed's guid, link and attributes do.
        let limits = FeedParseLimits(maxFieldBytes: 1000)
        for member in [#""id":"\#(long)""#, #""url":"/\#(long)""#, #""attachments":[{"url":"/\#(long)"}]"#] {
            let error = parseError(Array(#"{"items":[{\#(member)}]}"#.utf8), limits: limits)
            #expect(error?.kind == .limitExceeded(.fieldBytes), "\(member.prefix(20))")
        }
    }

    @Test("a JSON Feed is read against the parse's deadline")
    func jsonDeadline() throws {
        let body = Array(("{\"items\":[" + String(repeating: "{\"id\":1},", count: 5000) + "{}]}").utf8)
        let reader = JSONFeedReader(url: feedURL, limits: .default, deadline: .now - .seconds(1))
        do {
            _ = try reader.read(body)
            Issue.record("a passed deadline did not stop the JSON Feed")
        } catch {
            #expect(error.kind == .limitExceeded(.parseDuration))
        }
    }

    @Test("the wall-time limit stops the parse (a zero budget always trips it)")
    func timeLimit() throws {
        let body = Array(rss(String(repeating: "<item><guid>x</guid></item>", count: 2000)).utf8)
        let error = try #require(parseError(body, limits: FeedParseLimits(maxParseDuration: .zero)))
        #expect(error.kind == .limitExceeded(.parseDuration))
    }

    @Test("one huge push (over libxml2's 10 000 000-byte lookup limit) is split into chunks of at most 64 KiB")
    func hugeSinglePush() throws {
        let filler = "<ignored>" + String(repeating: "0123456789", count: 1_050_000) + "</ignored>"
        let body = Array(
            rss("<item><guid>1</guid><title>제목 &amp; more</title></item>" + filler + "<item><guid>2</guid></item>").utf8
        )
        #expect(body.count > 10_000_000)
        var limits = FeedParseLimits(maxBodyBytes: 64 << 20, chunkSize: 10_000_000)
        #expect(limits.chunkSize == 64 << 10)
        limits.chunkSize = 10_000_000  // the public var bypasses the initializer's clamp
        let feed = try parseFeed(body, limits: limits)
        #expect(feed.entries.map(\.id) == ["1", "2"])
        #expect(feed.entries.first?.title == "제목 & more")
    }
}
