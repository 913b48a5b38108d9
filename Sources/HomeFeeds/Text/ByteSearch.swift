internal import Glibc

extension UnsafeBufferPointer<UInt8> {
    /// The index of the first `byte` in `start..<end` (to the buffer's end by default), found
    /// with `memchr`: markup scanners skip text this way, most of which holds no byte they want.
    func index(of byte: UInt8, from start: Int, before end: Int? = nil) -> Int? {
        let end = Swift.min(end ?? count, count)
        guard start >= 0, start < end, let base = baseAddress,
            let found = memchr(base + start, Int32(byte), end - start)
        else { return nil }
        return UnsafeRawPointer(found) - UnsafeRawPointer(base)
    }
}

extension UnsafeBufferPointer<UInt8> {
    /// The bytes without leading and trailing ASCII white space (space, tab, LF, CR, FF) and
    /// NBSP (C2 A0): the set `URIReference.trimASCIIAndNBSP` trims, on bytes, before any String
    /// is made (captured ids and links, attribute values).
    func trimmingASCIIAndNBSP() -> UnsafeBufferPointer<UInt8> {
        @inline(__always) func isSpace(_ byte: UInt8) -> Bool {
            byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0C
        }
        var start = 0
        var end = count
        while start < end {
            if isSpace(self[start]) {
                start += 1
            } else if self[start] == 0xC2 && start + 1 < end && self[start + 1] == 0xA0 {
                start += 2
            } else {
                break
            }
        }
        while end > start {
            if isSpace(self[end - 1]) {
                end -= 1
            } else if end - 2 >= start && self[end - 2] == 0xC2 && self[end - 1] == 0xA0 {
                end -= 2
            } else {
                break
            }
        }
        return UnsafeBufferPointer(rebasing: self[start..<end])
    }
}
