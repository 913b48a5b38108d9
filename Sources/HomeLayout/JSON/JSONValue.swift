/// A parsed JSON document (RFC 8259), as ``JSONParser`` produces it.
///
/// Objects keep their members in document order; the parser has already rejected duplicate
/// keys, so a key occurs at most once. Numbers are IEEE doubles: a literal too large for a
/// double is `±infinity` here, and the spec decoder rejects it with its path.
///
/// Sendable: an immutable value.
enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([JSONMember])

    /// How the value reads in an error message: `"fractional"`, `12`, `true`, `an object`.
    var errorDescription: String {
        switch self {
        case .null: "null"
        case .bool(let b): b ? "true" : "false"
        case .number(let n): n.isFinite ? jsonNumber(n) : "a number too large to represent"
        case .string(let s): quotedForMessage(s)
        case .array(let a): a.isEmpty ? "an empty array" : "an array"
        case .object(let o): o.isEmpty ? "an empty object" : "an object"
        }
    }
}

/// One `"key": value` member of a JSON object.
struct JSONMember: Sendable, Equatable {
    var key: String
    var value: JSONValue
}

/// `s` in double quotes with JSON escapes, cut after 40 characters, for error messages.
func quotedForMessage(_ s: String) -> String {
    var writer = JSONWriter(pretty: false)
    var text = s
    var cut = false
    if s.unicodeScalars.count > 40 {
        text = String(String.UnicodeScalarView(s.unicodeScalars.prefix(40)))
        cut = true
    }
    writer.string(text)
    return String(decoding: writer.bytes, as: UTF8.self) + (cut ? "…" : "")
}
