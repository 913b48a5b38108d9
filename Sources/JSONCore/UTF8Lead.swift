/// What a UTF-8 lead byte promises, per the Unicode table of well-formed byte sequences
/// (Table 3-7): how long its sequence is and the range its second byte must fall in, which is
/// where overlongs, surrogates and code points above U+10FFFF are ruled out (every later byte
/// is 0x80–0xBF). Written once for the JSON scanner and the feed parser's byte sanitizer.
public struct UTF8Lead: Sendable {
    /// Bytes in the whole sequence, the lead included: 2, 3 or 4.
    public let length: Int
    /// The bytes the second one may be.
    public let second: ClosedRange<UInt8>

    /// Nil for a byte no multi-byte sequence starts with (ASCII, a continuation byte, 0xC0,
    /// 0xC1, 0xF5–0xFF).
    @inlinable
    public init?(_ byte: UInt8) {
        switch byte {
        case 0xC2...0xDF: (length, second) = (2, 0x80...0xBF)
        case 0xE0: (length, second) = (3, 0xA0...0xBF)
        case 0xE1...0xEC, 0xEE...0xEF: (length, second) = (3, 0x80...0xBF)
        case 0xED: (length, second) = (3, 0x80...0x9F)
        case 0xF0: (length, second) = (4, 0x90...0xBF)
        case 0xF1...0xF3: (length, second) = (4, 0x80...0xBF)
        case 0xF4: (length, second) = (4, 0x80...0x8F)
        default: return nil
        }
    }
}
