/// Parses one document as its bytes arrive, so a body can be parsed while it downloads
/// (`feed-parsing.md` §5.2 step 4).
///
/// The first non-whitespace byte decides the syntax: `{` is JSON Feed (read whole, at
/// `finish()`), anything else goes to libxml2 chunk by chunk. Limits on body size and time
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
            if buffered.isEmpty, let decision = Self.sniff(bytes, isFinal: false) {
                // The usual case: the first piece decides, and XML reaches libxml2 uncopied.
                try start(decision, with: bytes)
            } else {
                buffered.append(contentsOf: bytes)
                guard let decision = buffered.withUnsafeBytes({ Self.sniff($0, isFinal: false) }) else { return }
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
            guard let decision = buffered.withUnsafeBytes({ Self.sniff($0, isFinal: true) }) else {
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

    private enum Syntax {
        case xml, json
    }

    /// Looks at the first non-whitespace byte after an optional UTF-8 BOM, within the first
    /// ``sniffWindow`` bytes (whitespace to there is XML, however the bytes arrived). UTF-16
    /// and other NUL-bearing starts are XML (JSON Feed is UTF-8 only, RFC 8259 §8.1).
    private static func sniff(_ bytes: UnsafeRawBufferPointer, isFinal: Bool) -> Syntax? {
        // The start of a byte-order mark waits for the rest of it, however the body was cut.
        if !isFinal, bytes.count < 3, [0xEF, 0xBB, 0xBF].starts(with: bytes) { return nil }
        var index = 0
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        while index < min(bytes.count, sniffWindow) {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D:
                index += 1
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                return .json
            default:
                return .xml
            }
        }
        if bytes.count >= sniffWindow { return .xml }
        return nil
    }

    /// Bytes the syntax is sniffed in: a body whose first 4 KiB are whitespace is XML.
    private static let sniffWindow = 4096

    /// Starts on what sniffing held back.
    private func startBuffered(_ syntax: Syntax) throws(FeedParseError) {
        let body = buffered
        buffered = []
        var failure: FeedParseError?
        body.withUnsafeBytes { raw in
            do throws(FeedParseError) { try start(syntax, with: raw) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// Starts the syntax with the body's first bytes (`buffered` is empty).
    private func start(_ syntax: Syntax, with body: UnsafeRawBufferPointer) throws(FeedParseError) {
        switch syntax {
        case .json:
            state = .json
            buffered = Array(body)
        case .xml:
            let builder = XMLFeedBuilder(documentURL: url, limits: limits, deadline: deadline)
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
