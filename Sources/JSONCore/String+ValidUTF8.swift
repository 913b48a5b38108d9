extension String {
    /// A copy of `bytes`, which the caller knows to be valid UTF-8, made without validating
    /// them again: `String(decoding:as:)` checks every byte, about 6 instructions a byte of
    /// Hangul (issue 17). Package-wide, for two kinds of bytes only: those `JSONScanner` has
    /// checked as it scanned them (or decoded from checked escapes), and the text out of
    /// HomeFeeds' XML parse while it has recovered from nothing (`UTF8Sanitizer` is the last
    /// step before libxml2, and the feed builder only cuts text at ASCII bytes; see
    /// `XMLFeedBuilder.isTextTrusted`; attribute values are always checked, see
    /// `XMLAttributes.decode`). Debug builds (and so the tests) still validate, to catch a caller
    /// that breaks the rule, and so does `make fuzz` (`HOMEFEED_FUZZING`), whose optimised build
    /// would otherwise make a broken String and trap, if at all, somewhere else.
    ///
    /// - Parameter isASCII: whether every byte is ASCII, when the caller knows (a clean URL, a
    ///   scanned JSON string); nil scans for it, so the String is flagged ASCII exactly when it
    ///   is, as `String(decoding:as:)` would flag it.
    @inlinable
    package init(validUTF8 bytes: UnsafeBufferPointer<UInt8>, isASCII: Bool? = nil) {
        #if HOMEFEED_FUZZING
            precondition(String(validating: bytes, as: UTF8.self) != nil, "not valid UTF-8")
        #else
            assert(String(validating: bytes, as: UTF8.self) != nil, "not valid UTF-8")
        #endif
        assert(isASCII.map { $0 == !bytes.contains(where: { $0 >= 0x80 }) } ?? true, "ASCII flag wrong")
        var span = UTF8Span(unchecked: bytes.span, isKnownASCII: isASCII ?? false)
        if isASCII == nil { _ = span.checkForASCII() }
        self.init(copying: span)
    }
}
