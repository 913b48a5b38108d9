internal import Glibc

/// Rewrites bare `&` (one that starts no valid reference) to the reference `&_amp;` before
/// libxml2 sees it.
///
/// Feeds are full of `AT&T` and unescaped `?a=1&b=2` in URLs. libxml2 2.9.14 in RECOVER mode
/// drops such an `&` together with the name after it (`a?b=1=2`), which breaks §2 rule 4 ("a
/// bare `&` is a literal `&`") and corrupts enclosure URLs. CDATA sections, comments and
/// processing instructions are left alone, each read to its own end: a `<![CDATA[` inside a
/// comment opens nothing, and neither does a `<!--` inside a CDATA section.
/// `_amp` is no HTML5 entity name: the `getEntity` hook turns it back into `&` and records a
/// warning with libxml2's position, since a bare `&` makes the document not well-formed.
///
/// Streaming: bytes that cannot be decided yet (an `&` or `<` near the end of a chunk) are kept
/// for the next call. Runs on `InputDecoder`'s UTF-8 output, where byte 0x26 is always `&`.
struct AmpersandRepair {
    private var carry: [UInt8] = []
    /// The section the scan is inside, read to its end without repairs.
    private var section: Section?

    /// Markup whose text holds no references: read to its closer untouched.
    private enum Section {
        case cdata, comment, processingInstruction

        var opener: [UInt8] {
            switch self {
            case .cdata: AmpersandRepair.cdataOpen
            case .comment: AmpersandRepair.commentOpen
            case .processingInstruction: AmpersandRepair.processingInstructionOpen
            }
        }

        var closer: [UInt8] {
            switch self {
            case .cdata: AmpersandRepair.cdataClose
            case .comment: AmpersandRepair.commentClose
            case .processingInstruction: AmpersandRepair.processingInstructionClose
            }
        }
    }

    /// A reference name longer than this is left for libxml2 to judge.
    private static let maxLookahead = 64
    /// How many bytes of a new input are copied beside held-back bytes to decide them: far more
    /// than a decision needs (`maxLookahead`, a CDATA opener), few enough to copy.
    static let joinedLength = 4096
    private static let cdataOpen = Array("<![CDATA[".utf8)
    private static let commentOpen = Array("<!--".utf8)
    private static let processingInstructionOpen = Array("<?".utf8)
    private static let cdataClose = Array("]]>".utf8)
    private static let commentClose = Array("-->".utf8)
    private static let processingInstructionClose = Array("?>".utf8)
    private static let openers = [cdataOpen, commentOpen, processingInstructionOpen]

    /// Passes the repaired form of `input` to `emit`, as slices of `input` (no copy) and the
    /// marker; bytes that cannot be decided yet are held for the next call.
    mutating func process(_ input: UnsafeRawBufferPointer, emit: (UnsafeRawBufferPointer) -> Void) {
        var rest = input.assumingMemoryBound(to: UInt8.self)[...]
        // Held-back bytes are decided together with the first bytes after them, copied beside
        // them; the rest of the input is then scanned where it is. (Joined with the whole
        // input, every 64 KiB piece that a CDATA section crossed was copied, with an
        // allocation: 1 % of a 20 000-item RSS parse, issue 17.) Bytes still held back after a
        // whole head (a CDATA section or comment longer than it) are joined with all the rest: one copy of
        // the input at most, as before, not one per head.
        var headLength = Self.joinedLength
        while !carry.isEmpty && !rest.isEmpty {
            let head = rest.prefix(headLength)
            var joined = carry
            carry.removeAll()
            joined.append(contentsOf: head)
            joined.withUnsafeBufferPointer { scan($0, isFinal: false, emit: emit) }
            rest = rest.dropFirst(head.count)
            headLength = rest.count
        }
        if !rest.isEmpty { scan(UnsafeBufferPointer(rebasing: rest), isFinal: false, emit: emit) }
    }

    /// Flushes whatever was held back, at the end of the body.
    mutating func finish(emit: (UnsafeRawBufferPointer) -> Void) {
        let rest = carry
        carry.removeAll()
        rest.withUnsafeBufferPointer { scan($0, isFinal: true, emit: emit) }
    }

    private mutating func scan(
        _ bytes: UnsafeBufferPointer<UInt8>,
        isFinal: Bool,
        emit: (UnsafeRawBufferPointer) -> Void
    ) {
        func pass(_ range: Range<Int>) {
            if !range.isEmpty { emit(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[range]))) }
        }
        let count = bytes.count
        guard let base = bytes.baseAddress, count > 0 else { return }
        var copied = 0
        var index = 0
        // Position of the next complete section opener at or after `index` (count = none), and
        // which, cached so that frequent ampersands do not make the search quadratic.
        var nextOpen = -1
        var nextSection: Section?
        // Position of the next "<?" at or after `index` (count = none), cached apart: the
        // nearest opener is looked for again after every section, and searching the rest of
        // the chunk for "<?" each time (memchr stops at every "?" of a URL) made a chunk of
        // CDATA descriptions cost sections × chunk (a 20 000-item RSS parse, 2.65× its floor).
        var nextInstruction = -1
        while index < count {
            if let current = section {
                let closer = current.closer
                guard let close = Self.find(closer, in: base, from: index, count: count) else {
                    // Keep the closer's length less one: it may straddle the chunks.
                    let keep = isFinal ? count : max(index, count - (closer.count - 1))
                    pass(copied..<keep)
                    carry.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[keep..<count]))
                    return
                }
                index = close + closer.count
                section = nil
                nextOpen = -1
                continue
            }
            if nextOpen < index {
                if nextInstruction < index {
                    nextInstruction =
                        Self.find(Self.processingInstructionOpen, in: base, from: index, count: count) ?? count
                }
                (nextOpen, nextSection) = Self.nextSection(in: base, from: index, before: nextInstruction, count: count)
            }
            let ampersand =
                memchr(base + index, Int32(UInt8(ascii: "&")), nextOpen - index)
                .map { UnsafeRawPointer($0) - UnsafeRawPointer(base) } ?? nextOpen
            if ampersand < nextOpen {
                let decision = Self.startsReference(bytes, at: ampersand)
                if decision == .yes {
                    index = ampersand + 1
                } else if decision == .undecided && !isFinal {
                    pass(copied..<ampersand)
                    carry.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[ampersand..<count]))
                    return
                } else {
                    pass(copied..<ampersand)
                    Self.escapedAmpersand.withUnsafeBytes { emit($0) }
                    index = ampersand + 1
                    copied = index
                }
                continue
            }
            if let opened = nextSection {
                index = nextOpen + opened.opener.count
                section = opened
                continue
            }
            // No ampersand and no complete opener left; a partial opener may straddle the chunks.
            if !isFinal, let partial = Self.partialOpener(bytes, from: index) {
                pass(copied..<partial)
                carry.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[partial..<count]))
                return
            }
            index = count
        }
        pass(copied..<count)
    }

    /// The first complete `<![CDATA[`, `<!--` or `<?` in `base[from..<count]` and which it is, or
    /// (count, nil), given the first `<?` at or after `from` (`instruction`, count for none).
    /// Other `<!` declarations (`<!DOCTYPE`, `<!ENTITY`) are passed over; one that cannot be
    /// told yet at the end is left to `partialOpener`.
    private static func nextSection(
        in base: UnsafePointer<UInt8>,
        from: Int,
        before instruction: Int,
        count: Int
    ) -> (position: Int, section: Section?) {
        var found: (position: Int, section: Section?) = (count, nil)
        if instruction < count { found = (instruction, .processingInstruction) }
        var position = from
        while let declaration = find(markupDeclarationOpen, in: base, from: position, count: found.position) {
            if startsWith(cdataOpen, in: base, at: declaration, count: count) { return (declaration, .cdata) }
            if startsWith(commentOpen, in: base, at: declaration, count: count) { return (declaration, .comment) }
            position = declaration + markupDeclarationOpen.count
        }
        return found
    }

    private static let markupDeclarationOpen = Array("<!".utf8)

    /// Whether `base[at..<count]` starts with all of `needle`.
    private static func startsWith(_ needle: [UInt8], in base: UnsafePointer<UInt8>, at start: Int, count: Int) -> Bool
    {
        guard start + needle.count <= count else { return false }
        for offset in 0..<needle.count where base[start + offset] != needle[offset] { return false }
        return true
    }

    /// First occurrence of `needle` in `base[from..<count]`: memchr for its rarest byte (`!` or
    /// `?` after a `<`, the first of a closer; `<` would stop at every tag), then a byte
    /// comparison. glibc's
    /// memmem needs _GNU_SOURCE, which Swift's Glibc module does not set.
    private static func find(_ needle: [UInt8], in base: UnsafePointer<UInt8>, from: Int, count: Int) -> Int? {
        let anchor = needle.count > 1 && needle[0] == UInt8(ascii: "<") ? 1 : 0
        var position = from + anchor
        while position < count {
            guard let hit = memchr(base + position, Int32(needle[anchor]), count - position) else { return nil }
            let start = UnsafeRawPointer(hit) - UnsafeRawPointer(base) - anchor
            guard start + needle.count <= count else { return nil }
            var matches = true
            for offset in 0..<needle.count where base[start + offset] != needle[offset] {
                matches = false
                break
            }
            if matches { return start }
            position = start + anchor + 1
        }
        return nil
    }

    /// A `<` in the last bytes that starts an incomplete section opener (`<![CDATA[`, `<!--`,
    /// `<?`).
    private static func partialOpener(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        let count = bytes.count
        var position = max(start, count - (cdataOpen.count - 1))
        while position < count {
            if bytes[position] == UInt8(ascii: "<") {
                let tail = bytes[position..<count]
                for opener in openers
                where tail.count < opener.count && opener.starts(with: tail) {
                    return position
                }
            }
            position += 1
        }
        return nil
    }

    private static let escapedAmpersand = Array("&_amp;".utf8)

    /// True for the name of the reference a bare `&` was rewritten to.
    static func isBareAmpersandMarker(_ name: UnsafePointer<UInt8>) -> Bool {
        name[0] == UInt8(ascii: "_") && name[1] == UInt8(ascii: "a") && name[2] == UInt8(ascii: "m")
            && name[3] == UInt8(ascii: "p") && name[4] == 0
    }

    private enum Decision {
        case yes, no, undecided
    }

    /// Does the `&` at `start` begin `&#digits;`, `&#xhex;` or `&name;`?
    private static func startsReference(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> Decision {
        var index = start + 1
        guard index < bytes.count else { return .undecided }
        // `&lt;`, `&gt;` and `&amp;`, most of the references escaped HTML is made of, from one
        // 4-byte load (little-endian: the first byte is the lowest).
        if start + 5 <= bytes.count, let base = bytes.baseAddress {
            let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt32.self).littleEndian
            let three = word & 0x00FF_FFFF
            if three == 0x3B_74_6C || three == 0x3B_74_67 || word == 0x3B_70_6D_61 { return .yes }
        }
        if bytes[index] == UInt8(ascii: "#") {
            index += 1
            guard index < bytes.count else { return .undecided }
            var isHex = false
            if bytes[index] == UInt8(ascii: "x") {
                isHex = true
                index += 1
            }
            let digitsStart = index
            while index < bytes.count, index - start <= maxLookahead {
                let byte = bytes[index]
                if byte == UInt8(ascii: ";") { return index > digitsStart ? .yes : .no }
                let isDigit = byte.isASCIIDigit || (isHex && (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x66)
                if !isDigit { return .no }
                index += 1
            }
            return index - start > maxLookahead ? .yes : .undecided
        }
        guard isNameStart(bytes[index]) else { return .no }
        index += 1
        while index < bytes.count, index - start <= maxLookahead {
            let byte = bytes[index]
            if byte == UInt8(ascii: ";") { return .yes }
            if !isNameByte(byte) { return .no }
            index += 1
        }
        return index - start > maxLookahead ? .yes : .undecided
    }

    private static func isNameStart(_ byte: UInt8) -> Bool {
        byte.isASCIILetter || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ":") || byte >= 0x80
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        isNameStart(byte) || byte.isASCIIDigit || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
    }
}
