import HomeFeeds

/// One fuzz input run through what a fetch does with a server's response, as
/// `make fuzz FUZZ_TARGET=fetch` runs it, shared by the libFuzzer entry
/// (`Fuzz/FetchFuzzEntry.swift`) and the regression replay (HomeFetchTests'
/// `FuzzRegressionTests`), so a finding replays exactly as it was found.
///
/// Every server a source names reaches this code, with no libcurl in between but the
/// splitting into header lines and body pieces, which this does as libcurl would. After the
/// first byte (which picks the size of the body's pieces, which other digest to try and the
/// parser's chunk size), the input is a response: header lines up to the end of a final (non-1xx) head, as `HTTPTransfer` reads them
/// within `FetchLimits.maxHeaderBytes`, then the body. The head's values are read as a fetch
/// reads them (`Cache-Control`, `Retry-After`, the `Content-Type` the parser is made with), and
/// the body goes through `FeedBody` three times (whatever the status, where a fetch hands it
/// only a 2xx's body: the body is what is fuzzed):
///
/// - with no digest known: the document (or error) and the channel `ttl`;
/// - knowing this body's own digest: it must be `unchanged`, and the digest made chunk by chunk
///   must be the digest of the whole body;
/// - knowing another body's digest (shorter, longer, the same length but one byte off, or a
///   short unrelated one), so that the body is held back and released at a different point:
///   the result must be the first one's. A parse that depends on where the body was cut is a
///   bug, as is a held body that is lost.
package enum FetchFuzzInput {
    /// What one input did.
    package struct Outcome: Sendable {
        /// The final head's status (0 when no status line arrived).
        package var status = 0
        /// `Cache-Control`'s `max-age`, as the scheduler would read it.
        package var maxAge: Double?
        /// `Retry-After`, as the scheduler would read it.
        package var retryAfter: RetryAfter?
        /// Whether the body parsed into a document.
        package var parsed = false
        /// The channel `ttl` a fetch would report, in seconds.
        package var ttl: Double?
        /// The first way the runs disagreed: a bug, never an answer to bad input.
        package var disagreement: String?
    }

    /// Sizes of the pieces the body arrives in (libcurl hands over up to 16 KiB at once).
    static let pieceSizes = [1, 3, 7, 64, 4096, 65_536]
    /// The parser's chunk sizes: a body longer than a chunk is parsed while it streams in, and
    /// pieces that do not fill one are staged.
    static let parserChunkSizes = [5, 64, 4096, 65_536]
    /// The URL the response came from, the base of the document's relative links.
    static let url = "https://example.test/dir/feed.xml"
    /// The instant `Retry-After` delays are counted from (2026-12-01T00:00:00Z).
    static let now = 1_796_083_200.0

    /// Runs one input; nil for an empty one.
    package static func run(_ data: UnsafeRawBufferPointer) -> Outcome? {
        guard let selector = data.first else { return nil }
        let response = UnsafeRawBufferPointer(rebasing: data[1...])
        var outcome = Outcome()
        let (head, bodyStart) = readHead(response)
        outcome.status = head.status
        let info = HTTPExchange(
            requestedURL: url,
            finalURL: url,
            redirects: 0,
            isPermanentChain: true,
            head: head,
            bodyBytes: response.count - bodyStart
        ).responseInfo(head: head)
        outcome.maxAge = info.maxAge
        outcome.retryAfter = HTTPHeaderValues.retryAfter(head.header("Retry-After"))
        if let retryAfter = outcome.retryAfter {
            _ = retryAfter.delay(fromSecondsSince1970: now)
            _ = FetchError(url: url, kind: .httpStatus(503), retryAfter: retryAfter).description
        }
        let body = UnsafeRawBufferPointer(rebasing: response[bodyStart...])
        var limits = FuzzInput.limits
        limits.chunkSize = parserChunkSizes[Int(selector >> 5) % parserChunkSizes.count]
        let pieceSize = pieceSizes[Int(selector) % pieceSizes.count]
        let run = BodyRun(body: body, head: head, pieceSize: pieceSize, limits: limits)
        outcome.disagreement = check(run, other: Int(selector >> 3) % 4, &outcome)
        return outcome
    }

    /// The head as `HTTPTransfer.receiveHeader` reads it, line by line, and where the body starts
    /// (the end of the input when the head never ends or outgrows the limit).
    private static func readHead(_ response: UnsafeRawBufferPointer) -> (HTTPResponseHead, Int) {
        var head = HTTPResponseHead()
        let limit = FetchLimits().maxHeaderBytes
        var start = 0
        while start < response.count {
            var end = start
            while end < response.count, response[end] != UInt8(ascii: "\n") { end += 1 }
            end = min(end + 1, response.count)
            guard end <= limit else { break }
            let ended = head.read(line: UnsafeRawBufferPointer(rebasing: response[start..<end]))
            start = end
            if ended, !head.isInterim { return (head, start) }
        }
        return (head, response.count)
    }

    /// A body as one response hands it to a fetch's consumer.
    private struct BodyRun {
        var body: UnsafeRawBufferPointer
        var head: HTTPResponseHead
        var pieceSize: Int
        var limits: FeedParseLimits

        /// A `FeedBody` begun with `head` that was handed `body` in pieces, and what the fetch
        /// made of it: the failure that ended the transfer early (`endedEarly`), as
        /// `HTTPTransfer` ends it at the first, or else the finished body.
        func consume(knownDigest: String?) -> (consumer: FeedBody, document: Document, endedEarly: Bool) {
            let consumer = FeedBody(limits: limits, knownDigest: knownDigest)
            if let refusal = consumer.begin(head, url: url) { return (consumer, .failed(refusal), true) }
            var offset = 0
            while offset < body.count {
                let end = min(offset + pieceSize, body.count)
                if let failure = consumer.consume(UnsafeRawBufferPointer(rebasing: body[offset..<end])) {
                    return (consumer, .failed(failure), true)
                }
                offset = end
            }
            return (consumer, Document(consumer.finish()), false)
        }
    }

    /// The three runs of the body through `FeedBody`; the first disagreement, or nil.
    private static func check(_ run: BodyRun, other: Int, _ outcome: inout Outcome) -> String? {
        let (plain, streamed, endedEarly) = run.consume(knownDigest: nil)
        let digest = plain.digest.value
        var whole = ContentDigest()
        whole.append(run.body)
        // A transfer ended early has digested only what came before its end.
        if !endedEarly {
            guard whole.value == digest else { return "the body's digest is \(whole.value) whole, \(digest) in pieces" }
            guard ContentDigest.length(of: digest) == run.body.count else {
                return "\(digest) does not end in its length"
            }
        }
        if case .parsed(let parsed) = streamed {
            outcome.parsed = true
            outcome.ttl = LocalFileReader.ttl(parsed, plain.sniffer)
            var sniffer = ChannelTTLSniffer()
            sniffer.append(run.body)
            if sniffer.ttlSeconds != plain.sniffer.ttlSeconds {
                return "the ttl is \(String(describing: sniffer.ttlSeconds)) whole, "
                    + "\(String(describing: plain.sniffer.ttlSeconds)) in pieces"
            }
        }
        // A body refused at `begin` never reaches the digest (FeedBody refuses none today).
        if endedEarly, plain.digest.length == 0, !run.body.isEmpty { return nil }
        let same = run.consume(knownDigest: whole.value).document
        guard same == .unchanged else { return "a body with its own digest \(whole.value) gave \(same)" }
        let otherDigest = otherBodyDigest(run.body, kind: other)
        let held = run.consume(knownDigest: otherDigest).document
        guard held == streamed else { return "knowing \(otherDigest), the body gave \(held), knowing none \(streamed)" }
        return nil
    }

    /// The digest of a body other than `body`: one byte shorter, one longer, the same length
    /// with its last byte changed, or a short unrelated one (so holding stops early).
    private static func otherBodyDigest(_ body: UnsafeRawBufferPointer, kind: Int) -> String {
        var bytes = Array(body)
        switch kind {
        case 0 where !bytes.isEmpty: bytes.removeLast()
        case 1: bytes.append(UInt8(ascii: "\n"))
        case 2 where !bytes.isEmpty: bytes[bytes.count - 1] ^= 1
        default: bytes = Array("<rss>".utf8)
        }
        // Never the body itself (an empty one, or one that is the unrelated body).
        if bytes.elementsEqual(body) { bytes.append(0) }
        var digest = ContentDigest()
        bytes.withUnsafeBytes { digest.append($0) }
        return digest.value
    }

    /// What a body came to, comparable: `FeedBody.Result`, with `unchanged` as a value of its
    /// own and a parse that failed as the fetch reports it, whether the consumer ended the
    /// transfer early with it or `finish()` returned it.
    private enum Document: Equatable, CustomStringConvertible {
        case parsed(FeedDocument)
        case unchanged
        case failed(FetchError.Kind)

        init(_ result: FeedBody.Result) {
            switch result {
            case .parsed(let document): self = .parsed(document)
            case .unchanged: self = .unchanged
            case .failed(let error): self = .failed(.parse(error))
            }
        }

        var description: String {
            switch self {
            case .parsed(let document): return document.jsonString(pretty: false)
            case .unchanged: return "unchanged"
            case .failed(.parse(let error)): return error.description
            case .failed(let kind): return "\(kind)"
            }
        }
    }
}
