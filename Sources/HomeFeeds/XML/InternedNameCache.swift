/// The classification of the element names and namespace URIs libxml2 hands to `startElement`,
/// remembered by address.
///
/// libxml2's SAX2 parser interns every element name and namespace URI in its parser dictionary:
/// one name, one address, for as long as the parser lives, and the dictionary never frees or
/// reuses a string before the parser is freed (after the builder is done with it). So an
/// address seen once classifies the same way every time, and a feed's few dozen names are
/// classified once each instead of by `strlen` and byte comparisons on every element.
///
/// Direct-mapped on the address bits; a collision only costs the classification again.
struct InternedNameCache {
    private var names = AddressTable<XMLName>()
    private var namespaces = AddressTable<XMLNamespace>()

    /// `XMLName.classify(name)`, for a name interned by the parser.
    mutating func name(_ name: UnsafePointer<UInt8>) -> XMLName {
        names.value(for: name, XMLName.classify)
    }

    /// `XMLNamespace.classify(uri)`, for a URI interned by the parser (nil: no namespace).
    mutating func namespace(_ uri: UnsafePointer<UInt8>?) -> XMLNamespace {
        guard let uri else { return .rssCore }
        return namespaces.value(for: uri, XMLNamespace.classify)
    }

    /// 32 slots of address and value, direct-mapped.
    private struct AddressTable<Value> {
        private static var size: Int { 32 }
        private var addresses = [UnsafePointer<UInt8>?](repeating: nil, count: size)
        private var values: [Value?] = Array(repeating: nil, count: size)

        @inline(__always)
        mutating func value(for address: UnsafePointer<UInt8>, _ classify: (UnsafePointer<UInt8>) -> Value) -> Value {
            let slot = Self.slot(address)
            if addresses[slot] == address, let value = values[slot] { return value }
            let value = classify(address)
            addresses[slot] = address
            values[slot] = value
            return value
        }

        /// Dictionary strings are at least byte-aligned and packed; dropping the lowest bits
        /// would put neighbours in one slot, so the address is mixed first.
        private static func slot(_ pointer: UnsafePointer<UInt8>) -> Int {
            let bits = UInt(bitPattern: pointer)
            return Int(truncatingIfNeeded: (bits ^ (bits >> 5) ^ (bits >> 11)) & UInt(size - 1))
        }
    }
}
