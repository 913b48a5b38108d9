/// Turns an XML body, as it arrives, into the valid UTF-8 libxml2 reads.
///
/// Holds back the first bytes until `EncodingSniffer` can decide the encoding, then decodes:
/// UTF-8 and windows-1252 in `UTF8Sanitizer`, everything else with `IconvConverter` followed by
/// the sanitizer. libxml2 is told to ignore the XML declaration's encoding
/// (`XML_PARSE_IGNORE_ENC`), so every decision is taken here, once, by the rules of
/// `EncodingSniffer`.
///
/// Not Sendable: one per document, on the thread that feeds it.
struct InputDecoder {
    private let contentType: ContentType?
    private let documentURL: String
    private var prefix: [UInt8] = []
    private var converter: IconvConverter?
    private var converted: [UInt8] = []
    private var sanitizer: UTF8Sanitizer?

    init(contentType: ContentType?, documentURL: String) {
        self.contentType = contentType
        self.documentURL = documentURL
    }

    /// True once any byte was replaced or the encoding fell back to windows-1252.
    var hasRecovered: Bool { sanitizer?.hasRecovered ?? false }

    /// Decodes the next bytes (`isFinal` with the last, possibly empty, piece) and passes the
    /// UTF-8 to `emit`.
    ///
    /// - Throws: `FeedParseError` of kind `unsupportedEncoding` for WHATWG's `replacement`
    ///   encoding (ISO-2022-KR and friends), or an iconv converter that cannot be opened.
    mutating func process(
        _ input: UnsafeRawBufferPointer,
        isFinal: Bool,
        warnings: inout WarningLog,
        emit: (UnsafeRawBufferPointer) -> Void
    ) throws(FeedParseError) {
        if sanitizer == nil {
            prefix.append(contentsOf: input)
            guard !EncodingSniffer.needsMoreBytes(prefix, isFinal: isFinal) else { return }
            try start(warnings: &warnings)
            let held = prefix
            prefix = []
            held.withUnsafeBytes { decode($0, isFinal: isFinal, warnings: &warnings, emit: emit) }
            return
        }
        decode(input, isFinal: isFinal, warnings: &warnings, emit: emit)
    }

    private mutating func start(warnings: inout WarningLog) throws(FeedParseError) {
        let decision = EncodingSniffer.decide(prefix, contentType: contentType, warnings: &warnings)
        prefix.removeFirst(min(decision.byteOrderMarkLength, prefix.count))
        switch decision.encoding {
        case .utf8:
            sanitizer = UTF8Sanitizer(.utf8(mayFallBack: decision.mayFallBack))
        case .windows1252:
            sanitizer = UTF8Sanitizer(.singleByte(.windows1252))
        case .xUserDefined:
            sanitizer = UTF8Sanitizer(.singleByte(.xUserDefined))
        case .replacement:
            throw FeedParseError(
                kind: .unsupportedEncoding(decision.name),
                source: documentURL,
                message: "the document's encoding maps to WHATWG's replacement encoding and is not read"
            )
        case .utf16, .utf32, .converted:
            guard let name = decision.encoding.iconvName,
                let converter = IconvConverter(iconvName: name, codeUnitSize: decision.encoding.codeUnitSize)
            else {
                throw FeedParseError(
                    kind: .unsupportedEncoding(decision.name),
                    source: documentURL,
                    message: "cannot convert from \(decision.name)"
                )
            }
            self.converter = converter
            sanitizer = UTF8Sanitizer(.converted(encoding: decision.name))
        }
    }

    private mutating func decode(
        _ input: UnsafeRawBufferPointer,
        isFinal: Bool,
        warnings: inout WarningLog,
        emit: (UnsafeRawBufferPointer) -> Void
    ) {
        if let converter {
            converted.removeAll(keepingCapacity: true)
            converter.convert(input, isFinal: isFinal, into: &converted)
            converted.withUnsafeBytes { sanitizer?.process($0, isFinal: isFinal, warnings: &warnings, emit: emit) }
        } else {
            sanitizer?.process(input, isFinal: isFinal, warnings: &warnings, emit: emit)
        }
    }
}
