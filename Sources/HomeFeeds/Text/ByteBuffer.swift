import JSONCore

/// A growable byte buffer for the parser's hot paths: appends are a capacity check and a copy,
/// without `Array`'s uniqueness check and generic `append(contentsOf:)` (about 90 instructions
/// an append before the copy; plain-text normalisation makes 18 of them per RSS item, issue 17).
///
/// Noncopyable: it owns its memory, freed in `deinit`. Not thread-safe: one owner.
struct ByteBuffer: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private(set) var count = 0

    init(capacity: Int = 4096) {
        self.capacity = max(capacity, 16)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    var isEmpty: Bool { count == 0 }

    /// Forgets the contents; the memory is kept for the next use.
    mutating func removeAll() { count = 0 }

    /// The contents, for reading while the buffer is not changed.
    func withUnsafeBufferPointer<Result, Failure>(
        _ body: (UnsafeBufferPointer<UInt8>) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try body(UnsafeBufferPointer(start: base, count: count))
    }

    /// The first byte's address, for reading the contents across calls while nothing is appended
    /// (an append may move them): `SAXRecorder` reads its recorded events through it.
    var baseAddress: UnsafePointer<UInt8> { UnsafePointer(base) }

    /// Replaces the contents by `bytes`.
    mutating func replace(with bytes: [UInt8]) {
        removeAll()
        bytes.withUnsafeBufferPointer { append($0) }
    }

    @inline(__always)
    mutating func append(_ byte: UInt8) {
        if count == capacity { grow(to: count + 1) }
        base[count] = byte
        count += 1
    }

    @inline(__always)
    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        // One byte (`&lt;` and the like reach the parser's text one at a time): no memcpy call.
        if bytes.count == 1 { return append(source.pointee) }
        if count + bytes.count > capacity { grow(to: count + bytes.count) }
        (base + count).update(from: source, count: bytes.count)
        count += bytes.count
    }

    /// The bytes as a `String`: invalid UTF-8 is repaired, unless the caller knows there is none
    /// (`isValidUTF8`, see `String(validUTF8:)`), which skips checking every byte again.
    func string(isValidUTF8: Bool = false) -> String {
        let bytes = UnsafeBufferPointer(start: base, count: count)
        return isValidUTF8 ? String(validUTF8: bytes) : String(decoding: bytes, as: UTF8.self)
    }

    private mutating func grow(to needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.update(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }
}
