extension String {
    /// A copy of `bytes`, which the caller knows to be valid UTF-8, made without validating
    /// them again (`String(decoding:as:)` checks every byte: about 6 instructions a byte of
    /// Hangul, some 4 % of a feed parse; issue 17).
    ///
    /// Only for bytes that come out of the XML parse: `UTF8Sanitizer` is the last step before
    /// libxml2, so everything libxml2 hands back (text, attribute values, entity replacements
    /// from the HTML5 table) is valid UTF-8, and the builder only cuts it at ASCII bytes. Debug
    /// builds (and so the tests) still validate, to catch a caller that breaks that rule.
    /// The String is flagged ASCII exactly when it is, as `String(decoding:as:)` would flag it.
    ///
    /// - Parameter isASCII: the caller already checked every byte is ASCII (a clean URL), so
    ///   the bytes are not even scanned for the flag.
    init(validUTF8 bytes: UnsafeBufferPointer<UInt8>, isASCII: Bool = false) {
        assert(String(validating: bytes, as: UTF8.self) != nil, "not valid UTF-8")
        assert(!isASCII || !bytes.contains(where: { $0 >= 0x80 }), "not ASCII")
        var span = UTF8Span(unchecked: bytes.span, isKnownASCII: isASCII)
        if !isASCII { _ = span.checkForASCII() }
        self.init(copying: span)
    }
}
