/// How a text field is to be read (`feed-parsing.md` §2, plain text rules 1–2).
enum TextMode: Sendable {
    /// HTML: strip tags (dropping script, style and comments; block elements count as
    /// whitespace), then decode HTML entities exactly once.
    case html
    /// Literal text: no tag stripping and no second entity decoding.
    case literal
}

/// Turns field text into the contract's plain text: tags stripped (HTML only), entities decoded
/// once (HTML only), whitespace folded and trimmed, empty → nil. Whitespace folding is here; tag
/// stripping and references are in `PlainText+HTML.swift`.
///
/// Works on UTF-8 bytes in one pass and reuses its output buffer, so one value serves a whole
/// parse. Not Sendable by intent: one per parse; noncopyable, as the buffer it owns.
struct PlainText: ~Copyable {
    private var out = ByteBuffer(capacity: 4096)
    /// Runs may carry single ASCII spaces between visible bytes and skip three-byte characters
    /// whole (the output is the same either way). Tests turn it off to compare the fast paths
    /// with the general one.
    let usesFastPaths: Bool
    /// Whitespace was read since the last visible character: one space goes out before the
    /// next one (none at the start or end). Markup skipping in `PlainText+HTML` sets it too.
    var pendingSpace = false
    /// The HTML last normalised may hold an `<img` tag (`HTMLImageScanner`'s byte scan may
    /// find one): false only when every `<` of it began a tag other than `img`, with no other
    /// `<` inside, or was text before no tag name. Lets the caller skip that second scan of
    /// the same bytes (issue 17). Set by `PlainText+HTML`, and by `appendScalar` when a broken
    /// character swallows a `<`.
    var mayHoldImageTag = false

    init(usesFastPaths: Bool = true) {
        self.usesFastPaths = usesFastPaths
    }

    /// Normalises `input` read as `mode`; nil when nothing but whitespace remains.
    ///
    /// - Parameter isValidUTF8: the caller knows `input` is valid UTF-8 (text out of the XML
    ///   parse, a Swift String). The output then is too: it is cut from the input at ASCII bytes
    ///   and whole characters, plus whole decoded references. So the String is made without
    ///   checking every byte again (`String(validUTF8:)`); otherwise invalid bytes are repaired.
    mutating func normalize(_ input: UnsafeBufferPointer<UInt8>, mode: TextMode, isValidUTF8: Bool = false) -> String? {
        out.removeAll()
        pendingSpace = false
        mayHoldImageTag = false
        switch mode {
        case .literal: appendFolding(input)
        case .html: stripAndDecode(input)
        }
        return out.isEmpty ? nil : out.string(isValidUTF8: isValidUTF8)
    }

    /// Convenience for tests, OPML attributes and JSON Feed.
    mutating func normalize(_ text: String, mode: TextMode) -> String? {
        text.withBorrowedUTF8 { normalize($0, mode: mode, isValidUTF8: true) }
    }

    // MARK: Whitespace folding

    private mutating func appendFolding(_ input: UnsafeBufferPointer<UInt8>) {
        var index = 0
        let count = input.count
        while index < count {
            index = appendPlainRun(input, from: index, isHTML: false)
            guard index < count else { break }
            index = appendScalar(input, at: index)
        }
    }

    /// Copies the run of bytes from `start` that need no attention (no markup, no reference,
    /// nothing that may be whitespace other than a lone space between visible bytes) in one
    /// append; returns where the run ends. Hangul and ASCII prose are such runs, which keeps
    /// normalisation near memcpy speed: sixteen bytes at a time (`firstStop`), eight near the
    /// end (`stopBytes`), then byte by byte from the first one that may end the run.
    @inline(__always)
    mutating func appendPlainRun(_ input: UnsafeBufferPointer<UInt8>, from start: Int, isHTML: Bool) -> Int {
        let count = input.count
        // A space cannot start a run (it may be the first of several), nor can nothing.
        guard let base = input.baseAddress, start < count, base[start] != 0x20 else { return start }
        let usesFastPaths = usesFastPaths
        var index = start
        // Bit n of word n / 64 marks a byte that ends the run: ASCII space and controls, the
        // lead bytes of the non-ASCII spaces (C2, E1, E2, E3) and, for HTML, `<` and `&`.
        let low: UInt64 = isHTML ? 0x1000_0041_ffff_ffff : 0x0000_0001_ffff_ffff
        let high: UInt64 = 0x0000_000e_0000_0004
        @inline(__always) func endsRun(_ byte: UInt8) -> Bool {
            let word: UInt64 = byte < 0x40 ? low : byte >= 0xC0 ? high : 0
            return word & (1 << UInt64(byte & 63)) != 0
        }
        while index < count {
            if usesFastPaths && index &+ 16 <= count {
                let stop = Self.firstStop(UnsafeRawPointer(base + index).loadUnaligned(as: Block.self), isHTML: isHTML)
                index &+= stop
                if stop == 16 { continue }
            } else if usesFastPaths && index &+ 8 <= count {
                let word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
                let stops = Self.stopBytes(word, isHTML: isHTML)
                if stops == 0 {
                    index &+= 8
                    continue
                }
                // The first byte that may end the run, a character boundary: the byte loop decides.
                index &+= stops.trailingZeroBitCount &>> 3
            }
            let byte = base[index]
            // A whole three-byte character (Hangul, CJK) led by E4–EF, none of them whitespace
            // nor ending the run, in one step; anything but two continuation bytes after it goes
            // byte by byte.
            if usesFastPaths && byte &- 0xE4 < 0x0C && index &+ 2 < count
                && (base[index &+ 1] & base[index &+ 2]) & 0xC0 == 0x80
                && (base[index &+ 1] | base[index &+ 2]) & 0x40 == 0
            {
                index &+= 3
                continue
            }
            if endsRun(byte) {
                // One U+0020 between a byte of this run and a byte that may start one is what
                // folding would write there anyway: the words of a sentence stay one run.
                guard usesFastPaths, byte == 0x20, index > start, index &+ 1 < count, !endsRun(base[index &+ 1])
                else {
                    break
                }
                index &+= 2
                continue
            }
            index &+= 1
        }
        if index > start {
            if pendingSpace && !out.isEmpty { out.append(0x20) }
            pendingSpace = false
            out.append(UnsafeBufferPointer(rebasing: input[start..<index]))
        }
        return index
    }

    /// 0x80 in the bytes of `word` (first byte lowest) from which the byte loop must take
    /// over; zero when all eight belong to the run. Those are the bytes that end a run (see
    /// `endsRun`) and the spaces before one or before another space, or last in the word (the
    /// byte after them is not in it). A few others are marked as well (E0, and a byte one
    /// above a marked one, by the borrow of the subtraction), which only hands them to the
    /// byte loop; a byte that does end the run is always marked.
    @inline(__always)
    static func stopBytes(_ word: UInt64, isHTML: Bool) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highBits: UInt64 = 0x8080_8080_8080_8080
        /// 0x80 in the bytes of `bytes` below `bound` (at most 0x80).
        @inline(__always) func below(_ bound: UInt64, _ bytes: UInt64) -> UInt64 {
            (bytes &- ones &* bound) & ~bytes & highBits
        }
        // Controls below U+0020; C2 (U+0080–U+00BF: NEL, NBSP); E0–E3 (E1–E3 lead the other
        // spaces): bytes 0 and 0–3 once C2 and E0 are taken off.
        var enders = below(0x20, word) | below(1, word ^ (ones &* 0xC2)) | below(4, word ^ (ones &* 0xE0))
        if isHTML {
            enders |= below(1, word ^ (ones &* 0x3C)) | below(1, word ^ (ones &* 0x26))  // `<`, `&`
        }
        let spaces = below(1, word ^ (ones &* 0x20))
        let beforeStop = (enders | spaces) &>> 8 | 0x80 &<< 56
        return enders | (spaces & beforeStop)
    }

    /// Appends the scalar starting at `index`, folding whitespace; returns the next index.
    @inline(__always)
    mutating func appendScalar(_ input: UnsafeBufferPointer<UInt8>, at index: Int) -> Int {
        let byte = input[index]
        if byte < 0x80 {
            if byte == 0x20 || (byte >= 0x09 && byte <= 0x0D) {
                pendingSpace = true
            } else {
                appendVisible(byte)
            }
            return index + 1
        }
        let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
        let end = min(index + length, input.count)
        // Invalid UTF-8 (base64-decoded text) may put a `<` in a broken character.
        if input.index(of: UInt8(ascii: "<"), from: index + 1, before: end) != nil { mayHoldImageTag = true }
        if Self.isUnicodeSpace(input, from: index, to: end) {
            pendingSpace = true
        } else {
            if pendingSpace && !out.isEmpty { out.append(0x20) }
            pendingSpace = false
            out.append(UnsafeBufferPointer(rebasing: input[index..<end]))
        }
        return end
    }

    @inline(__always)
    mutating func appendVisible(_ byte: UInt8) {
        if pendingSpace && !out.isEmpty { out.append(0x20) }
        pendingSpace = false
        out.append(byte)
    }

    mutating func appendDecoded(_ utf8: [UInt8]) {
        utf8.withUnsafeBufferPointer { appendFolding($0) }
    }

    /// Appends `scalar` (a decoded `&#n;`), folding whitespace, from its UTF-8 on the stack:
    /// no String or Array per reference.
    mutating func appendScalarValue(_ scalar: Unicode.Scalar) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 4) { buffer in
            var length = 0
            UTF8.encode(scalar) { unit in
                buffer[length] = unit
                length += 1
            }
            appendFolding(UnsafeBufferPointer(rebasing: buffer[..<length]))
        }
    }

    /// Unicode White_Space outside ASCII: U+0085, U+00A0 (NBSP, named in §2), U+1680,
    /// U+2000–U+200A, U+2028, U+2029, U+202F, U+205F, U+3000.
    private static func isUnicodeSpace(_ input: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Bool {
        let length = end - start
        let b0 = input[start]
        if length == 2 {
            return b0 == 0xC2 && (input[start + 1] == 0xA0 || input[start + 1] == 0x85)
        }
        guard length == 3 else { return false }
        let b1 = input[start + 1]
        let b2 = input[start + 2]
        switch b0 {
        case 0xE1: return b1 == 0x9A && b2 == 0x80
        case 0xE2:
            if b1 == 0x80 { return b2 <= 0x8A || b2 == 0xA8 || b2 == 0xA9 || b2 == 0xAF }
            return b1 == 0x81 && b2 == 0x9F
        case 0xE3: return b1 == 0x80 && b2 == 0x80
        default: return false
        }
    }
}
