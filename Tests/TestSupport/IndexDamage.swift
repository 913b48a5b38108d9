import Foundation

/// Damage that SQLite's `quick_check` does not see: an index entry whose key no longer matches
/// its table row, on a page that stays well-formed. `integrity_check` reports it (`row N missing
/// from index I`), and a write that deletes the row fails with `SQLITE_CORRUPT_INDEX`.
public enum IndexDamage {
    /// Moves the first key (the smallest) of a leaf page of an index by one, in place: the low
    /// bit of its first column, which must be an integer (serial types 1 to 6). Pages are
    /// 4 096 bytes, counted from 1 (`sqlite_schema.rootpage` of a small index is its leaf). No
    /// connection may have the file open, and its write-ahead log must be checkpointed.
    public static func shiftFirstKey(onLeafPage page: Int, of path: String) throws {
        let url = URL(fileURLWithPath: path)
        var bytes = try Data(contentsOf: url)
        let start = (page - 1) * 4096
        let header = start + (page == 1 ? 100 : 0)
        guard bytes.count >= start + 4096, bytes[header] == 0x0A else {
            throw FixtureError("\(path): page \(page) is not a leaf page of an index")
        }
        // The cell pointer array follows the 8-byte leaf header; the first cell is the smallest.
        var offset = start + (Int(bytes[header + 8]) << 8 | Int(bytes[header + 9]))
        _ = varint(bytes, &offset)  // payload size
        let record = offset
        let headerSize = varint(bytes, &offset)
        let serialType = varint(bytes, &offset)
        let sizes = [1: 1, 2: 2, 3: 3, 4: 4, 5: 6, 6: 8]
        guard let size = sizes[serialType] else {
            throw FixtureError("\(path): the first key on page \(page) is not an integer (serial type \(serialType))")
        }
        bytes[record + headerSize + size - 1] ^= 1
        try bytes.write(to: url)
    }

    /// An SQLite varint at `offset` (big-endian, 7 bits a byte, at most 9 bytes), moving past it.
    private static func varint(_ bytes: Data, _ offset: inout Int) -> Int {
        var value = 0
        for index in 0..<9 {
            let byte = Int(bytes[offset])
            offset += 1
            if index == 8 { return (value << 8) | byte }
            value = (value << 7) | (byte & 0x7F)
            if byte < 0x80 { return value }
        }
        return value
    }
}
