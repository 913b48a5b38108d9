import Testing

@testable import HomeFeeds

/// `GrowableBuffer`'s appends: small ones are copied with overlapping loads and stores
/// (`copySmall`), larger ones with `memcpy`; both must keep exactly the bytes appended.
@Suite struct GrowableBufferTests {
    @Test("appends of 0 to 40 bytes after 0 to 19 bytes keep exactly those bytes, through growth")
    func byteAppends() {
        var wrong: [String] = []
        for prefix in 0..<20 {
            for length in 0...40 {
                var buffer = ByteBuffer(capacity: 16)
                let before = (0..<prefix).map { UInt8(truncatingIfNeeded: 200 &+ $0) }
                let appended = (0..<length).map { UInt8(truncatingIfNeeded: 1 &+ $0 &* 7) }
                before.withUnsafeBufferPointer { buffer.append($0) }
                appended.withUnsafeBufferPointer { buffer.append($0) }
                buffer.append(0xEE)
                let contents = buffer.withUnsafeBufferPointer { Array($0) }
                if contents != before + appended + [0xEE] { wrong.append("\(prefix)+\(length)") }
            }
        }
        #expect(wrong.isEmpty, "\(wrong.prefix(5))")
    }

    @Test("an append writes nothing past its last byte")
    func nothingWrittenPastTheEnd() {
        var wrong: [String] = []
        for prefix in 0..<20 {
            for length in 2...17 {
                // 64 bytes of 0xCC kept in the buffer's memory once it is emptied.
                var buffer = ByteBuffer(capacity: 64)
                let filler = [UInt8](repeating: 0xCC, count: 64)
                filler.withUnsafeBufferPointer { buffer.append($0) }
                buffer.removeAll()
                let bytes = [UInt8](repeating: 0x11, count: prefix) + [UInt8](repeating: 0x22, count: length)
                bytes.withUnsafeBufferPointer { buffer.append($0) }
                let rest = UnsafeBufferPointer(start: buffer.baseAddress + buffer.count, count: 64 - buffer.count)
                if rest.contains(where: { $0 != 0xCC }) { wrong.append("\(prefix)+\(length)") }
            }
        }
        #expect(wrong.isEmpty, "\(wrong.prefix(5))")
    }

    @Test("appends of wider elements (4 to 24 bytes) keep exactly those elements")
    func wideAppends() {
        for count in 2...6 {
            var buffer = GrowableBuffer<UInt32>(capacity: 16)
            buffer.append(0xAAAA_AAAA)
            let elements = (0..<count).map { UInt32(0x0102_0304) &* UInt32($0 + 1) }
            elements.withUnsafeBufferPointer { buffer.append($0) }
            #expect(buffer.withUnsafeBufferPointer { Array($0) } == [0xAAAA_AAAA] + elements)
        }
        for count in 2...3 {
            var buffer = GrowableBuffer<UInt16>(capacity: 16)
            buffer.append(0xAAAA)
            let elements = (0..<count).map { UInt16(0x0102) &* UInt16($0 + 1) }
            elements.withUnsafeBufferPointer { buffer.append($0) }
            #expect(buffer.withUnsafeBufferPointer { Array($0) } == [0xAAAA] + elements)
        }
    }
}
