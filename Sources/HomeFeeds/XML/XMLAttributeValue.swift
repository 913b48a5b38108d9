/// One attribute's value as libxml2 hands it over (not decoded, not NUL-terminated), or
/// absent: what `XMLAttributes` finds, read in the ways the builder needs. Found once, it can be
/// read several ways, and one pass over the attributes (`XMLAttributes.lookUp(_:_:_:_:)`) finds several:
/// an enclosure's `url`, `type` and `length` cost one scan of the attribute list, not three.
///
/// Valid while the element's start event lasts.
struct XMLAttributeValue {
    /// The bytes as libxml2 hands them over; nil when the attribute is absent.
    let raw: UnsafeBufferPointer<UInt8>?

    static var absent: XMLAttributeValue { XMLAttributeValue(raw: nil) }

    /// The bytes with ASCII white space trimmed, not decoded: for comparing keywords (`rel`,
    /// `type`, `isPermaLink`) without making a String.
    var trimmedBytes: UnsafeBufferPointer<UInt8>? {
        guard var bytes = raw?[...] else { return nil }
        while let first = bytes.first, first <= 0x20 { bytes = bytes.dropFirst() }
        while let last = bytes.last, last <= 0x20 { bytes = bytes.dropLast() }
        return UnsafeBufferPointer(rebasing: bytes)
    }

    /// The value decoded, without the leading and trailing white space and NBSP
    /// `URIReference.trimASCIIAndNBSP` removes; nil when absent or empty. Trims the decoded
    /// bytes (an `&nbsp;` at either end is NBSP only then) before making the String (MIME
    /// types, once per enclosure).
    var trimmedValue: String? {
        guard let raw else { return nil }
        return XMLAttributes.withDecoded(raw) { decoded in
            let bytes = decoded.trimmingASCIIAndNBSP()
            return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self)
        }
    }

    /// Calls `body` with the decoded bytes, valid for the call only; nil when absent. For values
    /// that are read, not kept (a link to resolve).
    func withDecoded<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result? {
        guard let raw else { return nil }
        return XMLAttributes.withDecoded(raw, body)
    }

    /// The value as a size in bytes: a non-negative decimal integer (an optional `+`, at most
    /// 18 digits), else nil. Parsed in place, without a String.
    var byteCount: Int64? {
        guard var bytes = trimmedBytes?[...], !bytes.isEmpty else { return nil }
        if bytes.first == UInt8(ascii: "+") { bytes = bytes.dropFirst() }
        guard !bytes.isEmpty, bytes.count <= 18 else { return nil }
        var value: Int64 = 0
        for byte in bytes {
            guard byte.isASCIIDigit else { return nil }
            value = value * 10 + Int64(byte - UInt8(ascii: "0"))
        }
        return value
    }
}
