internal import CLibXML2

/// One document through libxml2's SAX2 push parser, configured as `feed-parsing.md` §5.2 says:
/// a zeroed handler with `XML_SAX2_MAGIC` and only our hooks (no default SAX2 tree building),
/// `RECOVER | NONET | NOERROR | NOWARNING`, never NOENT/DTDLOAD/DTDATTR/DTDVALID/HUGE/XINCLUDE,
/// a no-op `entityDecl`, the HTML5 `getEntity`, a per-parse `serror`, and ≤ 64 KiB chunks.
///
/// Not Sendable: a parser context must not be shared between threads (§5.1).
final class XMLPushParser {
    let builder: XMLFeedBuilder
    private var context: xmlParserCtxtPtr?
    private var repair: AmpersandRepair?
    private var pending: [UInt8] = []
    private let charset: String?
    private let chunkSize: Int
    private var isStopped = false

    /// - Parameters:
    ///   - charset: the HTTP `charset`, which wins over the XML declaration (RFC 7303 §3.2) but
    ///     not over a byte-order mark.
    ///   - firstBytes: the start of the body, used to tell ASCII-compatible encodings from UTF-16.
    init(builder: XMLFeedBuilder, charset: String?, firstBytes: UnsafeRawBufferPointer, chunkSize: Int) {
        LibXML2Setup.ensure()
        self.builder = builder
        // Clamped here too: `FeedParseLimits.chunkSize` is a public var that can bypass its init.
        self.chunkSize = max(1, min(chunkSize, 64 << 10))
        let hasBOM = Self.hasByteOrderMark(firstBytes)
        self.charset = hasBOM ? nil : charset
        if Self.isASCIICompatible(firstBytes, charset: self.charset) { repair = AmpersandRepair() }
        pending.reserveCapacity(chunkSize + 256)
    }

    deinit {
        if let context {
            if let document = context.pointee.myDoc { xmlFreeDoc(document) }
            xmlFreeParserCtxt(context)
        }
    }

    func append(_ input: UnsafeRawBufferPointer) throws(FeedParseError) {
        var offset = 0
        while offset < input.count && !isStopped {
            let end = min(offset + chunkSize, input.count)
            let piece = UnsafeRawBufferPointer(rebasing: input[offset..<end])
            if repair != nil {
                repair?.process(piece, into: &pending)
            } else {
                pending.append(contentsOf: piece)
            }
            try flush(isFinal: false)
            offset = end
        }
    }

    func finish() throws(FeedParseError) -> FeedDocument {
        if !isStopped {
            repair?.finish(into: &pending)
            try flush(isFinal: true)
            if let context, !isStopped { xmlParseChunk(context, nil, 0, 1) }
        }
        return try builder.finish()
    }

    private func flush(isFinal: Bool) throws(FeedParseError) {
        var start = 0
        if context == nil {
            guard pending.count >= 4 || isFinal else { return }
            start = min(4, pending.count)
            try createContext(firstBytes: Array(pending[0..<start]))
        }
        guard let context else { return }
        while start < pending.count && !isStopped {
            let end = min(start + chunkSize, pending.count)
            pending.withUnsafeBufferPointer { buffer in
                let slice = UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(buffer)[start..<end])
                _ = xmlParseChunk(
                    context,
                    slice.baseAddress?.assumingMemoryBound(to: CChar.self),
                    Int32(slice.count),
                    0
                )
            }
            start = end
            builder.checkDeadline()
            if builder.stopError != nil || builder.isTruncated { isStopped = true }
        }
        pending.removeAll(keepingCapacity: true)
        if let error = builder.stopError { throw error }
    }

    private func createContext(firstBytes: [UInt8]) throws(FeedParseError) {
        var handler = xmlSAXHandler()
        handler.initialized = UInt32(XML_SAX2_MAGIC)
        handler.startElementNs = onStartElement
        handler.endElementNs = onEndElement
        handler.characters = onCharacters
        handler.cdataBlock = onCharacters
        handler.ignorableWhitespace = onCharacters
        handler.entityDecl = onEntityDecl
        handler.getEntity = onGetEntity
        handler.serror = onError
        let user = Unmanaged.passUnretained(builder).toOpaque()
        let created = firstBytes.withUnsafeBufferPointer { bytes in
            builder.documentURL.withCString { url in
                bytes.withMemoryRebound(to: CChar.self) { chars in
                    xmlCreatePushParserCtxt(&handler, user, chars.baseAddress, Int32(chars.count), url)
                }
            }
        }
        guard let created else {
            throw FeedParseError(
                kind: .malformedXML(code: 0),
                source: builder.documentURL,
                message: "libxml2 could not create a parser"
            )
        }
        context = created
        builder.context = created
        let options =
            Int32(XML_PARSE_RECOVER.rawValue) | Int32(XML_PARSE_NONET.rawValue) | Int32(XML_PARSE_NOERROR.rawValue)
            | Int32(XML_PARSE_NOWARNING.rawValue)
        xmlCtxtUseOptions(created, options)
        if let charset, let handler = xmlFindCharEncodingHandler(charset) {
            xmlSwitchToEncoding(created, handler)
        }
    }

    /// UTF-8, UTF-16 or UTF-32 byte-order mark at the start.
    static func hasByteOrderMark(_ bytes: UnsafeRawBufferPointer) -> Bool {
        if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { return true }
        if bytes.count >= 2 && ((bytes[0] == 0xFE && bytes[1] == 0xFF) || (bytes[0] == 0xFF && bytes[1] == 0xFE)) {
            return true
        }
        return false
    }

    /// False for UTF-16/32 (by BOM, by NUL bytes in the first characters, or by charset), where
    /// the byte 0x26 is not necessarily `&` and `AmpersandRepair` must stay off.
    static func isASCIICompatible(_ bytes: UnsafeRawBufferPointer, charset: String?) -> Bool {
        if bytes.count >= 2 && ((bytes[0] == 0xFE && bytes[1] == 0xFF) || (bytes[0] == 0xFF && bytes[1] == 0xFE)) {
            return false
        }
        if bytes.prefix(4).contains(0) { return false }
        if let charset {
            let lower = charset.lowercased()
            if lower.contains("16") || lower.contains("32") || lower.hasPrefix("ucs") { return false }
        }
        return true
    }
}

// MARK: - C callbacks (no captures; the builder arrives as libxml2's userData)

/// Calls `body` with the builder behind libxml2's userData without a retain/release pair per
/// event: the `XMLPushParser` owns the builder for the whole parse.
@inline(__always)
private func withBuilder(_ context: UnsafeMutableRawPointer?, _ body: (XMLFeedBuilder) -> Void) {
    guard let context else { return }
    Unmanaged<XMLFeedBuilder>.fromOpaque(context)._withUnsafeGuaranteedRef(body)
}

private let onStartElement: startElementNsSAX2Func = {
    context,
    localName,
    _,
    uri,
    _,
    _,
    attributeCount,
    _,
    attributes in
    guard let localName else { return }
    withBuilder(context) {
        $0.startElement(
            name: localName,
            namespace: uri,
            attributes: XMLAttributes(base: attributes, count: Int(max(0, attributeCount)))
        )
    }
}

private let onEndElement: endElementNsSAX2Func = { context, _, _, _ in
    withBuilder(context) { $0.endElement() }
}

private let onCharacters: charactersSAXFunc = { context, bytes, count in
    guard let bytes, count > 0 else { return }
    withBuilder(context) { $0.characters(bytes, count: Int(count)) }
}

/// Entity declarations in the document are never recorded (§5.2).
private let onEntityDecl: entityDeclSAXFunc = { _, _, _, _, _, _ in }

private let onGetEntity: getEntitySAXFunc = { _, name in
    guard let name else { return EntityCache.shared.empty }
    return EntityCache.shared.entity(named: name)
}

private let onError: xmlStructuredErrorFunc = { context, error in
    guard let error else { return }
    withBuilder(context) { $0.record(error) }
}
