import JSONCore

/// UTF-8 well-formedness (Unicode 15 §3.9, table 3-7), 16 bytes at a time and one sequence at
/// a time.
extension UTF8Sanitizer {
    /// The index of the first byte from `start` that needs the sequence-by-sequence path: a
    /// control character other than tab, LF and CR, a byte that may start an ill-formed
    /// sequence, a sequence the byte-by-byte loop does not know (4-byte sequences, and E0 and
    /// EF leads outside clean blocks), or `end`.
    ///
    /// Runs of clean 16-byte blocks go by `skipCleanBlocks`. A block it refuses, the first two bytes
    /// of a chunk and its last 15 go byte by byte through an inner loop that takes printable
    /// ASCII, tab, LF and CR, well-formed 2-byte sequences and 3-byte sequences with leads
    /// E1–EE, until it is past the refused block and blocks can take over again.
    @inline(__always)
    static func skipClean(
        _ base: UnsafePointer<UInt8>,
        from start: Int,
        to end: Int,
        line: inout Int,
        lastLineFeed: inout Int?,
        sawMultibyte: inout Bool
    ) -> Int {
        var index = start
        var feeds = LineFeeds()
        var multibyte = sawMultibyte
        outer: while index < end {
            // Blocks, once the two bytes before `index` cannot start a sequence that reaches
            // `index` (the sequence path may have left an ill-formed lead there).
            if index >= 2 && base[index - 1] < 0xC0 && base[index - 2] < 0xE0 {
                index = skipCleanBlocks(base, from: index, to: end, lineFeeds: &feeds, sawMultibyte: &multibyte)
            }
            let stop = min(end, index + 16)
            while index < stop {
                let byte = base[index]
                if byte < 0x80 {
                    if byte < 0x20 {
                        if byte == 0x0A {
                            feeds.count += 1
                            feeds.last = index
                        } else if byte != 0x09 && byte != 0x0D {
                            break outer
                        }
                    }
                    index += 1
                    continue
                }
                // E1–EE; ED's second byte stops at 0x9F (no surrogates).
                if byte &- 0xE1 < 0x0E && index + 2 < end {
                    let second = base[index + 1]
                    if (second ^ 0x80) | (base[index + 2] ^ 0x80) < 0x40 && (byte != 0xED || second < 0xA0) {
                        multibyte = true
                        index += 3
                        continue
                    }
                }
                if byte &- 0xC2 < 0x1E && index + 1 < end && base[index + 1] ^ 0x80 < 0x40 {
                    multibyte = true
                    index += 2
                    continue
                }
                break outer
            }
        }
        line += feeds.count
        if feeds.last >= 0 { lastLineFeed = feeds.last }
        sawMultibyte = multibyte
        return index
    }

    enum Sequence {
        /// A well-formed sequence of this many bytes, and a character XML allows.
        case valid(Int)
        /// Well-formed UTF-8 of a character XML forbids (U+FFFE, U+FFFF), to replace.
        case forbidden(Int)
        /// The maximal subpart of an ill-formed sequence, to replace.
        case invalid(Int)
        /// A well-formed start cut by the end of the buffer.
        case incomplete(Int)
    }

    /// The sequence at `index`, whose lead byte is not ASCII (Unicode table 3-7).
    static func sequence(_ input: UnsafeRawBufferPointer, at index: Int) -> Sequence {
        let lead = input[index]
        if lead < 0x80 { return .valid(1) }
        guard let expected = UTF8Lead(lead) else { return .invalid(1) }
        var position = 1
        while position < expected.length {
            guard index + position < input.count else { return .incomplete(position) }
            let byte = input[index + position]
            let allowed = position == 1 ? expected.second : 0x80...0xBF
            guard allowed.contains(byte) else { return .invalid(position) }
            position += 1
        }
        // U+FFFE and U+FFFF are not XML characters.
        if lead == 0xEF && input[index + 1] == 0xBF && input[index + 2] >= 0xBE { return .forbidden(3) }
        return .valid(expected.length)
    }
}
