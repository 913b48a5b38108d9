/// Base64 (RFC 4648 §4) for Atom content that carries it (Atom 0.3 `mode="base64"`, binary
/// Atom content): whitespace anywhere is ignored, padding is optional, anything else fails.
enum Base64 {
    /// The decoded bytes, or nil when `text` is not base64.
    static func decode(_ text: [UInt8]) -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(text.count / 4 * 3)
        var accumulator: UInt32 = 0
        var bits = 0
        var padding = 0
        for byte in text {
            if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { continue }
            if byte == UInt8(ascii: "=") {
                padding += 1
                continue
            }
            // Data after padding, or a byte outside the alphabet.
            guard padding == 0, let value = sextet(byte) else { return nil }
            accumulator = accumulator << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
            }
        }
        // 6 leftover bits cannot be a whole byte: a length of 4n + 1 characters.
        guard bits < 6, padding <= 2 else { return nil }
        return out
    }

    private static func sextet(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): return byte - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): return byte - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0") + 52
        case UInt8(ascii: "+"), UInt8(ascii: "-"): return 62
        case UInt8(ascii: "/"), UInt8(ascii: "_"): return 63
        default: return nil
        }
    }
}
