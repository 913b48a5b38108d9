/// The content hash of a notice: 64 bits over its title, link, published time and summary,
/// so an ingest can tell "unchanged" from "updated" without reading the stored text.
///
/// A multiply–xorshift over little-endian 8-byte words (8× fewer multiplications than
/// byte-wise FNV-1a; the 20 000-entry re-ingest hashes ~12 MB). Each field is preceded by a
/// presence tag and followed by its length, so `("ab", nil)` and `("a", "b")` differ. The
/// value is stored, so the function must never change: a change would mark every stored
/// notice as updated once. Not cryptographic; a collision only hides one edit.
enum ContentHash {
    static func of(_ entry: NoticeInput, publishedSeconds: Int64?) -> Int64 {
        var state: UInt64 = 0x6866_6431_7374_6f72
        mix(&state, entry.title)
        mix(&state, entry.link)
        if let publishedSeconds {
            mix(&state, word: 1)
            mix(&state, word: UInt64(bitPattern: publishedSeconds))
        } else {
            mix(&state, word: 0)
        }
        mix(&state, entry.summary)
        // Final avalanche (the MurmurHash3 64-bit finalizer).
        state ^= state >> 33
        state &*= 0xff51_afd7_ed55_8ccd
        state ^= state >> 33
        state &*= 0xc4ce_b9fe_1a85_ec53
        state ^= state >> 33
        return Int64(bitPattern: state)
    }

    private static func mix(_ state: inout UInt64, word: UInt64) {
        state = (state ^ word) &* 0x9E37_79B9_7F4A_7C15
        state ^= state >> 29
    }

    private static func mix(_ state: inout UInt64, _ text: String?) {
        guard var text else {
            mix(&state, word: 0)
            return
        }
        mix(&state, word: 1)
        text.withUTF8 { bytes in
            let raw = UnsafeRawBufferPointer(bytes)
            var offset = 0
            while offset + 8 <= raw.count {
                mix(&state, word: UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
                offset += 8
            }
            var tail: UInt64 = 0
            var shift: UInt64 = 0
            while offset < raw.count {
                tail |= UInt64(raw[offset]) << shift
                shift += 8
                offset += 1
            }
            mix(&state, word: tail)
            mix(&state, word: UInt64(raw.count))
        }
    }
}
