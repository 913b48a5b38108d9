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
