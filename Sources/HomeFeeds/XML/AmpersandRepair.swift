/// Rewrites bare `&` (one that starts no valid reference) to `&amp;` before libxml2 sees it.
///
/// Feeds are full of `AT&T` and unescaped `?a=1&b=2` in URLs. libxml2 2.9.14 in RECOVER mode
/// drops such an `&` together with the name after it (`a?b=1=2`), which breaks §2 rule 4 ("a
/// bare `&` is a literal `&`") and corrupts enclosure URLs. CDATA sections are left alone.
///
/// Streaming: bytes that cannot be decided yet (an `&` or `<` near the end of a chunk) are kept
/// for the next call. Only for ASCII-compatible encodings (UTF-8, ISO-8859-x, windows-1252,
/// EUC-KR), where byte 0x26 is always `&`; the caller skips it for UTF-16/32.
struct AmpersandRepair {
    private var carry: [UInt8] = []
    private var inCDATA = false

    /// A reference name longer than this is left for libxml2 to judge.
    private static let maxLookahead = 64
    private static let cdataOpen = Array("<![CDATA[".utf8)

    /// Appends the repaired form of `input` to `out`.
    mutating func process(_ input: UnsafeRawBufferPointer, into out: inout [UInt8]) {
        if carry.isEmpty {
            scan(input.assumingMemoryBound(to: UInt8.self), isFinal: false, into: &out)
        } else {
            var joined = carry
            joined.append(contentsOf: input)
            carry.removeAll()
            joined.withUnsafeBufferPointer { scan($0, isFinal: false, into: &out) }
        }
    }

    /// Flushes whatever was held back, at the end of the body.
    mutating func finish(into out: inout [UInt8]) {
        let rest = carry
        carry.removeAll()
        rest.withUnsafeBufferPointer { scan($0, isFinal: true, into: &out) }
    }

    private mutating func scan(_ bytes: UnsafeBufferPointer<UInt8>, isFinal: Bool, into out: inout [UInt8]) {
        let count = bytes.count
        var copied = 0
        var index = 0
        while index < count {
            if inCDATA {
                guard let close = Self.findCDATAEnd(bytes, from: index) else {
                    // Keep the last two bytes: "]]>" may straddle the chunks.
                    let keep = isFinal ? count : max(index, count - 2)
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied..<keep]))
                    carry.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[keep..<count]))
                    return
                }
                index = close + 3
                inCDATA = false
                continue
            }
            let byte = bytes[index]
            if byte == UInt8(ascii: "<") {
                switch Self.matchCDATAOpen(bytes, at: index) {
                case .yes:
                    index += Self.cdataOpen.count
                    inCDATA = true
                case .no:
                    index += 1
                case .undecided where !isFinal:
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied..<index]))
                    carry.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index..<count]))
                    return
                case .undecided:
                    index += 1
                }
            } else if byte == UInt8(ascii: "&") {
                let decision = Self.startsReference(bytes, at: index)
                if decision == .yes {
                    index += 1
                } else if decision == .undecided && !isFinal {
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied..<index]))
                    carry.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index..<count]))
                    return
                } else {
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied..<index]))
                    out.append(contentsOf: Self.escapedAmpersand)
                    index += 1
                    copied = index
                }
            } else {
                index += 1
            }
        }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied..<count]))
    }

    private static let escapedAmpersand = Array("&amp;".utf8)

    private enum Decision {
        case yes, no, undecided
    }

    private static func matchCDATAOpen(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> Decision {
        for offset in 0..<cdataOpen.count {
            guard start + offset < bytes.count else { return .undecided }
            if bytes[start + offset] != cdataOpen[offset] { return .no }
        }
        return .yes
    }

    private static func findCDATAEnd(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        var index = start
        while index + 2 < bytes.count {
            if bytes[index] == UInt8(ascii: "]") && bytes[index + 1] == UInt8(ascii: "]")
                && bytes[index + 2] == UInt8(ascii: ">")
            {
                return index
            }
            index += 1
        }
        return nil
    }

    /// Does the `&` at `start` begin `&#digits;`, `&#xhex;` or `&name;`?
    private static func startsReference(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> Decision {
        var index = start + 1
        guard index < bytes.count else { return .undecided }
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
