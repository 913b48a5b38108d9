internal import CLibXML2

/// One document through libxml2's SAX2 push parser, configured as `feed-parsing.md` §5.2 says:
/// a zeroed handler with `XML_SAX2_MAGIC` and only our hooks (no default SAX2 tree building),
/// `RECOVER | NONET | NOERROR | NOWARNING`, never NOENT/DTDLOAD/DTDATTR/DTDVALID/HUGE/XINCLUDE,
/// an `entityDecl` that records nothing but the name, the HTML5 `getEntity`, a per-parse
/// `serror`, and ≤ 64 KiB chunks.
///
/// The body reaches libxml2 already decoded to valid UTF-8 (`InputDecoder`, hence also
/// `XML_PARSE_IGNORE_ENC`, so the declaration's `encoding` never converts it twice) and with
/// each bare `&` marked (`AmpersandRepair`).
///
/// libxml2's callbacks record their events (`SAXRecorder`), which reach the builder once
/// libxml2 returns from each chunk. Builder and recorder live in memory this parser owns; the
/// recorder is libxml2's userData, so a SAX event costs no retain and no dynamic exclusivity
/// check, as a class's stored properties would (issue 17).
///
/// Not Sendable: a parser context must not be shared between threads (§5.1).
final class XMLPushParser {
    private let builder: UnsafeMutablePointer<XMLFeedBuilder>
    /// For tests, which read the builder's state between chunks.
    var _builder: UnsafeMutablePointer<XMLFeedBuilder> { builder }
    private let recorder: UnsafeMutablePointer<SAXRecorder>
    private var context: xmlParserCtxtPtr?
    private var decoder: InputDecoder
    private var repair = AmpersandRepair()
    /// Warnings of the decoding (substituted bytes, encoding decisions).
    private var decoderWarnings = WarningLog()
    /// The first bytes, until there are four to create the parser context with.
    private var pending: [UInt8] = []
    /// Body bytes short of a whole chunk, not yet decoded (see ``append(_:)``).
    private var staged: [UInt8] = []
    private let chunkSize: Int
    private var isStopped = false

    /// - Parameters:
    ///   - contentType: the HTTP `Content-Type`; its `charset` wins over the XML declaration
    ///     for XML and text media types (RFC 7303 §3) but not over a byte-order mark.
    init(builder: consuming XMLFeedBuilder, contentType: ContentType?, chunkSize: Int) {
        LibXML2Setup.ensure()
        decoder = InputDecoder(contentType: contentType, documentURL: builder.documentURL)
        self.builder = .allocate(capacity: 1)
        self.builder.initialize(to: builder)
        recorder = .allocate(capacity: 1)
        recorder.initialize(to: SAXRecorder(builder: self.builder))
        // Clamped here too: `FeedParseLimits.chunkSize` is a public var that can bypass its init.
        self.chunkSize = max(1, min(chunkSize, 64 << 10))
    }

    deinit {
        if let context {
            if let document = context.pointee.myDoc { xmlFreeDoc(document) }
            xmlFreeParserCtxt(context)
        }
        recorder.deinitialize(count: 1)
        recorder.deallocate()
        builder.deinitialize(count: 1)
        builder.deallocate()
    }

    /// Decodes and parses the body in chunks of `chunkSize` at fixed offsets (the last one
    /// at ``finish()``), however `append` was called: bytes short of a chunk wait in
    /// ``staged``. The encoding fallback and libxml2's recovery look at the chunk at hand, so a
    /// document parses the same whether the network handed it over in one piece or in many
    /// (HomeFetch's fuzz target checks this), at the cost of one copy of bytes that come in
    /// smaller pieces, and of an error showing up to a chunk later.
    func append(_ input: UnsafeRawBufferPointer) throws(FeedParseError) {
        var offset = 0
        if !staged.isEmpty {
            offset = min(chunkSize - staged.count, input.count)
            staged.append(contentsOf: UnsafeRawBufferPointer(rebasing: input[0..<offset]))
            guard staged.count == chunkSize else { return }
            try decodeStaged()
        }
        while input.count - offset >= chunkSize && !isStopped {
            try decode(UnsafeRawBufferPointer(rebasing: input[offset..<(offset + chunkSize)]), isFinal: false)
            offset += chunkSize
        }
        if offset < input.count && !isStopped {
            if staged.capacity == 0 { staged.reserveCapacity(chunkSize) }
            staged.append(contentsOf: UnsafeRawBufferPointer(rebasing: input[offset...]))
        }
    }

    /// Decodes the staged bytes as one chunk and empties the stage, keeping its memory.
    private func decodeStaged() throws(FeedParseError) {
        defer { staged.removeAll(keepingCapacity: true) }
        var failure: FeedParseError?
        staged.withUnsafeBytes { bytes in
            do throws(FeedParseError) { try decode(bytes, isFinal: false) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    func finish() throws(FeedParseError) -> FeedDocument {
        if !isStopped && !staged.isEmpty { try decodeStaged() }
        if !isStopped {
            try decode(UnsafeRawBufferPointer(start: nil, count: 0), isFinal: true)
            repair.finish { feed($0) }
            if context == nil {
                // A body of fewer than four bytes.
                let body = pending
                pending = []
                createContext(firstBytes: body)
            }
            if let context, !isStopped {
                xmlParseChunk(context, nil, 0, 1)
                recorder.pointee.replay()
            }
        }
        builder.pointee.warnings.merge(decoderWarnings)
        return try builder.pointee.finish()
    }

    /// Bytes → UTF-8 (`InputDecoder`) → bare `&` marked (`AmpersandRepair`) → libxml2, with no
    /// copy of clean input on the way.
    private func decode(_ piece: UnsafeRawBufferPointer, isFinal: Bool) throws(FeedParseError) {
        do {
            // The decoder's own log: libxml2 reports to the builder's from inside `feed`.
            try decoder.process(piece, isFinal: isFinal, warnings: &decoderWarnings) { decoded in
                repair.process(decoded) { feed($0) }
            }
        } catch {
            isStopped = true
            throw error
        }
        if decoder.hasRecovered { builder.pointee.isWellFormed = false }
        if let error = builder.pointee.stopError { throw error }
    }

    /// Hands `bytes` to libxml2 in chunks of at most `chunkSize` (§5.2 step 4), after creating
    /// the context from the first four bytes.
    private func feed(_ bytes: UnsafeRawBufferPointer) {
        guard !isStopped, !bytes.isEmpty else { return }
        guard context != nil else {
            pending.append(contentsOf: bytes)
            guard pending.count >= 4 else { return }
            let body = pending
            pending = []
            createContext(firstBytes: Array(body[0..<4]))
            body.withUnsafeBytes { feed(UnsafeRawBufferPointer(rebasing: $0[4...])) }
            return
        }
        guard let context else { return }
        var start = 0
        while start < bytes.count && !isStopped {
            let end = min(start + chunkSize, bytes.count)
            let slice = UnsafeRawBufferPointer(rebasing: bytes[start..<end])
            _ = xmlParseChunk(context, slice.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(slice.count), 0)
            recorder.pointee.replay()
            start = end
            builder.pointee.checkDeadline()
            if builder.pointee.isStopped || builder.pointee.isTruncated { isStopped = true }
        }
    }

    private func createContext(firstBytes: [UInt8]) {
        var handler = SAXRecorder.handler()
        let user = UnsafeMutableRawPointer(recorder)
        let created = firstBytes.withUnsafeBufferPointer { bytes in
            builder.pointee.documentURL.withCString { url in
                bytes.withMemoryRebound(to: CChar.self) { chars in
                    xmlCreatePushParserCtxt(&handler, user, chars.baseAddress, Int32(chars.count), url)
                }
            }
        }
        guard let created else {
            builder.pointee.stopError = FeedParseError(
                kind: .malformedXML(code: 0),
                source: builder.pointee.documentURL,
                message: "libxml2 could not create a parser"
            )
            isStopped = true
            return
        }
        context = created
        recorder.pointee.context = created
        builder.pointee.context = created
        // IGNORE_ENC: the bytes are already UTF-8 (`InputDecoder`); the declaration's
        // `encoding` must not make libxml2 convert them again.
        let options =
            Int32(XML_PARSE_RECOVER.rawValue) | Int32(XML_PARSE_NONET.rawValue) | Int32(XML_PARSE_NOERROR.rawValue)
            | Int32(XML_PARSE_NOWARNING.rawValue) | Int32(XML_PARSE_IGNORE_ENC.rawValue)
        xmlCtxtUseOptions(created, options)
    }
}
