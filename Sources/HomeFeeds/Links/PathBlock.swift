/// Sixteen bytes of a link, classified with vector comparisons (SSE2, NEON): the table scan
/// costs about ten instructions a byte, and every link of every feed goes through it (issue
/// 17). The same classes as `URIByteClass.table`. Its tests are inlined: called, they cost
/// some 25 instructions a block in prologues and epilogues (the link's blocks are few and short).
struct PathBlock {
    typealias Bytes = SIMD16<UInt8>
    private let bytes: Bytes

    init(_ start: UnsafePointer<UInt8>) {
        bytes = UnsafeRawPointer(start).loadUnaligned(as: Bytes.self)
    }

    /// Every byte is of the class `query`: printable ASCII except space and `"<>\^`{|}`.
    @inline(__always)
    var isQuery: Bool {
        Self.isAllSet(queryLanes)
    }

    /// Every byte is of a path class: `query` except `?` and `#`, and except `:` unless
    /// `allowingColon` (`URIByteClass.absolutePath`, else `relativePath`).
    @inline(__always)
    func isPath(allowingColon: Bool) -> Bool {
        var ends = bytes .== Bytes(repeating: UInt8(ascii: "?"))
        ends .|= bytes .== Bytes(repeating: UInt8(ascii: "#"))
        if !allowingColon { ends .|= bytes .== Bytes(repeating: UInt8(ascii: ":")) }
        return Self.isAllSet(queryLanes & ~Self.lanes(ends))
    }

    /// A `.` right after a `/` in the block, or first in it when `afterSlash`.
    func hasDotAfterSlash(afterSlash: Bool) -> Bool {
        let slashes = Self.words(bytes .== Bytes(repeating: UInt8(ascii: "/")))
        let dots = Self.words(bytes .== Bytes(repeating: UInt8(ascii: ".")))
        // Each lane's byte before it (first lane lowest): a slash there marks the lane.
        let slashBeforeLow = slashes.low << 8 | (afterSlash ? 0xFF : 0)
        let slashBeforeHigh = slashes.high << 8 | slashes.low >> 56
        return (slashBeforeLow & dots.low) | (slashBeforeHigh & dots.high) != 0
    }

    /// 0xFF in the lanes of printable ASCII other than `"<>\^`{|}`.
    @inline(__always)
    private var queryLanes: Bytes {
        // 0x21–0x7E: subtracting 0x21 leaves them below 0x5E and wraps the rest above it.
        var outside = (bytes &- Bytes(repeating: 0x21)) .>= Bytes(repeating: 0x5E)
        outside .|= bytes .== Bytes(repeating: UInt8(ascii: "\""))
        // `<` and `>` (3C and 3E) are the bytes that are 3E with bit 1 set.
        outside .|= (bytes | Bytes(repeating: 0x02)) .== Bytes(repeating: UInt8(ascii: ">"))
        outside .|= bytes .== Bytes(repeating: UInt8(ascii: "\\"))
        outside .|= bytes .== Bytes(repeating: UInt8(ascii: "^"))
        outside .|= bytes .== Bytes(repeating: UInt8(ascii: "`"))
        // `{`, `|` and `}`: 7B–7D.
        outside .|= (bytes &- Bytes(repeating: UInt8(ascii: "{"))) .< Bytes(repeating: 3)
        return ~Self.lanes(outside)
    }

    private static func lanes(_ mask: SIMDMask<SIMD16<Int8>>) -> Bytes {
        unsafeBitCast(mask, to: Bytes.self)
    }

    private static func words(_ mask: SIMDMask<SIMD16<Int8>>) -> (low: UInt64, high: UInt64) {
        let words = unsafeBitCast(mask, to: SIMD2<UInt64>.self)
        return (words[0], words[1])
    }

    private static func isAllSet(_ lanes: Bytes) -> Bool {
        let words = unsafeBitCast(lanes, to: SIMD2<UInt64>.self)
        return words[0] & words[1] == ~0
    }
}
