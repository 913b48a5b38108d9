import Testing

@testable import HomeFeeds

/// libxml2's events are recorded while it parses a chunk and read by the builder afterwards
/// (`SAXRecorder`): the result, the warnings and their positions are those of reading each
/// event as it comes.
@Suite struct SAXReplayTests {
    @Test("events after the entry limit are dropped, as when libxml2 stopped at it")
    func entryLimitDropsLaterEvents() throws {
        // One chunk holds all six items; libxml2 reports them all before the builder reads any.
        let items = (1...6).map { "<item><guid>g\($0)</guid><title>t\($0)\($0 == 4 ? " &bogus;" : "")</title></item>" }
        let feed = try parseFeed(rss(items.joined(separator: "\n")), limits: FeedParseLimits(maxEntries: 2))
        #expect(feed.entries.map(\.title) == ["t1", "t2"])
        #expect(feed.isTruncated)
        // Item 4's undefined entity comes after the limit: no warning for it.
        #expect(!feed.warnings.contains { $0.message.contains("bogus") })
    }

    @Test("a limit stops at the position of the event that passed it, not where the chunk ends")
    func stopPosition() throws {
        // Line 1 opens rss and channel; line k + 1 holds the k-th <x>. Before the k-th <x> the
        // stack holds 2 + (k - 1) elements, so the 99th reaches maxDepth 100: line 100. The
        // document goes on to line 201 in the same chunk.
        let document =
            "<rss version=\"2.0\"><channel>\n" + String(repeating: "<x>\n", count: 200)
            + String(repeating: "</x>", count: 200) + "</channel></rss>"
        let error = try #require(parseError(Array(document.utf8)))
        #expect(error.kind == .limitExceeded(.depth))
        #expect(error.line == 100)
    }

    @Test("a warning carries the line libxml2 was reading when it reported it")
    func warningPosition() throws {
        // rss() puts the XML declaration on line 1 and <rss><channel> on line 2; the items
        // start with a line feed, so the second item is on line 4.
        let items =
            "\n<item><guid>a</guid></item>\n<item><guid>b</guid><title>x &bogus; y</title></item>"
            + String(repeating: "\n<item><guid>c</guid></item>", count: 50)
        let feed = try parseFeed(rss(items))
        let warning = try #require(feed.warnings.first { $0.message.contains("&bogus;") })
        #expect(warning.line == 4)
        #expect((warning.column ?? 0) > 0)
    }

    @Test("more events than the tape holds are read in turns, with the same result")
    func tapeFillsWithinAChunk() throws {
        // 3 000 × "<b>w</b> " is 4 events each, 12 000 in all, in one 64 KiB chunk: three
        // times the tape's 4 096.
        let summary = String(repeating: "<b>w</b> ", count: 3000)
        let body = Array(rss("<item><guid>a</guid><description>\(summary)</description></item>").utf8)
        let whole = try parseFeed(body)
        #expect(whole.entries.first?.summary == Array(repeating: "w", count: 3000).joined(separator: " "))
        // Seven-byte chunks: the tape is read after every chunk, never full.
        #expect(try parseFeed(body, limits: FeedParseLimits(chunkSize: 7)) == whole)
    }

    @Test("text longer than the tape copies is read where it is, after the events before it")
    func longTextReadInPlace() throws {
        // libxml2 hands a CDATA section found whole in a chunk to one callback: 40 000 bytes,
        // over the 16 KiB the tape copies. The title and the description's start, recorded
        // before it, must reach the builder first, or the text would find no field open.
        let text = String(repeating: "abcd", count: 10_000)
        let item =
            "<item><guid>a</guid><title>T</title><description><![CDATA[\(text)]]></description>"
            + "<pubDate>Tue, 01 Dec 2026 09:00:00 +0000</pubDate></item>"
        let entry = try #require(try parseFeed(rss(item)).entries.first)
        #expect(entry.title == "T")
        #expect(entry.summary?.utf8.count == 40_000)
        #expect(entry.published != nil)
    }
}

/// Text no one reads, directly inside the document and entry containers, is not recorded
/// (`XMLName.isTextFreeContainer`); text anywhere under another element is, whatever the names
/// nested below it.
@Suite struct SAXRecorderContainerTextTests {
    @Test("the whitespace between an item's fields is not recorded; the text of its fields is")
    func containerTextSkipped() {
        var counts: [Int] = []
        withRecorder { recorder, _ in
            recorder.start("rss")
            recorder.start("channel")
            recorder.start("item")
            recorder.text("\n  ")  // between an item's fields: skipped
            counts.append(recorder.pendingEvents)  // 3 starts
            recorder.start("title")
            recorder.text("A ")  // in the title: recorded
            recorder.start("b")
            recorder.start("item")  // an `item` inside the title's markup: its text is the title's
            recorder.text("B")
            counts.append(recorder.pendingEvents)  // 6 starts, 2 texts
            for _ in 0..<3 { recorder.endElement() }  // item, b, title
            recorder.text("\n")  // back in the item: skipped again
            counts.append(recorder.pendingEvents)  // and 3 ends
        }
        #expect(counts == [3, 8, 11])
    }

    @Test("text under a field keeps its words when the markup inside it uses container names")
    func containerNamesInsideAField() throws {
        let entry =
            "<entry><id>urn:a</id><title>T</title><content type=\"xhtml\">"
            + "<div xmlns=\"http://www.w3.org/1999/xhtml\">Hello <item>big</item> <body>wide</body> "
            + "<feed>world</feed></div></content></entry>"
        let feed = try parseFeed(atom(entry))
        #expect(feed.entries.first?.summary == "Hello big wide world")
    }

    @Test("stray text between an item's fields is read by no one, but an undefined entity in it is reported")
    func strayTextIgnored() throws {
        let items = "<item>stray<guid>g</guid> words <title>T</title>&amp; more &bogus; end</item>"
        let feed = try parseFeed(rss(items))
        let entry = try #require(feed.entries.first)
        #expect(entry.id == "g")
        #expect(entry.title == "T")
        #expect(entry.summary == nil)
        // The entity lookup is a callback of its own, recorded wherever it happens.
        #expect(feed.warnings.contains { $0.message.contains("&bogus;") })
    }
}

/// The tape itself: what it copies, how it merges text, and when it asks to be read.
@Suite struct SAXEventTapeTests {
    @Test("text right after text extends one event, with the position of its last piece")
    func textMerges() {
        var tape = SAXEventTape()
        for (index, piece) in ["A ", "&", " B"].enumerated() {
            record(piece, on: &tape, column: Int32(10 + index))
        }
        tape.recordEnd(line: 3, column: 20)
        record("C", on: &tape, column: 21)
        #expect(tape.events.count == 3)
        #expect(tape.events[0].kind == .text)
        #expect(tape.events[0].count == 5)
        #expect(tape.events[0].column == 12)
        #expect(tape.events[2].offset == 5)
        let recorded = Array(UnsafeBufferPointer(start: tape.bytes.baseAddress, count: tape.bytes.count))
        #expect(recorded == Array("A & BC".utf8))
    }

    private func record(_ text: String, on tape: inout SAXEventTape, column: Int32) {
        Array(text.utf8).withUnsafeBufferPointer { bytes in
            guard let base = bytes.baseAddress else { return }
            tape.recordText(base, count: bytes.count, line: 3, column: column)
        }
    }

    @Test("attribute values are copied, names kept")
    func attributeValuesCopied() {
        var tape = SAXEventTape()
        let name: StaticString = "url"
        var value = Array("https://a.test/".utf8)
        value.withUnsafeMutableBufferPointer { valueBytes in
            let start = UnsafePointer(valueBytes.baseAddress)
            var slots: [UnsafePointer<UInt8>?] = [name.utf8Start, nil, nil, start, start.map { $0 + valueBytes.count }]
            slots.withUnsafeMutableBufferPointer {
                tape.recordStart(
                    name: name.utf8Start,
                    namespace: nil,
                    attributes: $0.baseAddress,
                    count: 1,
                    line: 1,
                    column: 1
                )
            }
            valueBytes[0] = UInt8(ascii: "X")  // libxml2 reuses its buffer after the callback
        }
        #expect(tape.events[0].count == 1)
        let attribute = tape.attributes[0]
        #expect(attribute.name == name.utf8Start)
        let copy = Array(
            UnsafeBufferPointer(start: tape.bytes.baseAddress + attribute.valueOffset, count: attribute.valueCount)
        )
        #expect(copy == Array("https://a.test/".utf8))
    }

    @Test("the tape asks to be read at its event limit, and forgets everything when cleared")
    func fullAndCleared() {
        var tape = SAXEventTape()
        for _ in 0..<(SAXEventTape.maxEvents - 1) { tape.recordEnd(line: 1, column: 1) }
        let fullBefore = tape.isFull
        tape.recordEnd(line: 1, column: 1)
        let fullAtLimit = tape.isFull
        record("x", on: &tape, column: 1)
        tape.removeAll()
        let (empty, fullAfter, bytes) = (tape.isEmpty, tape.isFull, tape.bytes.count)
        #expect(!fullBefore)
        #expect(fullAtLimit)
        #expect(empty && !fullAfter && bytes == 0)
    }
}

/// A tape that fills while libxml2 is inside a callback is read there; when that reading stops
/// the parse, libxml2 has freed the buffer the current event's text and attribute values point
/// into, so the event must be dropped, not copied.
@Suite struct SAXRecorderStopTests {
    @Test("an event whose callback read a full tape that stopped the parse is not recorded", arguments: [false, true])
    func eventAfterStopIsDropped(asText: Bool) {
        withRecorder { recorder, builder in
            // `x` (not RSS, RDF, Atom or OPML: the builder stops at it) is no text-free container,
            // so text inside it is recorded (at depth 0 it would not be). Two starts, then
            // start-end pairs, fill the tape to its limit exactly.
            recorder.start("x")
            recorder.start("x")
            for _ in 0..<(SAXEventTape.maxEvents - 2) / 2 {
                recorder.start("x")
                recorder.endElement()
            }
            #expect(recorder.pendingEvents == SAXEventTape.maxEvents)
            let stoppedBefore = builder.pointee.isStopped
            #expect(!stoppedBefore)  // nothing read yet: the tape is full, not read
            if asText {
                recorder.text("abc")
            } else {
                recorder.start("x")
            }
            let (stopped, pending) = (builder.pointee.isStopped, recorder.pendingEvents)
            #expect(stopped)
            #expect(pending == 0)
        }
    }

    @Test("the entry limit reached while a full tape is read mid-chunk truncates cleanly")
    func entryLimitWithFullTape() throws {
        // 1 200 items of 7 events each in one 64 KiB chunk: the tape fills at event 4 096,
        // within libxml2's parse, and the 101st item truncates while it is read.
        let items = (1...1200).map { "<item a=\"v\"><guid>\($0)</guid><x a=\"w\"/></item>" }.joined()
        let body = Array(("<rss version=\"2.0\"><channel>" + items + "</channel></rss>").utf8)
        #expect(body.count < 64 << 10)
        let feed = try parseFeed(body, limits: FeedParseLimits(maxEntries: 100))
        #expect(feed.isTruncated)
        #expect(feed.entries.map(\.id) == (1...100).map { "\($0)" })
    }
}

/// Calls `body` with a recorder over a fresh builder (default limits), and the builder; frees
/// both afterwards.
private func withRecorder(_ body: (inout SAXRecorder, UnsafeMutablePointer<XMLFeedBuilder>) -> Void) {
    let builder = UnsafeMutablePointer<XMLFeedBuilder>.allocate(capacity: 1)
    builder.initialize(to: XMLFeedBuilder(documentURL: feedURL, limits: .default, deadline: .now + .seconds(60)))
    defer {
        builder.deinitialize(count: 1)
        builder.deallocate()
    }
    var recorder = SAXRecorder(builder: builder)
    body(&recorder, builder)
}

extension SAXRecorder {
    /// A start event for `name`, with no namespace and no attributes (as libxml2 reports it).
    fileprivate mutating func start(_ name: StaticString) {
        startElement(name: name.utf8Start, namespace: nil, attributes: nil, count: 0)
    }

    /// A characters event for `string`'s UTF-8.
    fileprivate mutating func text(_ string: String) {
        Array(string.utf8).withUnsafeBufferPointer { bytes in
            guard let base = bytes.baseAddress else { return }
            characters(base, count: bytes.count)
        }
    }
}
