/// A fast 64-bit digest of a body and its length, computed as the bytes arrive, to recognise a
/// `200` whose body is byte-identical to the last one ingested, without parsing it.
///
/// Not cryptographic: each 8-byte word is mixed in with a multiply and a rotation. A server
/// that forged a collision could only hide a change of its own feed. Rendered as
/// `h64-<16 hex digits>-<length>` for storage next to the validators.
struct ContentDigest {
    private var state: UInt64 = 0x6A09_E667_F3BC_C908
    private var tail: UInt64 = 0
    private var tailCount = 0
    private(set) var length = 0

    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        length += bytes.count
        var index = 0
        // Complete a word begun by the previous chunk.
        while tailCount > 0, tailCount < 8, index < bytes.count {
            tail |= UInt64(bytes[index]) << (UInt64(tailCount) * 8)
            tailCount += 1
            index += 1
        }
        if tailCount == 8 {
            mix(tail)
            tail = 0
            tailCount = 0
        }
        while index + 8 <= bytes.count {
            mix(UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)))
            index += 8
        }
        while index < bytes.count {
            tail |= UInt64(bytes[index]) << (UInt64(tailCount) * 8)
            tailCount += 1
            index += 1
        }
    }

    @inline(__always)
    private mutating func mix(_ word: UInt64) {
        state = ((state ^ word) &* 0x9E37_79B9_7F4A_7C15)
        state = (state << 31) | (state >> 33)
    }

    /// The digest of everything appended so far.
    var value: String {
        var copy = self
        copy.mix(tail ^ (UInt64(tailCount) << 56))
        copy.mix(UInt64(length))
        var final = copy.state
        final ^= final >> 29
        final = final &* 0xBF58_476D_1CE4_E5B9
        final ^= final >> 32
        let hex = String(final, radix: 16)
        return "h64-" + String(repeating: "0", count: 16 - hex.count) + hex + "-\(length)"
    }

    /// The length recorded in a rendered digest, or nil.
    static func length(of digest: String) -> Int? {
        digest.split(separator: "-").last.flatMap { Int($0) }
    }
}
