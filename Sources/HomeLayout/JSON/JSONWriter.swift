import JSONCore

/// Appends JSON text to a byte buffer; the encoder behind ``LayoutResult/jsonString(pretty:)``.
///
/// Built for large outputs (a 100 000-item section): everything goes into one `[UInt8]`,
/// integers are printed digit by digit and short decimals (up to three places) without
/// allocating. Commas are managed by the writer; keys are written in the order called.
///
/// Pretty output indents containers by two spaces, one member or element per line, except
/// inside a container begun with `inline: true`, which stays on one line (`{"x": 0, "y": 0}`).
/// Compact output has no whitespace at all.
package struct JSONWriter {
    package private(set) var bytes: [UInt8] = []
    package let pretty: Bool
    private var depth = 0
    /// Depth at which the current one-line container began; `Int.max` when not inline.
    private var inlineDepth = Int.max
    /// Whether the current container already holds a value (so the next one needs a comma).
    private var hasValue = false

    package init(pretty: Bool, capacity: Int = 0) {
        self.pretty = pretty
        bytes.reserveCapacity(capacity)
    }

    // MARK: - Structure

    package mutating func beginObject(inline: Bool = false) { begin(UInt8(ascii: "{"), inline: inline) }
    package mutating func endObject() { end(UInt8(ascii: "}")) }
    package mutating func beginArray(inline: Bool = false) { begin(UInt8(ascii: "["), inline: inline) }
    package mutating func endArray() { end(UInt8(ascii: "]")) }

    /// Writes `"name": ` (the value follows with the next call).
    package mutating func key(_ name: StaticString) {
        separator()
        bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
        if pretty { bytes.append(UInt8(ascii: " ")) }
        hasValue = false
        pendingKey = true
    }

    /// Set between a key and its value, so the value writes no separator.
    private var pendingKey = false

    private mutating func begin(_ bracket: UInt8, inline: Bool) {
        separator()
        bytes.append(bracket)
        depth += 1
        if inline, inlineDepth == Int.max { inlineDepth = depth }
        hasValue = false
    }

    private mutating func end(_ bracket: UInt8) {
        if pretty, hasValue, depth < inlineDepth { newline(indent: depth - 1) }
        if depth == inlineDepth { inlineDepth = Int.max }
        depth -= 1
        bytes.append(bracket)
        hasValue = true
    }

    /// Before a value or key: the comma and, in pretty mode, the line break or space.
    private mutating func separator() {
        if pendingKey {
            pendingKey = false
            hasValue = true
            return
        }
        if hasValue { bytes.append(UInt8(ascii: ",")) }
        if depth > 0 {
            if depth >= inlineDepth {
                if pretty, hasValue { bytes.append(UInt8(ascii: " ")) }
            } else if pretty {
                newline(indent: depth)
            }
        }
        hasValue = true
    }

    private mutating func newline(indent: Int) {
        bytes.append(UInt8(ascii: "\n"))
        for _ in 0..<(2 * indent) { bytes.append(UInt8(ascii: " ")) }
    }

    // MARK: - Scalars

    package mutating func null() {
        separator()
        appendASCII("null")
    }

    package mutating func bool(_ value: Bool) {
        separator()
        appendASCII(value ? "true" : "false")
    }

    package mutating func int(_ value: Int) {
        separator()
        appendInteger(Int64(value))
    }

    /// A double as JSON: integers without `.0` (`375`), others in the shortest form that reads
    /// back to the same double (what `Double.description` prints), `-0` as `0`, and `null` for
    /// NaN or infinity, which JSON cannot express.
    package mutating func number(_ value: Double) {
        separator()
        appendNumber(value)
    }

    package mutating func string(_ value: String) {
        separator()
        appendString(value)
    }

    /// A string value, or `null` when nil.
    package mutating func string(_ value: String?) {
        if let value { string(value) } else { null() }
    }

    /// Splices an already-encoded JSON value (an object encoded once and served many times).
    package mutating func raw(_ json: some Sequence<UInt8>) {
        separator()
        bytes.append(contentsOf: json)
    }

    // MARK: - Formatting

    private static let decimalScales: [Double] = [10, 100, 1000]

    private mutating func appendNumber(_ value: Double) {
        guard value.isFinite else {
            appendASCII("null")
            return
        }
        // Below 2^53 every integer is exact, and Double.description would print it as "375.0".
        if value.magnitude < 9_007_199_254_740_992 {
            if value == value.rounded(.towardZero) {
                appendInteger(Int64(value))
                return
            }
            // Short decimals (98.5, 0.25, 12.125): the fewest places k ≤ 3 whose scaled value
            // is an integer m with m / 10^k == value exactly. That decimal reads back to
            // `value`, and no shorter one does (it would have matched a smaller k), so it is the
            // shortest round-trip form, which Double.description also prints. Limited to
            // magnitudes that Double.description prints without an exponent.
            if value.magnitude >= 1e-4, value.magnitude < 1e12 {
                for (places, scale) in Self.decimalScales.enumerated() {
                    let scaled = (value * scale).rounded()
                    if scaled / scale == value {
                        appendDecimal(Int64(scaled), places: places + 1)
                        return
                    }
                }
            }
        }
        // Large integers still print as "9007199254740992.0" (up to where an exponent takes over).
        let text = value.description
        bytes.append(contentsOf: text.hasSuffix(".0") ? text.utf8.dropLast(2) : text.utf8[...])
    }

    /// `m / 10^places` in plain decimal notation, e.g. (-985, 1) → `-98.5`, (5, 3) → `0.005`.
    private mutating func appendDecimal(_ m: Int64, places: Int) {
        if m < 0 { bytes.append(UInt8(ascii: "-")) }
        var divisor: UInt64 = 1
        for _ in 0..<places { divisor *= 10 }
        appendDigits(m.magnitude / divisor, minimumDigits: 1)
        bytes.append(UInt8(ascii: "."))
        appendDigits(m.magnitude % divisor, minimumDigits: places)
    }

    /// A literal's bytes, without the array an `append(contentsOf: [...])` would allocate.
    private mutating func appendASCII(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    private mutating func appendInteger(_ value: Int64) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        appendDigits(value.magnitude, minimumDigits: 1)
    }

    /// The decimal digits of `value`, left-padded with zeros to `minimumDigits`.
    private mutating func appendDigits(_ value: UInt64, minimumDigits: Int) {
        // Count digits first, then write them right to left into reserved space.
        var digitCount = 1
        var probe = value
        while probe >= 10 {
            probe /= 10
            digitCount += 1
        }
        digitCount = max(digitCount, minimumDigits)
        let start = bytes.count
        bytes.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: digitCount))
        var rest = value
        var position = start + digitCount - 1
        while rest > 0 {
            bytes[position] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10)
            rest /= 10
            position -= 1
        }
    }

    /// `value` in double quotes, escaped per RFC 8259 §7 (JSONCore's escaping).
    private mutating func appendString(_ value: String) {
        appendJSONString(value, to: &bytes)
    }
}

/// `value` as ``JSONWriter`` prints it (`375`, `98.5`, `null`), for error messages.
func jsonNumber(_ value: Double) -> String {
    var writer = JSONWriter(pretty: false)
    writer.number(value)
    return String(decoding: writer.bytes, as: UTF8.self)
}
