import JSONCore

/// RFC 3986 reference resolution and IRI → URI conversion (`feed-parsing.md` §2, "Links").
///
/// Hand-written rather than Foundation's `URL(string:relativeTo:)`, which on Linux neither
/// removes every dot segment nor accepts the unencoded non-ASCII links that Korean feeds carry.
enum URIReference {
    /// Trims `reference`, resolves it against `base` (RFC 3986 §5.2) and percent-encodes what a
    /// URI may not contain. Nil for an empty reference: an empty link is a missing link.
    static func resolve(_ reference: String, against base: String?) -> String? {
        if isAbsoluteAndClean(reference) { return reference }
        if let base, let joined = joinClean(reference, base: base) { return joined }
        let trimmed = trimASCIIAndNBSP(reference)
        guard !trimmed.isEmpty else { return nil }
        let ref = Components(Array(trimmed.utf8))
        guard let base, ref.scheme == nil else {
            return encode(ref.recomposedRemovingDots())
        }
        let baseParts = Components(Array(base.utf8))
        return encode(ref.resolved(against: baseParts).recompose())
    }

    /// `resolve(_:against:)` for the bytes of a reference (a decoded attribute value, captured
    /// text), making a String only for the result in the two common cases: those accept
    /// printable ASCII alone, and anything else is read by `String(decoding:as:)`, which
    /// repairs invalid UTF-8.
    static func resolve(_ reference: UnsafeBufferPointer<UInt8>, against base: String?) -> String? {
        // Both cases check every byte is printable ASCII.
        if let clean = cleanAbsolute(reference) { return clean }
        if let base, let joined = joinClean(reference, base: base) { return joined }
        return resolve(String(decoding: reference, as: UTF8.self), against: base)
    }

    /// True for `scheme://…` with nothing to trim, percent-encode or remove (no `/.` in the
    /// path): by far the most common link, returned untouched without splitting it.
    private static func isAbsoluteAndClean(_ reference: String) -> Bool {
        reference.withBorrowedUTF8 { isAbsoluteAndClean($0) }
    }

    /// `reference` as it is when it is absolute and clean (`isAbsoluteAndClean`): what every
    /// resolution returns for it, whatever the base, so a caller may try it before reading one.
    static func cleanAbsolute(_ reference: UnsafeBufferPointer<UInt8>) -> String? {
        isAbsoluteAndClean(reference) ? String(validUTF8: reference, isASCII: true) : nil
    }

    static func isAbsoluteAndClean(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count > 3, bytes[0].isASCIILetter else { return false }
        var index = 1
        while index < bytes.count, bytes[index] != UInt8(ascii: ":") {
            let byte = bytes[index]
            guard
                byte.isASCIILetter || byte.isASCIIDigit || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
                    || byte == UInt8(ascii: ".")
            else { return false }
            index += 1
        }
        guard index + 2 < bytes.count, bytes[index + 1] == UInt8(ascii: "/"), bytes[index + 2] == UInt8(ascii: "/")
        else { return false }
        // Authority and path, then query and fragment.
        return URIByteClass.isCleanPathAndQuery(bytes, from: index + 3, pathClass: URIByteClass.absolutePath)
    }

    /// The common relative case, without splitting into components: a clean relative path
    /// (`posts/1?x`, `/media/a.mp3`; no scheme, no dot segment, nothing to trim or encode)
    /// against a clean `scheme://authority/path` base. Nil sends the caller to the full RFC 3986
    /// algorithm, which gives the same answer in these cases.
    private static func joinClean(_ reference: String, base: String) -> String? {
        reference.withBorrowedUTF8 { joinClean($0, base: base) }
    }

    private static func joinClean(_ ref: UnsafeBufferPointer<UInt8>, base: String) -> String? {
        guard isCleanRelative(ref), let prepared = JoinBase(base) else { return nil }
        return joinClean(ref, prepared)
    }

    /// A reference `joinClean` can take: a relative path (not `?…`, `#…`, `.…` nor `//…`) of
    /// allowed bytes, no `:` (it may end a scheme: `URIByteClass.relativePath` leaves it out),
    /// no dot segment; then the query and fragment.
    static func isCleanRelative(_ ref: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = ref.first, first != UInt8(ascii: "?"), first != UInt8(ascii: "#"),
            first != UInt8(ascii: "."), ref.count < 2 || ref[0] != UInt8(ascii: "/") || ref[1] != UInt8(ascii: "/")
        else { return false }
        return URIByteClass.isCleanPathAndQuery(ref, from: 0, pathClass: URIByteClass.relativePath)
    }

    /// The base's first `prefixEnd` bytes, a `/` if `addsSlash`, then the reference, joined in
    /// temporary memory: every byte is printable ASCII (both were checked).
    static func joined(
        _ baseBytes: UnsafeBufferPointer<UInt8>,
        prefixEnd: Int,
        addsSlash: Bool,
        _ ref: UnsafeBufferPointer<UInt8>
    ) -> String? {
        let length = prefixEnd + (addsSlash ? 1 : 0) + ref.count
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: length) { out -> String? in
            guard let target = out.baseAddress, let prefix = baseBytes.baseAddress, let tail = ref.baseAddress
            else { return nil }
            target.initialize(from: prefix, count: prefixEnd)
            var written = prefixEnd
            if addsSlash {
                target[written] = UInt8(ascii: "/")
                written += 1
            }
            (target + written).initialize(from: tail, count: ref.count)
            return String(validUTF8: UnsafeBufferPointer(rebasing: out[..<(written + ref.count)]), isASCII: true)
        }
    }

    /// Removes leading and trailing ASCII whitespace and NBSP.
    static func trimASCIIAndNBSP(_ text: String) -> Substring {
        let isSpace: (Unicode.Scalar) -> Bool = {
            $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\u{0C}" || $0 == "\u{A0}"
        }
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !isSpace($0) }) else { return "" }
        let last = scalars.lastIndex(where: { !isSpace($0) }) ?? first
        return Substring(scalars[first...last])
    }

    /// UTF-8 percent-encoding of non-ASCII bytes, controls, space and the ASCII characters RFC
    /// 3986 never allows (`"<>\^`{|}`). Existing `%XX` escapes are kept as they are.
    static func encode(_ bytes: [UInt8]) -> String {
        var needsWork = false
        for byte in bytes where !isAllowed(byte) {
            needsWork = true
            break
        }
        guard needsWork else { return String(decoding: bytes, as: UTF8.self) }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 16)
        let hex = Array("0123456789ABCDEF".utf8)
        for byte in bytes {
            if isAllowed(byte) {
                out.append(byte)
            } else {
                out.append(UInt8(ascii: "%"))
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0x0F)])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Printable ASCII except space and `"<>\^`{|}`.
    @inline(__always)
    private static func isAllowed(_ byte: UInt8) -> Bool {
        URIByteClass.table[Int(byte)] & URIByteClass.query != 0
    }

    /// The five components of RFC 3986 §3, as byte arrays (nil = undefined, not empty).
    struct Components {
        var scheme: [UInt8]?
        var authority: [UInt8]?
        var path: [UInt8]
        var query: [UInt8]?
        var fragment: [UInt8]?

        init(scheme: [UInt8]?, authority: [UInt8]?, path: [UInt8], query: [UInt8]?, fragment: [UInt8]?) {
            self.scheme = scheme
            self.authority = authority
            self.path = path
            self.query = query
            self.fragment = fragment
        }

        /// Splits a reference per RFC 3986 appendix B.
        init(_ bytes: [UInt8]) {
            var index = 0
            let count = bytes.count
            scheme = nil
            // scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":"
            if count > 0, bytes[0].isASCIILetter {
                var end = 1
                while end < count,
                    bytes[end].isASCIILetter || bytes[end].isASCIIDigit || bytes[end] == UInt8(ascii: "+")
                        || bytes[end] == UInt8(ascii: "-") || bytes[end] == UInt8(ascii: ".")
                {
                    end += 1
                }
                if end < count, bytes[end] == UInt8(ascii: ":") {
                    scheme = Array(bytes[0..<end])
                    index = end + 1
                }
            }
            authority = nil
            if index + 1 < count, bytes[index] == UInt8(ascii: "/"), bytes[index + 1] == UInt8(ascii: "/") {
                var end = index + 2
                while end < count, bytes[end] != UInt8(ascii: "/"), bytes[end] != UInt8(ascii: "?"),
                    bytes[end] != UInt8(ascii: "#")
                {
                    end += 1
                }
                authority = Array(bytes[(index + 2)..<end])
                index = end
            }
            var end = index
            while end < count, bytes[end] != UInt8(ascii: "?"), bytes[end] != UInt8(ascii: "#") { end += 1 }
            path = Array(bytes[index..<end])
            index = end
            query = nil
            if index < count, bytes[index] == UInt8(ascii: "?") {
                end = index + 1
                while end < count, bytes[end] != UInt8(ascii: "#") { end += 1 }
                query = Array(bytes[(index + 1)..<end])
                index = end
            }
            fragment = nil
            if index < count, bytes[index] == UInt8(ascii: "#") {
                fragment = Array(bytes[(index + 1)...])
            }
        }

        /// RFC 3986 §5.2.2, strict.
        func resolved(against base: Components) -> Components {
            if scheme != nil {
                return Components(
                    scheme: scheme,
                    authority: authority,
                    path: Self.removeDotSegments(path),
                    query: query,
                    fragment: fragment
                )
            }
            if authority != nil {
                return Components(
                    scheme: base.scheme,
                    authority: authority,
                    path: Self.removeDotSegments(path),
                    query: query,
                    fragment: fragment
                )
            }
            if path.isEmpty {
                return Components(
                    scheme: base.scheme,
                    authority: base.authority,
                    path: base.path,
                    query: query ?? base.query,
                    fragment: fragment
                )
            }
            let mergedPath: [UInt8]
            if path.first == UInt8(ascii: "/") {
                mergedPath = Self.removeDotSegments(path)
            } else {
                mergedPath = Self.removeDotSegments(Self.merge(base: base, path: path))
            }
            return Components(
                scheme: base.scheme,
                authority: base.authority,
                path: mergedPath,
                query: query,
                fragment: fragment
            )
        }

        /// RFC 3986 §5.2.3.
        private static func merge(base: Components, path: [UInt8]) -> [UInt8] {
            if base.authority != nil && base.path.isEmpty {
                return [UInt8(ascii: "/")] + path
            }
            guard let slash = base.path.lastIndex(of: UInt8(ascii: "/")) else { return path }
            return Array(base.path[...slash]) + path
        }

        /// RFC 3986 §5.2.4, over whole segments.
        static func removeDotSegments(_ path: [UInt8]) -> [UInt8] {
            guard path.contains(UInt8(ascii: ".")) else { return path }
            let isAbsolute = path.first == UInt8(ascii: "/")
            var segments = path.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).map(Array.init)
            if isAbsolute { segments.removeFirst() }
            var output: [[UInt8]] = []
            let dot = [UInt8(ascii: ".")]
            let dotDot = [UInt8(ascii: "."), UInt8(ascii: ".")]
            for (position, segment) in segments.enumerated() {
                let isLast = position == segments.count - 1
                if segment == dot {
                    if isLast { output.append([]) }
                } else if segment == dotDot {
                    if !output.isEmpty { output.removeLast() }
                    if isLast { output.append([]) }
                } else {
                    output.append(segment)
                }
            }
            var result: [UInt8] = isAbsolute ? [UInt8(ascii: "/")] : []
            for (position, segment) in output.enumerated() {
                if position > 0 { result.append(UInt8(ascii: "/")) }
                result += segment
            }
            return result
        }

        func recomposedRemovingDots() -> [UInt8] {
            var copy = self
            if scheme != nil || authority != nil { copy.path = Self.removeDotSegments(path) }
            return copy.recompose()
        }

        /// RFC 3986 §5.3.
        func recompose() -> [UInt8] {
            var out: [UInt8] = []
            if let scheme { out += scheme + [UInt8(ascii: ":")] }
            if let authority { out += [UInt8(ascii: "/"), UInt8(ascii: "/")] + authority }
            out += path
            if let query { out += [UInt8(ascii: "?")] + query }
            if let fragment { out += [UInt8(ascii: "#")] + fragment }
            return out
        }
    }
}
