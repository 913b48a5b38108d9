// libFuzzer entry for HomeFeeds, compiled together with Sources/HomeFeeds into one module by
// `make fuzz` (never part of `swift build`/`swift test`). The first input byte picks a chunk
// size and an HTTP charset so the streaming paths (AmpersandRepair carries, encoding switches)
// are fuzzed too; the rest is the body.

private let charsets: [String?] = [nil, nil, "utf-8", "iso-8859-1", "windows-1252", "euc-kr", "utf-16", "x-bogus"]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data, size > 0 else { return 0 }
    let selector = Int(data[0])
    let body = UnsafeRawBufferPointer(start: data + 1, count: size - 1)
    let chunk = [1, 3, 7, 64, 4096, 65_536][selector % 6]
    var limits = FeedParseLimits(
        maxBodyBytes: 1 << 20,
        maxDepth: 64,
        maxFieldBytes: 64 << 10,
        maxTotalTextBytes: 256 << 10,
        maxEntries: 200
    )
    limits.chunkSize = 65_536
    let charset = charsets[(selector >> 3) % charsets.count]
    let parser = FeedDocumentParser(
        url: "https://example.test/dir/feed.xml",
        contentType: charset.map { "application/rss+xml; charset=\($0)" },
        limits: limits
    )
    do {
        var offset = 0
        while offset < body.count {
            let end = min(offset + chunk, body.count)
            try parser.append(UnsafeRawBufferPointer(rebasing: body[offset..<end]))
            offset = end
        }
        let document = try parser.finish()
        _ = document.jsonString(pretty: selector & 1 == 0)
    } catch {
        _ = error.description
        _ = error.jsonString()
    }
    // The text-level readers on their own, with the body as a string.
    let text = String(decoding: body, as: UTF8.self)
    _ = FeedTimestamp(parsing: text)
    var plain = PlainText()
    _ = plain.normalize(text, mode: .html)
    _ = URIReference.resolve(text, against: "https://example.test/a/b/c?q#f")
    return 0
}
