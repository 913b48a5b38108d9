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
            guard Self.nameMatches(local, name, ignoringCase: ignoringCase) else { continue }
            guard XMLNamespace.classify(slot[2]) == namespace else { continue }
            return Self.decode(UnsafeBufferPointer(start: start, count: max(0, end - start)))
        }
        return nil
    }

    /// The value of the attribute `name` (no namespace), decoded, without the leading and
    /// trailing white space and NBSP `URIReference.trimASCIIAndNBSP` removes; nil when absent
    /// or empty. Trims the bytes before making the String (MIME types, once per enclosure).
    func trimmedValue(_ name: StaticString) -> String? {
        guard var bytes = rawBytes(name) else { return nil }
        while true {
            if let first = bytes.first, Self.isTrimmedSpace(first) {
                bytes = bytes.dropFirst()
            } else if bytes.count >= 2, bytes[bytes.startIndex] == 0xC2, bytes[bytes.startIndex + 1] == 0xA0 {
                bytes = bytes.dropFirst(2)
            } else {
                break
            }
        }
        while true {
            if let last = bytes.last, Self.isTrimmedSpace(last) {
                bytes = bytes.dropLast()
            } else if bytes.count >= 2, bytes[bytes.endIndex - 2] == 0xC2, bytes[bytes.endIndex - 1] == 0xA0 {
                bytes = bytes.dropLast(2)
            } else {
                break
            }
        }
        return bytes.isEmpty ? nil : Self.decode(UnsafeBufferPointer(rebasing: bytes))
    }

    /// The ASCII white space `URIReference.trimASCIIAndNBSP` trims: space, tab, LF, CR, FF.
    private static func isTrimmedSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0C
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
            guard Self.nameMatches(local, name, ignoringCase: false), XMLNamespace.classify(slot[2]) == .rssCore else {
                continue
            }
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
        guard bytes.contains(UInt8(ascii: "&")) else { return String(decoding: bytes, as: UTF8.self) }
        // Written straight into the String's storage: no intermediate array.
        return String(unsafeUninitializedCapacity: bytes.count) { out in
            var index = 0
            var written = 0
            while index < bytes.count {
                if bytes[index] == UInt8(ascii: "&"), index + 5 <= bytes.count, bytes[index + 1] == UInt8(ascii: "#"),
                    bytes[index + 2] == UInt8(ascii: "3"), bytes[index + 3] == UInt8(ascii: "8"),
                    bytes[index + 4] == UInt8(ascii: ";")
                {
                    out[written] = UInt8(ascii: "&")
                    index += 5
                } else {
                    out[written] = bytes[index]
                    index += 1
                }
                written += 1
            }
            return written
        }
    }
}
