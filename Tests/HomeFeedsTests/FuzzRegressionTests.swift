import Testing

@testable import HomeFeeds

/// Replays every input under `Fixtures/fuzz/` exactly as `Fuzz/FuzzEntry.swift` runs it: the
/// first byte picks the chunk size and the HTTP charset, the rest is the body. A crasher found
/// by `make fuzz` is added here so it can never come back.
@Suite struct FuzzRegressionTests {
    static let charsets: [String?] = [nil, nil, "utf-8", "iso-8859-1", "windows-1252", "euc-kr", "utf-16", "x-bogus"]

    @Test("fuzz inputs parse or fail cleanly", arguments: Fixture.names(in: "fuzz"))
    func replay(_ name: String) throws {
        let data = try Fixture.bytes("fuzz/" + name)
        guard let selector = data.first.map(Int.init) else { return }
        let body = Array(data.dropFirst())
        let chunk = [1, 3, 7, 64, 4096, 65_536][selector % 6]
        let limits = FeedParseLimits(
            maxBodyBytes: 1 << 20,
            maxDepth: 64,
            maxFieldBytes: 64 << 10,
            maxTotalTextBytes: 256 << 10,
            maxEntries: 200
        )
        let charset = Self.charsets[(selector >> 3) % Self.charsets.count]
        let parser = FeedDocumentParser(
            url: "https://example.test/dir/feed.xml",
            contentType: charset.map { "application/rss+xml; charset=\($0)" },
            limits: limits
        )
        do {
            var offset = 0
            while offset < body.count {
                let end = min(offset + chunk, body.count)
                try parser.append(Array(body[offset..<end]))
                offset = end
            }
            _ = try parser.finish().jsonString()
        } catch {
            #expect(!error.description.isEmpty)
        }
        let text = String(decoding: body, as: UTF8.self)
        _ = FeedTimestamp(parsing: text)
        var plain = PlainText()
        _ = plain.normalize(text, mode: .html)
        _ = URIReference.resolve(text, against: "https://example.test/a/b/c?q#f")
    }
}
