/// What each byte may be in a link that `URIReference`'s fast paths take as it is, as bits of a
/// 256-entry table: one load per byte, then arithmetic, and a branch only where the path ends.
/// The branchy form (a test, then a second look at `/`, `?` and `#`) mispredicted about seven
/// times per link in callgrind's model, on every link of every parsed feed (issue 17).
enum URIByteClass {
    /// Allowed anywhere after the scheme's `//` up to `?` or `#` (authority and path).
    static let absolutePath: UInt8 = 1 << 0
    /// Allowed in a query or fragment: `?`, `#` and `/` included.
    static let query: UInt8 = 1 << 1
    /// `?` or `#`: the end of the path.
    static let pathEnd: UInt8 = 1 << 2
    /// `/`, one bit below `dot`, so that a shift tells the next byte's check to look for one.
    static let slash: UInt8 = 1 << 3
    static let dot: UInt8 = 1 << 4
    /// Allowed in a relative path: as `absolutePath` without `:` (which may end a scheme).
    static let relativePath: UInt8 = 1 << 5

    /// The classes of the 256 byte values. Printable ASCII except space and `"<>\^`{|}`
    /// (RFC 3986 never allows them) is `query`; of those, all but `?` and `#` are
    /// `absolutePath`, and all but `:` of these are `relativePath`.
    static let table: [UInt8] = (0..<256).map { value in
        let byte = UInt8(value)
        guard byte > 0x20, byte < 0x7F, !Array(#""<>\^`{|}"#.utf8).contains(byte) else { return 0 }
        var bits = query
        switch byte {
        case UInt8(ascii: "?"), UInt8(ascii: "#"): bits |= pathEnd
        case UInt8(ascii: "/"): bits |= slash | absolutePath | relativePath
        case UInt8(ascii: ":"): bits |= absolutePath
        default: bits |= absolutePath | relativePath
        }
        if byte == UInt8(ascii: ".") { bits |= dot }
        return bits
    }

    /// Whether `bytes[start...]` is a clean path, query and fragment: up to the first `?` or
    /// `#`, bytes of the class `pathClass` with no dot segment (`/.`); from there, bytes of the
    /// class `query`. Sixteen bytes at a time (`PathBlock`) where a block is all path or all
    /// query; byte by byte through the table around the `?` or `#` and in the last bytes.
    @inline(__always)
    static func isCleanPathAndQuery(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, pathClass: UInt8) -> Bool {
        guard let base = bytes.baseAddress, start < bytes.count else { return true }
        let count = bytes.count
        var index = start
        // Whole blocks of the path, while no `?` or `#` is in one: the byte before `start` (the
        // scheme's `//`) starts no dot segment.
        var endsWithSlash = false
        while index &+ 16 <= count {
            let block = PathBlock(base + index)
            guard block.isPath(allowingColon: pathClass == absolutePath) else { break }
            guard !block.hasDotAfterSlash(afterSlash: endsWithSlash) else { return false }
            endsWithSlash = base[index &+ 15] == UInt8(ascii: "/")
            index &+= 16
        }
        return table.withUnsafeBufferPointer { table in
            guard let classes = table.baseAddress else { return false }
            // Bits of `wrong`: `pathClass` or `query` for a byte outside its class, `dot` for a
            // `.` after a `/` of the path.
            var wrong: UInt8 = 0
            // `dot` right after a `/` of the path, else 0.
            var dotAfterSlash: UInt8 = endsWithSlash ? dot : 0
            while index < count {
                let bits = classes[Int(base[index])]
                if bits & pathEnd != 0 { break }
                wrong |= ~bits & pathClass
                wrong |= dotAfterSlash & bits
                dotAfterSlash = (bits << 1) & dot
                index &+= 1
            }
            while index &+ 16 <= count {
                guard PathBlock(base + index).isQuery else { return false }
                index &+= 16
            }
            while index < count {
                wrong |= ~classes[Int(base[index])] & query
                index &+= 1
            }
            return wrong == 0
        }
    }
}
