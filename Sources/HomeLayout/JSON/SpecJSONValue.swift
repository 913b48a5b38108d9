import JSONCore

/// A parsed JSON document (RFC 8259), as ``SpecJSONParser`` produces it.
///
/// Objects keep their members in document order; the parser has already rejected duplicate
/// keys, so a key occurs at most once. Numbers are IEEE doubles: a literal too large for a
/// double is `±infinity` here, and the spec decoder rejects it with its path.
///
/// Not Varlink's `JSONValue`, on purpose: a spec needs its members in document order (errors
/// name the first bad key as written) and only doubles, while a Varlink message needs hashed
/// look-ups and exact integers (its IDL's `int`). One type serving both would make every
/// Varlink parameter look-up a linear scan or lose the spec's order; both are built by
/// JSONCore's one parser (``JSONTreeParser``) with a builder each.
///
/// Sendable: an immutable value.
enum SpecJSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([SpecJSONValue])
    case object([SpecJSONMember])

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
struct SpecJSONMember: Sendable, Equatable {
    var key: String
    var value: SpecJSONValue
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
/// `value` as ``JSONWriter`` prints it (`375`, `98.5`, `null`), for error messages.
func jsonNumber(_ value: Double) -> String {
    var writer = JSONWriter(pretty: false)
    writer.number(value)
    return String(decoding: writer.bytes, as: UTF8.self)
}
