import JSONCore

/// Appends compact JSON to a byte buffer: the encoder for Varlink messages.
///
/// Compact (no whitespace) and deterministic: object keys are written sorted by code point
/// (UTF-8 byte order is code point order), so equal values always give equal bytes, as
/// `JSONEncoder` with `.sortedKeys` does (swift-on-linux.md §7). Integers are printed digit by
/// digit without allocating; doubles in the shortest form that reads back to the same value.
struct JSONWriter {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
    }

    /// Appends `value`.
    mutating func value(_ value: JSONValue) {
        switch value {
        case .null: appendASCII("null")
        case .bool(let b): appendASCII(b ? "true" : "false")
        case .int(let i): appendInteger(i)
        case .double(let d): appendDouble(d)
        case .string(let s): string(s)
        case .array(let elements):
            bytes.append(UInt8(ascii: "["))
            for (i, element) in elements.enumerated() {
                if i > 0 { bytes.append(UInt8(ascii: ",")) }
                self.value(element)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let members):
            object(members)
        }
    }

    /// Appends an object with its keys sorted by code point.
    mutating func object(_ members: [String: JSONValue]) {
        bytes.append(UInt8(ascii: "{"))
        if members.count == 1, let (key, value) = members.first {
            string(key)
            bytes.append(UInt8(ascii: ":"))
            self.value(value)
        } else {
            // The members themselves, sorted: no look-up (and no hashing) per key.
            let sorted = members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
            for (i, member) in sorted.enumerated() {
                if i > 0 { bytes.append(UInt8(ascii: ",")) }
                string(member.key)
                bytes.append(UInt8(ascii: ":"))
                self.value(member.value)
            }
        }
        bytes.append(UInt8(ascii: "}"))
    }

    /// Appends bytes that are already JSON, unchanged.
    mutating func raw(_ encoded: [UInt8]) {
        bytes.append(contentsOf: encoded)
    }

    /// Appends an ASCII literal, e.g. a key with its quotes and colon.
    mutating func appendASCII(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    // MARK: - Scalars

    /// A double as JSON: integral values without `.0`, others in the shortest round-trip form
    /// (`Double.description`), `-0` as `0`, and `null` for NaN or infinity, which JSON cannot
    /// express.
    private mutating func appendDouble(_ value: Double) {
        guard value.isFinite else {
            appendASCII("null")
            return
        }
        // Below 2^53 every integer is exact, and Double.description would print it as "375.0".
        if value.magnitude < 9_007_199_254_740_992, value == value.rounded(.towardZero) {
            appendInteger(Int(value))
            return
        }
        let text = value.description
        bytes.append(contentsOf: text.hasSuffix(".0") ? text.utf8.dropLast(2) : text.utf8[...])
    }

    private mutating func appendInteger(_ value: Int) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        // Digits right to left into a fixed buffer; UInt64.max has 20 digits.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var position = 20
            repeat {
                position -= 1
                digits[position] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[position..<20]))
        }
    }

    /// `value` in double quotes, escaped per RFC 8259 §7 (JSONCore's escaping). A NUL inside
    /// a string becomes `\u0000`, so encoded text never contains the frame byte.
    mutating func string(_ value: String) {
        appendJSONString(value, to: &bytes)
    }
}
