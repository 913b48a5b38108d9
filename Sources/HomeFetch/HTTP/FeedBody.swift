import HomeFeeds

/// The body consumer of a feed fetch: the bytes go to HomeFeeds' push parser as they arrive,
/// and to the `<ttl>` sniffer.
///
/// Confined to the fetch loop's thread (`HTTPBodyConsumer`).
final class FeedBody: HTTPBodyConsumer {
    private let limits: FeedParseLimits
    private var parser: FeedDocumentParser?
    private(set) var sniffer = ChannelTTLSniffer()

    init(limits: FeedParseLimits) {
        self.limits = limits
    }

    func begin(_ head: HTTPResponseHead, url: String) -> FetchError.Kind? {
        parser = FeedDocumentParser(url: url, contentType: head.header("Content-Type"), limits: limits)
        return nil
    }

    func consume(_ bytes: UnsafeRawBufferPointer) -> FetchError.Kind? {
        guard let parser else { return nil }
        sniffer.append(bytes)
        do throws(FeedParseError) {
            try parser.append(bytes)
        } catch {
            return .parse(error)
        }
        return nil
    }

    /// The parsed document, once the whole body arrived.
    func finish() -> Result<FeedDocument, FeedParseError> {
        guard let parser else {
            return .failure(FeedParseError(kind: .unsupportedFormat, source: "", message: "no body"))
        }
        self.parser = nil
        do throws(FeedParseError) {
            return .success(try parser.finish())
        } catch {
            return .failure(error)
        }
    }
}
