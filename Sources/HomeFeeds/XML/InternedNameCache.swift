/// The classification of the element names and namespace URIs libxml2 hands to `startElement`,
/// remembered by address.
///
/// libxml2's SAX2 parser interns every element name and namespace URI in its parser dictionary:
/// one name, one address, for as long as the parser lives, and the dictionary never frees or
/// reuses a string before the parser is freed (after the builder is done with it). So an
/// address seen once classifies the same way every time, and a feed's few dozen names are
/// classified once each instead of by `strlen` and byte comparisons on every element.
///
/// Looked up twice per element (the recorder's container test and the builder's start), so the
/// hit is inlined and the rest is not. Noncopyable: it owns the tables' memory, and frees it
/// itself. While the table was a private generic noncopyable struct with a `deinit` of its own,
/// its destroy witness called itself forever in the `make fuzz` build (Swift 6.3.1, `-O
/// -sanitize=fuzzer,address`), hanging every XML parse at its end; `GrowableBuffer`, public and
/// of the same shape, was not affected, and the cause was not narrowed further. The tables are
/// plain values.
struct InternedNameCache: ~Copyable {
    private var names = AddressTable<XMLName>()
    private var namespaces = AddressTable<XMLNamespace>()

    deinit {
        names.deallocate()
        namespaces.deallocate()
    }

    /// `XMLName.classify(name)`, for a name interned by the parser.
    @inline(__always)
    mutating func name(_ name: UnsafePointer<UInt8>) -> XMLName {
        names.cachedValue(for: name) ?? names.classify(name, XMLName.classify)
    }

    /// `XMLNamespace.classify(uri)`, for a URI interned by the parser (nil: no namespace).
    @inline(__always)
    mutating func namespace(_ uri: UnsafePointer<UInt8>?) -> XMLNamespace {
        guard let uri else { return .rssCore }
        return namespaces.cachedValue(for: uri) ?? namespaces.classify(uri, XMLNamespace.classify)
    }
}

/// 64 slots of address and value, open addressing with a few linear probes: a feed's names
/// each keep a slot of their own. Direct-mapped on 32 slots, two of the ~12 names of an RSS
/// item shared one and evicted each other four times an item (callgrind: 80 000 misses in a
/// 20 000-item document, a third of the lookups' cost; issue 17). A name whose probes find
/// neither it nor a free slot takes its first slot: a document of many names costs their
/// classification again, never a wrong answer, since the value depends on the address alone.
///
/// Copyable, so it does not free its slots: its owner calls `deallocate()` once.
private struct AddressTable<Value: BitwiseCopyable> {
    private struct Slot {
        var address: UnsafePointer<UInt8>
        var value: Value
    }

    /// 2^6 slots: the hash keeps the top 6 bits.
    private static var size: Int { 64 }
    private static var probes: Int { 4 }
    /// `size` slots, then `probes - 1` more, so that a probe never wraps around.
    private let slots: UnsafeMutablePointer<Slot?>

    init() {
        let count = Self.size + Self.probes - 1
        slots = .allocate(capacity: count)
        slots.initialize(repeating: nil, count: count)
    }

    func deallocate() { slots.deallocate() }

    @inline(__always)
    func cachedValue(for address: UnsafePointer<UInt8>) -> Value? {
        let first = Self.slot(address)
        for index in first..<first &+ Self.probes {
            guard let slot = slots[index] else { return nil }
            if slot.address == address { return slot.value }
        }
        return nil
    }

    /// A miss: `classify(address)`, kept. Not inlined, so that the inlined hit stays small.
    @inline(never)
    mutating func classify(
        _ address: UnsafePointer<UInt8>,
        _ classify: (UnsafePointer<UInt8>) -> Value
    ) -> Value {
        let value = classify(address)
        insert(value, for: address)
        return value
    }

    private mutating func insert(_ value: Value, for address: UnsafePointer<UInt8>) {
        let first = Self.slot(address)
        var target = first
        for index in first..<first &+ Self.probes where slots[index] == nil {
            target = index
            break
        }
        slots[target] = Slot(address: address, value: value)
    }

    /// Fibonacci hashing: dictionary strings are packed, a few bytes apart, and the multiply
    /// carries every address bit into the top bits taken.
    @inline(__always)
    private static func slot(_ pointer: UnsafePointer<UInt8>) -> Int {
        let bits = UInt64(UInt(bitPattern: pointer))
        return Int(truncatingIfNeeded: (bits &* 0x9E37_79B9_7F4A_7C15) >> 58)
    }
}
