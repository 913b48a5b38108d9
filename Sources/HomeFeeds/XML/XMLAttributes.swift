import JSONCore

/// The attribute array of libxml2's SAX2 `startElementNs`: five pointers per attribute
/// (localname, prefix, URI, value start, value end), values not NUL-terminated.
struct XMLAttributes {
    let base: UnsafeMutablePointer<UnsafePointer<UInt8>?>?
    let count: Int

    /// The value of the attribute `name` in `namespace` (`.rssCore` = no namespace), decoded.
    ///
    /// - Parameter ignoringCase: OPML producers disagree on `xmlUrl`/`xmlURL`.
    func value(_ name: StaticString, in namespace: XMLNamespace = .rssCore, ignoringCase: Bool = false) -> String? {
        guard let base else { return nil }
        for index in 0..<count {
            let slot = base + index * 5
            guard let local = slot[0], let start = slot[3], let end = slot[4] else { continue }
            guard Self.firstByteMayMatch(local, name), Self.nameMatches(local, name, ignoringCase: ignoringCase)
            else { continue }
            guard XMLNamespace.classify(slot[2]) == namespace else { continue }
            return Self.decode(UnsafeBufferPointer(start: start, count: max(0, end - start)))
        }
        return nil
    }

    /// The value of the attribute `name` (no namespace), decoded, without the leading and
    /// trailing white space and NBSP `URIReference.trimASCIIAndNBSP` removes; nil when absent
    /// or empty. Trims the bytes before making the String (MIME types, once per enclosure).
    func trimmedValue(_ name: StaticString) -> String? {
        guard let raw = rawBytes(name) else { return nil }
        let bytes = UnsafeBufferPointer(rebasing: raw).trimmingASCIIAndNBSP()
        return bytes.isEmpty ? nil : Self.decode(bytes)
    }

    /// Calls `body` with the decoded bytes of the attribute `name` (no namespace), valid for
    /// the call only; nil when absent. For values that are read, not kept (a link to resolve).
    func withValue<Result>(_ name: StaticString, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result? {
        guard let raw = rawBytes(name) else { return nil }
        return Self.withDecoded(UnsafeBufferPointer(rebasing: raw), body)
    }

    /// The value of the attribute `name` (no namespace) as libxml2 hands it over, ASCII white
    /// space trimmed and not decoded: for comparing keywords (`rel`, `type`, `isPermaLink`)
    /// without making a String. Valid while the element's start event lasts.
    func trimmedBytes(_ name: StaticString) -> UnsafeBufferPointer<UInt8>? {
        guard var bytes = rawBytes(name) else { return nil }
        while let first = bytes.first, first <= 0x20 { bytes = bytes.dropFirst() }
        while let last = bytes.last, last <= 0x20 { bytes = bytes.dropLast() }
        return UnsafeBufferPointer(rebasing: bytes)
    }

    /// The undecoded bytes of the attribute `name` (no namespace, case-sensitive); nil when
    /// absent. Valid while the element's start event lasts.
    private func rawBytes(_ name: StaticString) -> Slice<UnsafeBufferPointer<UInt8>>? {
        guard let base else { return nil }
        for index in 0..<count {
            let slot = base + index * 5
            guard let local = slot[0], let start = slot[3], let end = slot[4] else { continue }
            guard Self.firstByteMayMatch(local, name), Self.nameMatches(local, name, ignoringCase: false),
                XMLNamespace.classify(slot[2]) == .rssCore
            else { continue }
            return UnsafeBufferPointer(start: start, count: max(0, end - start))[...]
        }
        return nil
    }

    /// The attribute as a size in bytes: a non-negative decimal integer (an optional `+`,
    /// at most 18 digits), else nil. Parsed in place, without a String.
    func byteCount(_ name: StaticString) -> Int64? {
        guard var bytes = trimmedBytes(name)?[...], !bytes.isEmpty else { return nil }
        if bytes.first == UInt8(ascii: "+") { bytes = bytes.dropFirst() }
        guard !bytes.isEmpty, bytes.count <= 18 else { return nil }
        var value: Int64 = 0
        for byte in bytes {
            guard byte.isASCIIDigit else { return nil }
            value = value * 10 + Int64(byte - UInt8(ascii: "0"))
        }
        return value
    }

    /// Nil when the attribute is absent, else whether its trimmed value is `literal`
    /// (lowercase) in any case.
    func value(_ name: StaticString, isIgnoringCase literal: StaticString) -> Bool? {
        trimmedBytes(name).map { HTMLTagNames.equalsIgnoringCase($0, literal) }
    }

    /// A cheap first test before `nameMatches`, inline in the attribute loops: the first bytes
    /// are equal ignoring ASCII case (a name differing in case still goes on to the full test).
    @inline(__always)
    private static func firstByteMayMatch(_ local: UnsafePointer<UInt8>, _ name: StaticString) -> Bool {
        local.pointee | 0x20 == name.utf8Start.pointee | 0x20
    }

    private static func nameMatches(_ local: UnsafePointer<UInt8>, _ name: StaticString, ignoringCase: Bool) -> Bool {
        let expected = name.utf8Start
        let length = name.utf8CodeUnitCount
        for index in 0..<length {
            let actual = local[index]
            if actual == 0 { return false }
            if ignoringCase ? (actual | 0x20) != (expected[index] | 0x20) : actual != expected[index] { return false }
        }
        return local[length] == 0
    }

    /// Undoes libxml2's attribute escaping: without entity substitution (we never set NOENT) it
    /// hands `&` in attribute values over as the character reference `&#38;`.
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        // Attribute values come out of libxml2, which `UTF8Sanitizer` feeds only valid UTF-8.
        withDecoded(bytes) { String(validUTF8: $0) }
    }

    /// Calls `body` with `bytes` with each `&#38;` read as `&`: the bytes themselves when there
    /// is no `&`, else a decoded copy in temporary memory, written a run between `&`s at a time.
    static func withDecoded<Result>(
        _ bytes: UnsafeBufferPointer<UInt8>,
        _ body: (UnsafeBufferPointer<UInt8>) -> Result
    ) -> Result {
        guard var ampersand = bytes.index(of: UInt8(ascii: "&"), from: 0), let source = bytes.baseAddress else {
            return body(bytes)
        }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: bytes.count) { out in
            guard let target = out.baseAddress else { return body(bytes) }
            var index = 0
            var written = 0
            while true {
                (target + written).initialize(from: source + index, count: ampersand - index)
                written += ampersand - index
                index = ampersand
                let isReference =
                    index + 5 <= bytes.count && bytes[index + 1] == UInt8(ascii: "#")
                    && bytes[index + 2] == UInt8(ascii: "3") && bytes[index + 3] == UInt8(ascii: "8")
                    && bytes[index + 4] == UInt8(ascii: ";")
                target[written] = UInt8(ascii: "&")
                written += 1
                index += isReference ? 5 : 1
                guard let next = bytes.index(of: UInt8(ascii: "&"), from: index) else { break }
                ampersand = next
            }
            (target + written).initialize(from: source + index, count: bytes.count - index)
            written += bytes.count - index
            return body(UnsafeBufferPointer(rebasing: out[..<written]))
        }
    }
}
