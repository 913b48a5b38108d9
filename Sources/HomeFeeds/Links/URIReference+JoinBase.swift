import JSONCore

extension URIReference {
    /// A clean absolute base (`scheme://authority/path`, nothing to trim, encode or remove)
    /// split once for ``resolve(_:against:)``'s common relative case, so that the links of a
    /// document, which nearly all share one base, do not validate and split it again each.
    ///
    /// Nil from `init` for a base that is not clean: resolution then takes the general path.
    struct JoinBase {
        let base: String
        /// Bytes of `base` kept before a reference starting with `/`: scheme and authority.
        let authorityEnd: Int
        /// Bytes of `base` kept before a relative-path reference: up to and with the path's
        /// last `/`, or the authority when the path is empty (a `/` is added then).
        let directoryEnd: Int
        let addsSlash: Bool

        init?(_ base: String) {
            guard
                let parts = base.withBorrowedUTF8({ bytes -> (authorityEnd: Int, directoryEnd: Int, addsSlash: Bool)? in
                    guard isAbsoluteAndClean(bytes), let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else {
                        return nil
                    }
                    // The path starts at the first `/` after "://" and ends at `?` or `#`.
                    var pathStart = bytes.count
                    var pathEnd = bytes.count
                    var index = colon + 3
                    while index < bytes.count {
                        let byte = bytes[index]
                        if byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") {
                            pathEnd = index
                            break
                        }
                        if byte == UInt8(ascii: "/") && pathStart == bytes.count { pathStart = index }
                        index += 1
                    }
                    if pathStart > pathEnd { pathStart = pathEnd }
                    var lastSlash = pathEnd - 1
                    while lastSlash >= pathStart && bytes[lastSlash] != UInt8(ascii: "/") { lastSlash -= 1 }
                    return lastSlash < pathStart ? (pathStart, pathStart, true) : (pathStart, lastSlash + 1, false)
                })
            else { return nil }
            self.base = base
            (authorityEnd, directoryEnd, addsSlash) = parts
        }
    }

    /// ``resolve(_:against:)`` for one document's links: the last base seen is kept split (or
    /// known not to be clean), since a document's links nearly all share one.
    struct Resolver {
        private var last: (base: String, prepared: JoinBase?)?

        mutating func resolve(_ reference: UnsafeBufferPointer<UInt8>, against base: String?) -> String? {
            guard let base else { return URIReference.resolve(reference, against: nil) }
            if last?.base != base { last = (base, JoinBase(base)) }
            guard let prepared = last?.prepared else { return URIReference.resolve(reference, against: base) }
            return URIReference.resolve(reference, against: prepared)
        }
    }

    /// ``resolve(_:against:)`` for the bytes of a reference against a prepared base: the same
    /// result, with the base's split reused.
    static func resolve(_ reference: UnsafeBufferPointer<UInt8>, against prepared: JoinBase) -> String? {
        if let clean = cleanAbsolute(reference) { return clean }
        if let joined = joinClean(reference, prepared) { return joined }
        return resolve(String(decoding: reference, as: UTF8.self), against: prepared.base)
    }

    /// `joinClean` with the base already split: nil sends the caller to the general algorithm.
    static func joinClean(_ ref: UnsafeBufferPointer<UInt8>, _ prepared: JoinBase) -> String? {
        guard let first = ref.first, isCleanRelative(ref) else { return nil }
        let isAbsolutePath = first == UInt8(ascii: "/")
        let prefixEnd = isAbsolutePath ? prepared.authorityEnd : prepared.directoryEnd
        let addsSlash = !isAbsolutePath && prepared.addsSlash
        return prepared.base.withBorrowedUTF8 { baseBytes in
            joined(baseBytes, prefixEnd: prefixEnd, addsSlash: addsSlash, ref)
        }
    }
}
