/// The input parameter names of an interface's methods, read from its IDL text.
///
/// Why: the server's decoding matches a call's parameter names against the names its method
/// declares, by their bytes, and hands the handler these strings instead of making one per name
/// (issue 17). A scan, not a parser: whatever it misses (an IDL it does not understand) only
/// means those names are decoded as any other string, never a different call.
extension VarlinkInterface {
    /// By method name, the field names of its input struct (`method Name(a: int, b: ?string)`:
    /// `a`, `b`): identifiers followed by `:` at the struct's top level, comments skipped,
    /// nested types (`(x: int)`, `?(one, two)`) passed over.
    static func parameterNames(in idl: String) -> [String: [String]] {
        let text = Array(idl.utf8)
        var names: [String: [String]] = [:]
        var lineStart = 0
        while lineStart < text.count {
            var index = lineStart
            while index < text.count, text[index] == UInt8(ascii: " ") || text[index] == UInt8(ascii: "\t") {
                index += 1
            }
            if text[index...].starts(with: "method ".utf8) {
                index += "method ".utf8.count
                index = skipSpace(text, from: index)
                let nameStart = index
                while index < text.count, isIdentifierByte(text[index]) { index += 1 }
                let name = String(decoding: text[nameStart..<index], as: UTF8.self)
                index = skipSpace(text, from: index)
                if !name.isEmpty, index < text.count, text[index] == UInt8(ascii: "(") {
                    names[name] = fieldNames(text, from: index + 1)
                }
            }
            while lineStart < text.count, text[lineStart] != UInt8(ascii: "\n") { lineStart += 1 }
            lineStart += 1
        }
        return names
    }

    /// The top-level field names of the struct whose `(` is just before `start`, up to its `)`.
    private static func fieldNames(_ text: [UInt8], from start: Int) -> [String] {
        var fields: [String] = []
        var depth = 1
        var index = start
        var atFieldStart = true
        while index < text.count, depth > 0 {
            let byte = text[index]
            switch byte {
            case UInt8(ascii: "#"):
                while index < text.count, text[index] != UInt8(ascii: "\n") { index += 1 }
                continue
            case UInt8(ascii: "("): depth += 1
            case UInt8(ascii: ")"): depth -= 1
            case UInt8(ascii: ","): atFieldStart = depth == 1
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"): break
            default:
                if depth == 1, atFieldStart, isIdentifierByte(byte) {
                    let nameStart = index
                    while index < text.count, isIdentifierByte(text[index]) { index += 1 }
                    let after = skipSpace(text, from: index)
                    if after < text.count, text[after] == UInt8(ascii: ":") {
                        fields.append(String(decoding: text[nameStart..<index], as: UTF8.self))
                    }
                    atFieldStart = false
                    continue
                }
                atFieldStart = false
            }
            index += 1
        }
        return fields
    }

    private static func skipSpace(_ text: [UInt8], from start: Int) -> Int {
        var index = start
        while index < text.count,
            text[index] == UInt8(ascii: " ") || text[index] == UInt8(ascii: "\t")
                || text[index] == UInt8(ascii: "\n") || text[index] == UInt8(ascii: "\r")
        {
            index += 1
        }
        return index
    }

    /// ASCII letters, digits and `_`: what a Varlink field name is made of.
    static func isIdentifierByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"):
            return true
        default:
            return false
        }
    }
}
