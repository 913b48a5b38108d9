/// One fuzz input run through the parser as `make fuzz` runs it, shared by the libFuzzer entry
/// (`Fuzz/FuzzEntry.swift`) and the regression replay (`FuzzRegressionTests`), so a crasher
/// replays exactly as it was found.
///
/// The first byte picks the size of the pieces, the parser's own chunk size (mostly the same,
/// so that every carry across chunks is reached; sometimes not, so that pieces are staged
/// into chunks) and the HTTP charset, so the streaming paths (carries, encoding decisions) are
/// fuzzed too; the rest is the body. The document (or the error) is encoded as JSON, and the
/// text-level readers run on the body as a string. The other readers of fetched bytes take the
/// same body: a web page's head for its icons (`HTMLHeadParser`, libxml2's HTML parser,
/// appended in the same pieces, which it cuts again after a `>`) and a web app manifest.
package enum FuzzInput {
    static let charsets: [String?] = [nil, nil, "utf-8", "iso-8859-1", "windows-1252", "euc-kr", "utf-16", "x-bogus"]
    static let chunkSizes = [1, 3, 7, 64, 4096, 65_536]
    /// The parse limits of every fuzzed parse (HomeFetch's target too), lower than the
    /// defaults so that the fuzzer reaches them; each input picks the chunk size.
    package static let limits = FeedParseLimits(
        maxBodyBytes: 1 << 20,
        maxDepth: 64,
        maxFieldBytes: 64 << 10,
        maxTotalTextBytes: 256 << 10,
        maxEntries: 200
    )

    /// Runs one input.
    ///
    /// - Returns: the JSON output, or the error's one-line description; nil for an empty input.
    @discardableResult
    package static func run(_ data: UnsafeRawBufferPointer) -> String? {
        guard let first = data.first else { return nil }
        let selector = Int(first)
        let body = UnsafeRawBufferPointer(rebasing: data[1...])
        let chunk = chunkSizes[selector % chunkSizes.count]
        // The body as a download hands it over, to every reader of fetched bytes alike.
        let pieces = stride(from: 0, to: body.count, by: chunk).map {
            UnsafeRawBufferPointer(rebasing: body[$0..<min($0 + chunk, body.count)])
        }
        var limits = Self.limits
        // The parser cuts the body at multiples of its chunk size whatever the pieces.
        limits.chunkSize = [chunk, chunk, 5, 4096][selector >> 6]
        let charset = charsets[(selector >> 3) % charsets.count]
        let parser = FeedDocumentParser(
            url: "https://example.test/dir/feed.xml",
            contentType: charset.map { "application/rss+xml; charset=\($0)" },
            limits: limits
        )
        var result: String
        do throws(FeedParseError) {
            for piece in pieces { try parser.append(piece) }
            result = try parser.finish().jsonString(pretty: selector & 1 == 0)
        } catch {
            _ = error.jsonString()
            result = error.description
        }
        let head = HTMLHeadParser(url: "https://example.test/dir/page.html")
        for piece in pieces where !head.isFinished { head.append(piece) }
        _ = head.finish()
        _ = try? WebAppManifest.icons(Array(body), manifestURL: "https://example.test/app.webmanifest")
        let text = String(decoding: body, as: UTF8.self)
        _ = FeedTimestamp(parsing: text)
        var plain = PlainText()
        _ = plain.normalize(text, mode: .html)
        _ = URIReference.resolve(text, against: "https://example.test/a/b/c?q#f")
        return result
    }
}
