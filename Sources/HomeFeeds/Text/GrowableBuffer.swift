import JSONCore

/// A growable array of plain values for the parser's hot paths: an append is a capacity check
/// and a store or a copy, without `Array`'s uniqueness check, growth calls and generic
/// `append(contentsOf:)` (about 90 instructions an append before the copy; plain-text
/// normalisation makes 18 of them per RSS item, and the SAX recorder one per event: issue 17).
///
/// Noncopyable: it owns its memory, freed in `deinit`. Not thread-safe: one owner.
struct GrowableBuffer<Element: BitwiseCopyable>: ~Copyable {
    private var base: UnsafeMutablePointer<Element>
    private var capacity: Int
    private(set) var count = 0

    init(capacity: Int) {
        self.capacity = max(capacity, 16)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    var isEmpty: Bool { count == 0 }

    /// Forgets the contents; the memory is kept for the next use.
    mutating func removeAll() { count = 0 }

    /// The contents, for reading while the buffer is not changed.
    func withUnsafeBufferPointer<Result, Failure>(
        _ body: (UnsafeBufferPointer<Element>) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try body(UnsafeBufferPointer(start: base, count: count))
    }

    /// The first element's address, for reading the contents across calls while nothing is
    /// appended (an append may move them): `SAXRecorder` reads its recorded events through it.
    var baseAddress: UnsafePointer<Element> { UnsafePointer(base) }

    @inline(__always)
    subscript(index: Int) -> Element {
        precondition(index >= 0 && index < count, "GrowableBuffer index out of range")
        return base[index]
    }

    @inline(__always)
    mutating func append(_ element: Element) {
        if count == capacity { grow(to: count + 1) }
        (base + count).initialize(to: element)
        count += 1
    }

    @inline(__always)
    mutating func append(_ elements: UnsafeBufferPointer<Element>) {
        guard let source = elements.baseAddress, !elements.isEmpty else { return }
        // One element (`&lt;` and the like reach the parser's text one byte at a time): no
        // memcpy call.
        if elements.count == 1 { return append(source.pointee) }
        if count + elements.count > capacity { grow(to: count + elements.count) }
        let byteCount = elements.count &* MemoryLayout<Element>.stride
        if byteCount <= 16 {
            Self.copySmall(
                from: UnsafeRawPointer(source),
                to: UnsafeMutableRawPointer(base + count),
                byteCount: byteCount
            )
        } else {
            (base + count).initialize(from: source, count: elements.count)
        }
        count += elements.count
    }

    /// Copies 2–16 bytes with two loads and two stores that overlap in the middle, instead of
    /// a call to `memcpy`, whose dispatch on the size mispredicts when sizes vary: the parser's
    /// text arrives in pieces of a few bytes, 19 of them per RSS item (issue 17). Reads and
    /// writes only the `byteCount` bytes at each end.
    @inline(__always)
    private static func copySmall(from source: UnsafeRawPointer, to target: UnsafeMutableRawPointer, byteCount: Int) {
        if byteCount >= 8 {
            let head = source.loadUnaligned(as: UInt64.self)
            let tail = source.loadUnaligned(fromByteOffset: byteCount &- 8, as: UInt64.self)
            target.storeBytes(of: head, as: UInt64.self)
            target.storeBytes(of: tail, toByteOffset: byteCount &- 8, as: UInt64.self)
        } else if byteCount >= 4 {
            let head = source.loadUnaligned(as: UInt32.self)
            let tail = source.loadUnaligned(fromByteOffset: byteCount &- 4, as: UInt32.self)
            target.storeBytes(of: head, as: UInt32.self)
            target.storeBytes(of: tail, toByteOffset: byteCount &- 4, as: UInt32.self)
        } else {
            let head = source.loadUnaligned(as: UInt16.self)
            let tail = source.loadUnaligned(fromByteOffset: byteCount &- 2, as: UInt16.self)
            target.storeBytes(of: head, as: UInt16.self)
            target.storeBytes(of: tail, toByteOffset: byteCount &- 2, as: UInt16.self)
        }
    }

    /// Changes the last element in place; there must be one.
    @inline(__always)
    mutating func updateLast(_ body: (inout Element) -> Void) {
        precondition(count > 0, "GrowableBuffer is empty")
        body(&base[count - 1])
    }

    private mutating func grow(to needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let newBase = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
        newBase.initialize(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }
}

/// The captured text of a field, a plain-text result, the SAX recorder's copies.
typealias ByteBuffer = GrowableBuffer<UInt8>

extension GrowableBuffer where Element == UInt8 {
    /// Replaces the contents by `bytes`.
    mutating func replace(with bytes: [UInt8]) {
        removeAll()
        bytes.withUnsafeBufferPointer { append($0) }
    }

    /// The bytes as a `String`: invalid UTF-8 is repaired, unless the caller knows there is none
    /// (`isValidUTF8`, see `String(validUTF8:)`), which skips checking every byte again.
    func string(isValidUTF8: Bool = false) -> String {
        withUnsafeBufferPointer { bytes in
            isValidUTF8 ? String(validUTF8: bytes) : String(decoding: bytes, as: UTF8.self)
        }
    }
}
