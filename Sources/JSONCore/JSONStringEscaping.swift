private let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

/// Writes `utf8` in double quotes, escaped per RFC 8259 §7, at `destination`, which must have
/// room for `6 × utf8.count + 2` bytes (every byte a `\u00XX`): quote, backslash and the C0
/// controls (short forms where JSON has them, `\u00XX` otherwise). A NUL becomes `\u0000`, so
/// encoded text never contains Varlink's frame byte. Unescaped runs are copied whole.
///
/// Eight bytes at a time are passed over while none of them can need escaping (a SWAR test on
/// the whole word); only a word that may is looked at byte by byte.
/// Most text in a manifest or a feed needs no escape at all (callgrind, issue 17).
///
/// - Parameter escapingLineSeparators: also write U+2028 and U+2029 (UTF-8 `E2 80 A8`/`A9`) as
///   `\u2028`/`\u2029`: 3 bytes become 6, within the same worst-case room.
/// - Returns: the bytes written.
public func writeJSONString(
    _ utf8: UnsafeBufferPointer<UInt8>,
    to destination: UnsafeMutablePointer<UInt8>,
    escapingLineSeparators: Bool = false
) -> Int {
    var out = destination
    out.pointee = UInt8(ascii: "\"")
    out += 1
    guard let base = utf8.baseAddress else {
        out.pointee = UInt8(ascii: "\"")
        return 2
    }
    let count = utf8.count
    var runStart = 0
    var index = 0
    while index < count {
        while index &+ 8 <= count,
            !mayNeedEscaping(
                UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self),
                lineSeparators: escapingLineSeparators
            )
        {
            index &+= 8
        }
        // The word that may need a look (or the last few bytes), byte by byte; a line
        // separator may run past its end.
        let wordEnd = min(index &+ 8, count)
        while index < wordEnd {
            let byte = base[index]
            guard
                byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
                    || (escapingLineSeparators && byte == 0xE2)
            else {
                index += 1
                continue
            }
            let isLineSeparator =
                byte == 0xE2 && index + 2 < count && base[index + 1] == 0x80 && base[index + 2] & 0xFE == 0xA8
            if byte == 0xE2 && !isLineSeparator {
                index += 1
                continue
            }
            if index > runStart {
                out.update(from: base + runStart, count: index - runStart)
                out += index - runStart
            }
            if isLineSeparator {
                for (offset, character) in "\\u202".utf8.enumerated() { out[offset] = character }
                out[5] = base[index + 2] == 0xA8 ? UInt8(ascii: "8") : UInt8(ascii: "9")
                out += 6
                index += 3
            } else {
                out += writeEscape(byte, to: out)
                index += 1
            }
            runStart = index
        }
    }
    if count > runStart {
        out.update(from: base + runStart, count: count - runStart)
        out += count - runStart
    }
    out.pointee = UInt8(ascii: "\"")
    return out + 1 - destination
}

/// Whether any of the eight bytes of `word` may need escaping: a C0 control, a quote, a
/// backslash or, with `lineSeparators`, the lead byte `E2`. Never false when one does; true
/// only when one does (the borrow of the subtraction only starts at a matching byte).
@inline(__always)
private func mayNeedEscaping(_ word: UInt64, lineSeparators: Bool) -> Bool {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highBits: UInt64 = 0x8080_8080_8080_8080
    /// High bit set in a byte that was zero (exact as a whole: nonzero iff a byte is zero).
    func zeroBytes(_ value: UInt64) -> UInt64 { (value &- ones) & ~value & highBits }
    let controls = (word &- ones &* 0x20) & ~word & highBits
    var found = controls | zeroBytes(word ^ (ones &* 0x22)) | zeroBytes(word ^ (ones &* 0x5C))
    if lineSeparators { found |= zeroBytes(word ^ (ones &* 0xE2)) }
    return found != 0
}

/// Writes the escape of `byte` (2 or 6 bytes) at `destination`; returns its length.
private func writeEscape(_ byte: UInt8, to destination: UnsafeMutablePointer<UInt8>) -> Int {
    destination[0] = UInt8(ascii: "\\")
    switch byte {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"): destination[1] = byte
    case 0x0A: destination[1] = UInt8(ascii: "n")
    case 0x0D: destination[1] = UInt8(ascii: "r")
    case 0x09: destination[1] = UInt8(ascii: "t")
    case 0x08: destination[1] = UInt8(ascii: "b")
    case 0x0C: destination[1] = UInt8(ascii: "f")
    default:
        destination[1] = UInt8(ascii: "u")
        destination[2] = UInt8(ascii: "0")
        destination[3] = UInt8(ascii: "0")
        destination[4] = hexDigits[Int(byte >> 4)]
        destination[5] = hexDigits[Int(byte & 0xF)]
        return 6
    }
    return 2
}
