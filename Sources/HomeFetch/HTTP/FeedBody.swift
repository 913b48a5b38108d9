import HomeFeeds

/// The body consumer of a feed fetch: the bytes go to HomeFeeds' push parser as they arrive
/// and to the `<ttl>` sniffer, and every byte into a `ContentDigest`.
///
/// When the digest of the body last ingested is known, the bytes are held back instead (at
/// most the body cap, as the transfer counts them) until the body ends: an identical body is
/// then `unchanged` and never parsed. Past the old length a body cannot be identical, so the
/// held bytes go to the parser and the rest streams as usual.
///
/// Confined to the fetch loop's thread (`HTTPBodyConsumer`).
final class FeedBody: HTTPBodyConsumer {
    /// How a finished body turned out.
    enum Result {
        case parsed(FeedDocument)
        /// Byte-identical to the body of `knownDigest`.
        case unchanged
        case failed(FeedParseError)
    }

    private let limits: FeedParseLimits
    private let knownDigest: String?
    private let knownLength: Int?
    private var parser: FeedDocumentParser?
    private var held: [UInt8]?
    private(set) var sniffer = ChannelTTLSniffer()
    private(set) var digest = ContentDigest()

    /// - Parameter knownDigest: the digest of the body last ingested from this source.
    init(limits: FeedParseLimits, knownDigest: String?) {
        self.limits = limits
        self.knownDigest = knownDigest
        knownLength = knownDigest.flatMap(ContentDigest.length(of:))
    }

    func begin(_ head: HTTPResponseHead, url: String) -> FetchError.Kind? {
        parser = FeedDocumentParser(url: url, contentType: head.header("Content-Type"), limits: limits)
        if let knownLength {
            held = []
            held?.reserveCapacity(min(knownLength, limits.maxBodyBytes))
        }
        return nil
    }

    func consume(_ bytes: UnsafeRawBufferPointer) -> FetchError.Kind? {
        digest.append(bytes)
        sniffer.append(bytes)
        if held != nil {
            held?.append(contentsOf: bytes)
            guard let knownLength, digest.length > knownLength else { return nil }
            // Longer than the last body: changed. Parse what was held back, then stream.
            if let error = release() { return .parse(error) }
            return nil
        }
        return parse(bytes).map { .parse($0) }
    }

    /// The parsed document, or `unchanged`, once the whole body arrived.
    func finish() -> Result {
        guard let parser else {
            return .failed(FeedParseError(kind: .unsupportedFormat, source: "", message: "no body"))
        }
        if held != nil {
            if digest.value == knownDigest {
                held = nil
                self.parser = nil
                return .unchanged
            }
            if let error = release() { return .failed(error) }
        }
        self.parser = nil
        do throws(FeedParseError) {
            return .parsed(try parser.finish())
        } catch {
            return .failed(error)
        }
    }

    /// Feeds the held-back bytes to the parser and stops holding.
    private func release() -> FeedParseError? {
        guard let bytes = held else { return nil }
        held = nil
        return bytes.withUnsafeBytes { parse($0) }
    }

    private func parse(_ bytes: UnsafeRawBufferPointer) -> FeedParseError? {
        do throws(FeedParseError) {
            try parser?.append(bytes)
        } catch {
            return error
        }
        return nil
    }
}
