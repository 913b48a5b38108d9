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

    /// The attribute `name` (no namespace, case-sensitive), to be read as `XMLAttributeValue`
    /// reads it: `trimmedValue`, `trimmedBytes`, `byteCount`, `withDecoded`.
    @inline(__always)
    func lookUp(_ name: StaticString) -> XMLAttributeValue {
        guard let base else { return .absent }
        for index in 0..<count {
            let slot = base + index * 5
            if let value = Self.value(in: slot, ifNamed: name) { return XMLAttributeValue(raw: value) }
        }
        return .absent
    }

    /// The attributes `first`, `second`, `third` and `fourth` (no namespace, case-sensitive),
    /// found in one pass over the attribute list: the first attribute of each name, as
    /// `lookUp(_:)` finds it. Without `fourth`, the last value is absent. Inlined, so that the
    /// names are constants where it is called and their comparisons unrolled.
    @inline(__always)
    func lookUp(
        _ first: StaticString,
        _ second: StaticString,
        _ third: StaticString,
        _ fourth: StaticString? = nil
    ) -> (XMLAttributeValue, XMLAttributeValue, XMLAttributeValue, XMLAttributeValue) {
        let absent = XMLAttributeValue.absent
        var found = (absent, absent, absent, absent)
        guard let base else { return found }
        for index in 0..<count {
            let slot = base + index * 5
            if found.0.raw == nil, let value = Self.value(in: slot, ifNamed: first) {
                found.0 = XMLAttributeValue(raw: value)
            } else if found.1.raw == nil, let value = Self.value(in: slot, ifNamed: second) {
                found.1 = XMLAttributeValue(raw: value)
            } else if found.2.raw == nil, let value = Self.value(in: slot, ifNamed: third) {
                found.2 = XMLAttributeValue(raw: value)
            } else if let fourth, found.3.raw == nil, let value = Self.value(in: slot, ifNamed: fourth) {
                found.3 = XMLAttributeValue(raw: value)
            }
        }
        return found
    }

    /// The undecoded bytes of the attribute in `slot` when it is `name` in no namespace.
    @inline(__always)
    private static func value(
        in slot: UnsafeMutablePointer<UnsafePointer<UInt8>?>,
        ifNamed name: StaticString
    ) -> UnsafeBufferPointer<UInt8>? {
        guard let local = slot[0], let start = slot[3], let end = slot[4],
            firstByteMayMatch(local, name), nameMatches(local, name, ignoringCase: false),
            slot[2] == nil || XMLNamespace.classify(slot[2]) == .rssCore
        else { return nil }
        return UnsafeBufferPointer(start: start, count: max(0, end - start))
    }

    /// `lookUp(name).trimmedValue`: decoded and trimmed, nil when absent or empty.
    func trimmedValue(_ name: StaticString) -> String? { lookUp(name).trimmedValue }

    /// `lookUp(name).trimmedBytes`: ASCII white space trimmed, not decoded.
    func trimmedBytes(_ name: StaticString) -> UnsafeBufferPointer<UInt8>? { lookUp(name).trimmedBytes }

    /// `lookUp(name).byteCount`: a size in bytes, or nil.
    func byteCount(_ name: StaticString) -> Int64? { lookUp(name).byteCount }

    /// Nil when the attribute is absent, else whether its trimmed value is `literal`
    /// (lowercase) in any case.
    @inline(__always)
    func value(_ name: StaticString, isIgnoringCase literal: StaticString) -> Bool? {
        lookUp(name).trimmedBytes.map { HTMLTagNames.equalsIgnoringCase($0, literal) }
    }

    /// A cheap first test before `nameMatches`, inline in the attribute loops: the first bytes
    /// are equal ignoring ASCII case (a name differing in case still goes on to the full test).
    @inline(__always)
    private static func firstByteMayMatch(_ local: UnsafePointer<UInt8>, _ name: StaticString) -> Bool {
        local.pointee | 0x20 == name.utf8Start.pointee | 0x20
    }

    @inline(__always)
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
    ///
    /// The bytes are checked (invalid ones read as U+FFFD) although `UTF8Sanitizer` feeds
    /// libxml2 only valid UTF-8: recovering from an unterminated entity reference followed by a
    /// named one, libxml2 2.9.14 handed over a value ending in a NUL and a lone lead byte
    /// (`make fuzz`), and a String made from it unchecked trapped at its first use.
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        withDecoded(bytes) { String(decoding: $0, as: UTF8.self) }
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
