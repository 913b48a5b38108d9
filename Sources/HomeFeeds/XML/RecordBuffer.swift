/// A growable array of plain values for the SAX recorder's hot path: an append is a capacity
/// check and a store, without `Array`'s uniqueness check and growth calls (they were 27 of
/// the recorder's 60 samples per RSS parse under perf, issue 17).
///
/// Noncopyable: it owns its memory, freed in `deinit`. Not thread-safe: one owner.
struct RecordBuffer<Element: BitwiseCopyable>: ~Copyable {
    private var base: UnsafeMutablePointer<Element>
    private var capacity: Int
    private(set) var count = 0

    init(capacity: Int) {
        self.capacity = max(capacity, 16)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    var isEmpty: Bool { count == 0 }

    /// Forgets the elements; the memory is kept.
    mutating func removeAll() { count = 0 }

    @inline(__always)
    mutating func append(_ element: Element) {
        if count == capacity { grow() }
        (base + count).initialize(to: element)
        count += 1
    }

    @inline(__always)
    subscript(index: Int) -> Element {
        precondition(index >= 0 && index < count, "RecordBuffer index out of range")
        return base[index]
    }

    /// Changes the last element in place; there must be one.
    @inline(__always)
    mutating func updateLast(_ body: (inout Element) -> Void) {
        precondition(count > 0, "RecordBuffer is empty")
        body(&base[count - 1])
    }

    private mutating func grow() {
        capacity *= 2
        let newBase = UnsafeMutablePointer<Element>.allocate(capacity: capacity)
        newBase.initialize(from: base, count: count)
        base.deallocate()
        base = newBase
    }
}
