import JSONCore

/// A strict RFC 8259 JSON parser over UTF-8 bytes, producing ``JSONValue``: JSONCore's
/// parser (shared with HomeLayout's spec decoder) with Varlink's value builder. Strict: one value
/// with optional whitespace around it; no comments, trailing commas, `NaN` or leading zeros;
/// control characters in strings must be escaped; `\u` escapes must pair surrogates; invalid
/// UTF-8 and duplicate object keys are errors. Arrays and objects nest at most `maxDepth` deep,
/// so recursion is bounded; it never traps on any input.
///
/// Numbers without a fraction or exponent that fit in `Int` become ``JSONValue/int(_:)``
/// (Varlink's `int`), all others ``JSONValue/double(_:)``.
struct JSONParser {
    /// Deeper nesting is refused; Varlink messages are shallow, this only bounds recursion.
    static let maxDepth = 256

    /// Parses one JSON document from `buffer`.
    static func parse(
        _ buffer: UnsafeBufferPointer<UInt8>,
        maxDepth: Int = JSONParser.maxDepth
    ) throws(JSONParseError) -> JSONValue {
        do throws(JSONSyntaxError) {
            return try JSONTreeParser<VarlinkValueBuilder>.parse(buffer, maxDepth: maxDepth)
        } catch {
            throw JSONParseError(offset: error.offset, message: error.message)
        }
    }
}

/// Builds Varlink's ``JSONValue``: objects as dictionaries, integers exact.
enum VarlinkValueBuilder: JSONTreeBuilder {
    static func null() -> JSONValue { .null }
    static func bool(_ value: Bool) -> JSONValue { .bool(value) }
    static func number(_ number: JSONNumber, in bytes: UnsafeBufferPointer<UInt8>) -> JSONValue {
        number.exactInteger.map(JSONValue.int) ?? .double(number.doubleValue(in: bytes))
    }
    static func string(_ value: String) -> JSONValue { .string(value) }
    static func array(_ elements: [JSONValue]) -> JSONValue { .array(elements) }
    static func object(_ members: [(key: String, value: JSONValue)]) -> JSONValue {
        // Keys are unique (the parser refuses duplicates), so each is hashed once. A plain loop:
        // `Dictionary(_:uniquingKeysWith:)` casts the labelled tuples at run time, one by one.
        var object = [String: JSONValue](minimumCapacity: members.count)
        for member in members { object[member.key] = member.value }
        return .object(object)
    }
    static func quoted(key: String) -> String { "\"\(key.prefix(40))\"" }
}
