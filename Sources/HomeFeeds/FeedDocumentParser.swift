/// Parses one document as its bytes arrive, so a body can be parsed while it downloads
/// (`feed-parsing.md` §5.2 step 4).
///
/// The `Content-Type` and the first bytes decide the syntax (`DocumentSyntax`): JSON Feed is
/// read whole, at `finish()`; anything else goes to libxml2 chunk by chunk. Limits on body size and time
/// are checked on every `append`.
///
/// Not Sendable: one parser per document, used from one thread at a time (a libxml2 parser
/// context must not be shared between threads, §5.1).
public final class FeedDocumentParser {
    private enum State {
        case sniffing
        case xml(XMLPushParser)
        case json
        case finished
    }

    private let url: String
    private let contentType: ContentType?
    private let limits: FeedParseLimits
    private let deadline: ContinuousClock.Instant
    private var state = State.sniffing
    private var buffered: [UInt8] = []
    private var bodyBytes = 0

    /// - Parameters:
    ///   - url: the feed URL, the base for relative links and the `source` of errors.
    ///   - contentType: the HTTP `Content-Type`, if any.
    ///   - limits: resource limits; the wall-time limit starts counting now.
    public init(url: String, contentType: String? = nil, limits: FeedParseLimits = .default) {
        self.url = url
        self.contentType = contentType.map(ContentType.init)
        self.limits = limits
        deadline = ContinuousClock.now.advanced(by: limits.maxParseDuration)
    }

    /// Feeds the next bytes of the body.
    ///
    /// - Throws: `FeedParseError` once a limit is exceeded or the root element shows the
    ///   document is no feed: the body cap and the parse time at once, the rest when the chunk
    ///   that shows it is parsed (XML is parsed in whole chunks of `FeedParseLimits.chunkSize`
    ///   at fixed offsets, so up to a chunk later; otherwise at ``finish()``). The parser is
    ///   unusable afterwards.
    public func append(_ bytes: [UInt8]) throws(FeedParseError) {
        var failure: FeedParseError?
        bytes.withUnsafeBytes { raw in
            do throws(FeedParseError) { try append(raw) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// Feeds the next bytes of the body from a raw buffer (no copy for XML).
    public func append(_ bytes: UnsafeRawBufferPointer) throws(FeedParseError) {
        bodyBytes += bytes.count
        if bodyBytes > limits.maxBodyBytes {
            state = .finished
            throw FeedParseError(
                kind: .limitExceeded(.bodyBytes),
                source: url,
                message: "body exceeds \(limits.maxBodyBytes) bytes"
            )
        }
        switch state {
        case .sniffing:
            if buffered.isEmpty, let decision = DocumentSyntax.sniff(bytes, isFinal: false, contentType: contentType) {
                // The usual case: the first piece decides, and XML reaches libxml2 uncopied.
                try start(decision, with: bytes)
            } else {
                buffered.append(contentsOf: bytes)
                guard
                    let decision = buffered.withUnsafeBytes({
                        DocumentSyntax.sniff($0, isFinal: false, contentType: contentType)
                    })
                else { return }
                try startBuffered(decision)
            }
        case .xml(let parser):
            try run { () throws(FeedParseError) in try parser.append(bytes) }
        case .json:
            buffered.append(contentsOf: bytes)
        case .finished:
            return
        }
        if ContinuousClock.now >= deadline {
            state = .finished
            throw FeedParseError(
                kind: .limitExceeded(.parseDuration),
                source: url,
                message: "parse took longer than \(limits.maxParseDuration)"
            )
        }
    }

    /// Ends the body and returns the document.
    public func finish() throws(FeedParseError) -> FeedDocument {
        if case .sniffing = state {
            guard
                let decision = buffered.withUnsafeBytes({
                    DocumentSyntax.sniff($0, isFinal: true, contentType: contentType)
                })
            else {
                state = .finished
                throw FeedParseError(kind: .empty, source: url, message: "empty document")
            }
            try startBuffered(decision)
        }
        switch state {
        case .xml(let parser):
            state = .finished
            return try parser.finish()
        case .json:
            state = .finished
            let body = buffered
            buffered = []
            return try JSONFeedReader(url: url, limits: limits, deadline: deadline).read(body)
        case .sniffing, .finished:
            throw FeedParseError(kind: .empty, source: url, message: "parser already finished")
        }
    }

    /// Starts on what sniffing held back.
    private func startBuffered(_ syntax: DocumentSyntax) throws(FeedParseError) {
        let body = buffered
        buffered = []
        var failure: FeedParseError?
        body.withUnsafeBytes { raw in
            do throws(FeedParseError) { try start(syntax, with: raw) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// Starts the syntax with the body's first bytes (`buffered` is empty).
    private func start(_ syntax: DocumentSyntax, with body: UnsafeRawBufferPointer) throws(FeedParseError) {
        switch syntax {
        case .json:
            state = .json
            buffered = Array(body)
        case .xml:
            var builder = XMLFeedBuilder(documentURL: url, limits: limits, deadline: deadline)
            if let contentType, contentType.isJSON {
                builder.warnings.add(
                    line: nil,
                    column: nil,
                    "served as \(contentType.mediaType) but is XML: read as XML"
                )
            }
            let parser = XMLPushParser(builder: builder, contentType: contentType, chunkSize: limits.chunkSize)
            state = .xml(parser)
            do {
                try parser.append(body)
            } catch {
                state = .finished
                throw error
            }
        }
    }

    private func run(_ body: () throws(FeedParseError) -> Void) throws(FeedParseError) {
        do {
            try body()
        } catch {
            state = .finished
            throw error
        }
    }
}

/// One parser per document, confined to the thread that feeds it (libxml2 contexts are not
/// thread-safe, `feed-parsing.md` §5.1).
@available(*, unavailable)
extension FeedDocumentParser: Sendable {}
