/// The upper half (0x80–0xFF) of a single-byte encoding decoded without iconv: windows-1252,
/// the most common legacy encoding of feeds (and what `iso-8859-1` and `us-ascii` mean on the
/// web), and WHATWG's `x-user-defined`. The lower half is ASCII.
struct SingleByteTable {
    /// The UTF-8 of each upper-half byte, three bytes per entry (unused bytes are 0), and its length.
    private let utf8: [UInt8]
    private let lengths: [UInt8]

    private init(scalars: (UInt8) -> UInt32) {
        var utf8: [UInt8] = []
        var lengths: [UInt8] = []
        utf8.reserveCapacity(128 * 3)
        for byte in UInt8(0x80)...UInt8(0xFF) {
            let scalar = Unicode.Scalar(scalars(byte)) ?? "\u{FFFD}"
            let encoded = Array(String(Character(scalar)).utf8)
            lengths.append(UInt8(encoded.count))
            utf8.append(contentsOf: encoded + Array(repeating: 0, count: 3 - encoded.count))
        }
        self.utf8 = utf8
        self.lengths = lengths
    }

    @inline(__always)
    func append(_ byte: UInt8, to out: inout [UInt8]) {
        let slot = Int(byte &- 0x80)
        let start = slot * 3
        out.append(utf8[start])
        if lengths[slot] > 1 { out.append(utf8[start + 1]) }
        if lengths[slot] > 2 { out.append(utf8[start + 2]) }
    }

    /// WHATWG `index-windows-1252`: 0x80–0x9F per the index (the five unassigned bytes map to
    /// the C1 control of the same value), 0xA0–0xFF to U+00A0–U+00FF.
    static let windows1252 = SingleByteTable { byte in
        guard byte < 0xA0 else { return UInt32(byte) }
        return HTMLEntities.windows1252C1(byte) ?? UInt32(byte)
    }

    /// WHATWG `x-user-defined`: byte b ≥ 0x80 is U+F780 + (b − 0x80).
    static let xUserDefined = SingleByteTable { byte in 0xF780 + UInt32(byte - 0x80) }
}
