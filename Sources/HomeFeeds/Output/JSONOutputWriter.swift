/// A small deterministic JSON writer for the output shapes of `feed-parsing.md` §1 and §4.
///
/// Hand-written instead of `JSONEncoder` so that keys come out in the spec's order, `nil`
/// becomes an explicit `null`, `/` is not escaped and the bytes never depend on dictionary
/// order. Strings are escaped per RFC 8259 §7; non-ASCII is written as UTF-8.
struct JSONOutputWriter {
    private(set) var output = ""
    private let pretty: Bool
    private var level = 0
    /// Per open container: has it written an element yet?
    private var hasElements: [Bool] = []

    init(pretty: Bool) {
        self.pretty = pretty
    }

    mutating func beginObject() { open("{") }
    mutating func endObject() { close("}") }
    mutating func beginArray() { open("[") }
    mutating func endArray() { close("]") }

    /// Writes `"key": ` inside an object.
    mutating func key(_ name: String) {
        separate()
        writeString(name)
        output += pretty ? ": " : ":"
        hasElements[hasElements.count - 1] = true
        pendingValueAfterKey = true
    }

    mutating func value(_ text: String?) {
        beginValue()
        if let text { writeString(text) } else { output += "null" }
    }

    mutating func value(_ number: Int64?) {
        beginValue()
        output += number.map { String($0) } ?? "null"
    }

    mutating func value(_ flag: Bool) {
        beginValue()
        output += flag ? "true" : "false"
    }

    mutating func field(_ name: String, _ text: String?) {
        key(name)
        value(text)
    }

    // MARK: Internals

    private var pendingValueAfterKey = false

    private mutating func beginValue() {
        if pendingValueAfterKey {
            pendingValueAfterKey = false
        } else if !hasElements.isEmpty {
            separate()
            hasElements[hasElements.count - 1] = true
        }
    }

    private mutating func separate() {
        guard let last = hasElements.last else { return }
        if last { output += "," }
        if pretty {
            output += "\n"
            output += String(repeating: "  ", count: level)
        }
    }

    private mutating func open(_ bracket: String) {
        beginValue()
        output += bracket
        hasElements.append(false)
        level += 1
    }

    private mutating func close(_ bracket: String) {
        level -= 1
        let hadElements = hasElements.popLast() ?? false
        if pretty && hadElements {
            output += "\n"
            output += String(repeating: "  ", count: level)
        }
        output += bracket
    }

    private mutating func writeString(_ text: String) {
        output += "\""
        var run = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": run += "\\\""
            case "\\": run += "\\\\"
            case "\n": run += "\\n"
            case "\r": run += "\\r"
            case "\t": run += "\\t"
            case "\u{08}": run += "\\b"
            case "\u{0C}": run += "\\f"
            default:
                if scalar.value < 0x20 || scalar.value == 0x2028 || scalar.value == 0x2029 {
                    let hex = String(scalar.value, radix: 16)
                    run += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    run.unicodeScalars.append(scalar)
                }
            }
        }
        output += run
        output += "\""
    }
}
