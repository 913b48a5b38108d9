/// The sanitizer's fast path: 16-byte blocks checked with a handful of vector operations
/// (SSE2 on x86-64, NEON on arm64) instead of one branch per byte.
///
/// A block is clean when it is made of printable ASCII, tab, LF and CR and of well-formed
/// 2- and 3-byte sequences of characters XML allows (U+0080–U+FFFD without surrogates,
/// U+FFFE or U+FFFF). Continuation bytes are checked against the bytes one and two places
/// before them, loaded from memory, so a sequence may start in one block and end in the next:
/// a continuation byte must follow a lead byte (C2–EF) or come second after a 3-byte lead
/// (E0–EF), and nothing else may. Everything else, 4-byte sequences included, is left to
/// the byte-by-byte path, which knows every rule; a block only says "all of this is fine".
extension UTF8Sanitizer {
    typealias Block = SIMD16<UInt8>
    typealias BlockMask = SIMDMask<SIMD16<Int8>>

    /// Line feeds passed by the fast paths, added by `skipClean` to the sanitizer's position.
    struct LineFeeds {
        var count = 0
        /// The index of the last one, or -1.
        var last = -1
    }

    /// The end of the run of clean blocks from `start` (`start` itself when the first block
    /// is not clean), on a character boundary, with the line feeds it holds counted and
    /// `sawMultibyte` set when it holds a multi-byte character.
    ///
    /// The two bytes before `start` must be readable and must not start a sequence that
    /// reaches `start`. Inside the run each block ends where the next begins, even inside a
    /// sequence; the end of the run steps back to the start of a sequence the last block cut.
    static func skipCleanBlocks(
        _ base: UnsafePointer<UInt8>,
        from start: Int,
        to end: Int,
        lineFeeds: inout LineFeeds,
        sawMultibyte: inout Bool
    ) -> Int {
        var index = start
        var highBits = Block()
        // A lead byte in the last two of the previous block: the next must be checked whole.
        var isCut = false
        // Line feeds of ASCII pairs, counted per lane (an LF lane is 0xFF, so subtracting adds
        // one) and added up every `feedRounds` pairs: at most 2 × 63 = 126 per lane, so the
        // two halves' lanes add up to at most 252 and never wrap.
        let feedRounds = 63
        var feedLanes = Block()
        var rounds = 0
        var fastFeeds = 0
        while index &+ 32 <= end {
            let first = UnsafeRawPointer(base + index).loadUnaligned(as: Block.self)
            let second = UnsafeRawPointer(base + index + 16).loadUnaligned(as: Block.self)
            let firstPrintable = printable(first)
            let secondPrintable = printable(second)
            let firstFeeds = lanes(first .== Block(repeating: 0x0A))
            let secondFeeds = lanes(second .== Block(repeating: 0x0A))
            if !isCut && isAllSet((firstPrintable | firstFeeds) & (secondPrintable | secondFeeds)) {
                feedLanes &-= firstFeeds
                feedLanes &-= secondFeeds
                rounds &+= 1
                if rounds == feedRounds {
                    fastFeeds &+= laneSum(feedLanes)
                    feedLanes = Block()
                    rounds = 0
                }
                index &+= 32
                continue
            }
            guard isClean(first, firstPrintable, at: index, base, &lineFeeds, &isCut) else { break }
            highBits |= first
            index &+= 16
            guard isClean(second, secondPrintable, at: index, base, &lineFeeds, &isCut) else { break }
            highBits |= second
            index &+= 16
        }
        if index &+ 16 <= end {
            let block = UnsafeRawPointer(base + index).loadUnaligned(as: Block.self)
            if isClean(block, printable(block), at: index, base, &lineFeeds, &isCut) {
                highBits |= block
                index &+= 16
            }
        }
        fastFeeds &+= laneSum(feedLanes)
        if fastFeeds > 0 {
            // The last line feed of the run, wherever it was counted: the run holds one.
            lineFeeds.count &+= fastFeeds
            var position = index
            while position > start {
                position &-= 1
                if base[position] == 0x0A {
                    lineFeeds.last = position
                    break
                }
            }
        }
        guard index > start else { return start }
        if base[index &- 1] >= 0xC0 {
            index &-= 1
        } else if base[index &- 2] >= 0xE0 {
            index &-= 2
        }
        if !sawMultibyte && !isClear(highBits & Block(repeating: 0x80)) {
            // Only a complete sequence counts, not the lead the last step left out.
            for position in start..<index where base[position] >= 0x80 {
                sawMultibyte = true
                break
            }
        }
        return index
    }

    /// 0xFF in the lanes of printable ASCII, 0x20–0x7F: above 0x1F as a signed byte.
    @inline(__always)
    private static func printable(_ block: Block) -> Block {
        lanes(unsafeBitCast(block, to: SIMD16<Int8>.self) .> SIMD16<Int8>(repeating: 0x1F))
    }

    /// Whether `block` (at `index`, with `printable` its printable lanes) is clean; counts its
    /// line feeds when it is. `isCut` says whether the previous block ended inside a sequence
    /// (then this one is checked for its continuation bytes even if it is ASCII), and is set
    /// to whether this one does.
    @inline(__always)
    private static func isClean(
        _ block: Block,
        _ printable: Block,
        at index: Int,
        _ base: UnsafePointer<UInt8>,
        _ lineFeeds: inout LineFeeds,
        _ isCut: inout Bool
    ) -> Bool {
        if !isCut && isAllSet(printable) { return true }
        let high = lanes(unsafeBitCast(block, to: SIMD16<Int8>.self) .< SIMD16<Int8>(repeating: 0))
        let controls = ~(printable | high)
        var bad = Block()
        var feeds = Block()
        if !isClear(controls) {
            feeds = lanes(block .== Block(repeating: 0x0A))
            let tabOrReturn = lanes(block .== Block(repeating: 0x09)) | lanes(block .== Block(repeating: 0x0D))
            bad = controls & ~(feeds | tabOrReturn)
        }
        let hasHigh = !isClear(high)
        if hasHigh || isCut {
            bad |= multibyteErrors(UnsafeRawPointer(base + index), block)
        }
        guard isClear(bad) else { return false }
        isCut = hasHigh && (base[index &+ 15] >= 0xC0 || base[index &+ 14] >= 0xE0)
        // LF lanes are 0xFF: count them by their low bits and find the last by its byte.
        let words = unsafeBitCast(feeds, to: SIMD2<UInt64>.self)
        if words[0] | words[1] != 0 {
            let ones: UInt64 = 0x0101_0101_0101_0101
            lineFeeds.count &+= Int(truncatingIfNeeded: (((words[0] & ones) &+ (words[1] & ones)) &* ones) >> 56)
            let lastLane =
                words[1] != 0 ? 15 &- words[1].leadingZeroBitCount / 8 : 7 &- words[0].leadingZeroBitCount / 8
            lineFeeds.last = index &+ lastLane
        }
        return true
    }

    /// 0xFF in the lanes of `block` (at `raw`) that break a rule of UTF-8 or of XML's
    /// characters, given the two bytes before it.
    @inline(__always)
    private static func multibyteErrors(_ raw: UnsafeRawPointer, _ block: Block) -> Block {
        let previous = raw.loadUnaligned(fromByteOffset: -1, as: Block.self)
        let beforePrevious = raw.loadUnaligned(fromByteOffset: -2, as: Block.self)
        // As signed bytes, continuation bytes 80–BF are below C0 (−64) and ASCII is not.
        let isContinuation = lanes(
            unsafeBitCast(block, to: SIMD16<Int8>.self) .< SIMD16<Int8>(repeating: -64)
        )
        let followsLead = lanes(previous .>= Block(repeating: 0xC0))
        let thirdOfThree = lanes(beforePrevious .>= Block(repeating: 0xE0))
        // A continuation byte where none is expected, or a missing one.
        var bad = isContinuation ^ (followsLead | thirdOfThree)
        // C0 and C1 (overlong 2-byte leads) and F0–FF (4-byte leads and bytes never valid).
        bad |= lanes((block & Block(repeating: 0xFE)) .== Block(repeating: 0xC0))
        bad |= lanes(block .>= Block(repeating: 0xF0))
        // E0 needs A0–BF next (no overlong forms), ED needs 80–9F (no surrogates): adding a
        // continuation's 0x20 bit to the byte before it gives E0 + 0 or ED + 0x20 = 0D exactly
        // when it is wrong (C0 + 0x20 = E0 and CR + 0 = 0D are wrong already).
        let leadPlusBit = previous &+ (block & Block(repeating: 0x20))
        bad |=
            isContinuation
            & (lanes(leadPlusBit .== Block(repeating: 0xE0)) | lanes(leadPlusBit .== Block(repeating: 0x0D)))
        // EF BF BE and EF BF BF are U+FFFE and U+FFFF. Any BF BE or BF BF pair goes to the
        // byte-by-byte path, which tells them from the rare characters ending so (U+3FFE…).
        bad |=
            lanes(previous .== Block(repeating: 0xBF))
            & lanes((block & Block(repeating: 0xFE)) .== Block(repeating: 0xBE))
        return bad
    }

    /// A comparison's lanes as bytes, 0xFF where true.
    @inline(__always)
    private static func lanes(_ mask: BlockMask) -> Block {
        unsafeBitCast(mask, to: Block.self)
    }

    /// The sum of the lanes of `block`, each lane at most 126.
    @inline(__always)
    private static func laneSum(_ block: Block) -> Int {
        let words = unsafeBitCast(block, to: SIMD2<UInt64>.self)
        // Bytes of at most 252, then 16-bit lanes of at most 504, then their sum.
        let bytes = words[0] &+ words[1]
        let evens: UInt64 = 0x00FF_00FF_00FF_00FF
        let pairs = (bytes & evens) &+ ((bytes >> 8) & evens)
        return Int(truncatingIfNeeded: (pairs &* 0x0001_0001_0001_0001) >> 48)
    }

    @inline(__always)
    private static func isClear(_ block: Block) -> Bool {
        let words = unsafeBitCast(block, to: SIMD2<UInt64>.self)
        return words[0] | words[1] == 0
    }

    @inline(__always)
    private static func isAllSet(_ block: Block) -> Bool {
        let words = unsafeBitCast(block, to: SIMD2<UInt64>.self)
        return words[0] & words[1] == ~0
    }
}
