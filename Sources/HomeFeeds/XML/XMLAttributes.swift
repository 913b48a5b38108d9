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

    /// The sum and the largest of the values' byte counts as libxml2 hands them over (before
    /// `decode`), for the text limits (`XMLFeedBuilder.countAttributeText`).
    var valueByteCounts: (total: Int, largest: Int) {
        guard let base else { return (0, 0) }
        var (total, largest) = (0, 0)
        for index in 0..<count {
            let slot = base + index * 5
            guard let start = slot[3], let end = slot[4] else { continue }
            let length = max(0, end - start)
            total += length
            largest = max(largest, length)
        }
        return (total, largest)
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
    /// hands `&` in attribute values over as the character reference `&#38;`, and a reference
    /// to an HTML5 name as the reference itself (`AttributeEntities`), read here with the HTML5
    /// table; `AttributeEntities.unknownName` is dropped, as an unknown name is in text.
    ///
    /// The bytes are checked (invalid ones read as U+FFFD) although `UTF8Sanitizer` feeds
    /// libxml2 only valid UTF-8, as a last guard: libxml2 copies a single byte of any
    /// predefined-type entity into a value, which is how `&eacute;` once became a lone lead byte
    /// (`make fuzz`), and a String made from it unchecked trapped at its first use.
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        withDecoded(bytes) { String(decoding: $0, as: UTF8.self) }
    }

    /// Calls `body` with `bytes` with each `&#38;` read as `&` and each `&name;` as the HTML5
    /// character(s) it names: the bytes themselves when there is no `&`, else a decoded copy in
    /// temporary memory, written a run between `&`s at a time. Any other `&` stays as it is.
    static func withDecoded<Result>(
        _ bytes: UnsafeBufferPointer<UInt8>,
        _ body: (UnsafeBufferPointer<UInt8>) -> Result
    ) -> Result {
        guard var ampersand = bytes.index(of: UInt8(ascii: "&"), from: 0), let source = bytes.baseAddress else {
            return body(bytes)
        }
        // What a reference stands for is at most 6/5 of its length (`&nGt;` and `&nLt;`, five
        // bytes for six), and `&#38;` shrinks: twice the input is room enough.
        let capacity = bytes.count * 2
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { out in
            guard let target = out.baseAddress else { return body(bytes) }
            var index = 0
            var written = 0
            while true {
                (target + written).initialize(from: source + index, count: ampersand - index)
                written += ampersand - index
                index = ampersand
                if let (replacement, length) = reference(in: bytes, at: index) {
                    replacement.withUnsafeBufferPointer { replacement in
                        guard let from = replacement.baseAddress, written + replacement.count <= capacity else {
                            return
                        }
                        (target + written).initialize(from: from, count: replacement.count)
                        written += replacement.count
                    }
                    index += length
                } else {
                    target[written] = UInt8(ascii: "&")
                    written += 1
                    index += 1
                }
                guard let next = bytes.index(of: UInt8(ascii: "&"), from: index) else { break }
                ampersand = next
            }
            (target + written).initialize(from: source + index, count: bytes.count - index)
            written += bytes.count - index
            return body(UnsafeBufferPointer(rebasing: out[..<written]))
        }
    }

    private static let ampersand: [UInt8] = [UInt8(ascii: "&")]

    /// The replacement of the reference at `start` (an `&`) and its length: `&#38;` is `&`,
    /// `&name;` is the HTML5 character(s) `name` names, or nothing for
    /// `AttributeEntities.unknownName`; nil when none starts there.
    private static func reference(in bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> ([UInt8], Int)? {
        if start + 5 <= bytes.count && bytes[start..<(start + 5)].elementsEqual("&#38;".utf8) {
            return (ampersand, 5)
        }
        guard let end = HTMLEntities.nameEnd(in: bytes, from: start + 1) else { return nil }
        let name = UnsafeBufferPointer(rebasing: bytes[(start + 1)..<end])
        if name.elementsEqual(AttributeEntities.unknownName.utf8) { return ([], end + 1 - start) }
        return HTMLEntities.lookup(name).map { ($0, end + 1 - start) }
    }
}
