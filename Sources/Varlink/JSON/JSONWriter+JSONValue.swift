import JSONCore

/// Varlink's values through JSONCore's writer, compact and deterministic: object keys are
/// written sorted by code point (UTF-8 byte order is code point order), so equal values always
/// give equal bytes, as `JSONEncoder` with `.sortedKeys` does (swift-on-linux.md §7).
extension JSONWriter {
    /// Writes `value`.
    mutating func value(_ value: JSONValue) {
        switch value {
        case .null: null()
        case .bool(let b): bool(b)
        case .int(let i): int(i)
        case .double(let d): number(d)
        case .string(let s): string(s)
        case .array(let elements):
            beginArray()
            for element in elements { self.value(element) }
            endArray()
        case .object(let members):
            object(members)
        }
    }

    /// Writes an object with its keys sorted by code point.
    mutating func object(_ members: [String: JSONValue]) {
        beginObject()
        if members.count == 1, let (key, value) = members.first {
            self.key(escaping: key)
            self.value(value)
        } else {
            // The members themselves, sorted: no look-up (and no hashing) per key.
            for member in members.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }) {
                key(escaping: member.key)
                self.value(member.value)
            }
        }
        endObject()
    }
}
