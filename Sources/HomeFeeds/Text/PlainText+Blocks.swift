/// The plain-run scan's widest step: 16 bytes tested with a few vector comparisons (SSE2 on
/// x86-64, NEON on arm64) instead of the two 64-bit words of `stopBytes`, at some 45
/// instructions a word, most of the plain-text pass (issue 17). The same bytes stop the run:
/// a block only says where the byte loop must take over, and that loop decides. Operands are
/// whole vectors (`Block(repeating:)`): a comparison with a scalar operand is done lane by lane,
/// some 40 instructions a comparison.
extension PlainText {
    typealias Block = SIMD16<UInt8>

    /// The index in `block` (first byte at 0) of the first byte from which the byte loop must
    /// take over, or 16 when all of them belong to the run. Those are the bytes that end a run
    /// (see `endsRun`), marked exactly (no borrow between lanes, unlike `stopBytes`), and the
    /// spaces before one or before another space, or last in the block (the byte after them is
    /// not in it).
    @inline(__always)
    static func firstStop(_ block: Block, isHTML: Bool) -> Int {
        // Controls below U+0020; C2 (U+0080–U+00BF: NEL, NBSP); E0–E3 (E1–E3 lead the other
        // spaces, E0 is only taken along).
        var enders =
            lanes(block .< Block(repeating: 0x20)) | lanes(block .== Block(repeating: 0xC2))
            | lanes((block & Block(repeating: 0xFC)) .== Block(repeating: 0xE0))
        if isHTML {
            // `<`, `&`
            enders |= lanes(block .== Block(repeating: 0x3C)) | lanes(block .== Block(repeating: 0x26))
        }
        let ender = unsafeBitCast(enders, to: SIMD2<UInt64>.self)
        let space = unsafeBitCast(lanes(block .== Block(repeating: 0x20)), to: SIMD2<UInt64>.self)
        // A lane is 0xFF where true; the byte after each lane is the lane one up, 8 bits over.
        let low = ender[0] | space[0]
        let high = ender[1] | space[1]
        let lowStops = ender[0] | (space[0] & (low &>> 8 | high &<< 56))
        let highStops = ender[1] | (space[1] & (high &>> 8 | 0xFF &<< 56))
        if lowStops != 0 { return lowStops.trailingZeroBitCount &>> 3 }
        // 64 trailing zeros when none stops: 16.
        return (64 &+ highStops.trailingZeroBitCount) &>> 3
    }

    /// A comparison's lanes as bytes, 0xFF where true.
    @inline(__always)
    private static func lanes(_ mask: SIMDMask<SIMD16<Int8>>) -> Block {
        unsafeBitCast(mask, to: Block.self)
    }
}
