import JSONCore

/// Parses a layout spec's JSON into ``SpecJSONValue`` (JSONCore's strict RFC 8259 parser) and turns
/// syntax errors into ``LayoutSpecError`` with line and column.
///
/// Strict means: one value with optional whitespace around it (a leading UTF-8 byte-order mark
/// is skipped, as RFC 8259 §8.1 allows); no comments, trailing commas, single quotes, `NaN` or
/// leading zeros; control characters in strings must be escaped; `\u` escapes must pair
/// surrogates; invalid UTF-8 anywhere is an error; duplicate object keys are an error.
///
/// Bounded: input above `maxBytes` is refused before parsing, and arrays and objects may nest
/// at most `maxDepth` deep, so recursion depth is bounded. It never traps on any input; every
/// problem becomes a ``LayoutSpecError`` with the 1-based line and column (counted in Unicode
/// scalars) of the offending byte.
struct SpecJSONParser {
    /// Arrays and objects nested deeper than this are refused. A spec whose groups nest
    /// ``LayoutLimits/maxGroupDepth`` (32) deep needs about 105 levels: each group level
    /// costs three (`{"group": {"subitems": [`).
    static let maxDepth = 128

    /// Parses one JSON document.
    ///
    /// - Throws: ``LayoutSpecError`` with an empty path; syntax errors carry line and column.
    static func parse(
        _ bytes: some Collection<UInt8>,
        maxBytes: Int = LayoutLimits.maxSpecBytes,
        maxDepth: Int = SpecJSONParser.maxDepth
    ) throws(LayoutSpecError) -> SpecJSONValue {
        let count = bytes.count
        if count > maxBytes {
            throw LayoutSpecError(path: "", reason: "the spec is \(count) bytes; the limit is \(maxBytes)")
        }
        let array = Array(bytes)
        let result: Result<SpecJSONValue, JSONSyntaxError> = array.withUnsafeBufferPointer { buffer in
            do throws(JSONSyntaxError) {
                return .success(try JSONTreeParser<SpecValueBuilder>.parse(buffer, maxDepth: maxDepth))
            } catch {
                return .failure(error)
            }
        }
        switch result {
        case .success(let value):
            return value
        case .failure(let error):
            let (line, column) = JSONScanner.lineAndColumn(of: error.offset, in: array)
            throw LayoutSpecError(path: "", line: line, column: column, reason: error.message)
        }
    }
}

/// Builds HomeLayout's ``SpecJSONValue``: objects keep their members in document order, numbers
/// are doubles.
enum SpecValueBuilder: JSONTreeBuilder {
    static func null() -> SpecJSONValue { .null }
    static func bool(_ value: Bool) -> SpecJSONValue { .bool(value) }
    static func number(_ number: JSONNumber, in bytes: UnsafeBufferPointer<UInt8>) -> SpecJSONValue {
        .number(number.doubleValue(in: bytes))
    }
    static func string(_ value: String) -> SpecJSONValue { .string(value) }
    static func array(_ elements: [SpecJSONValue]) -> SpecJSONValue { .array(elements) }
    static func object(_ members: [(key: String, value: SpecJSONValue)]) -> SpecJSONValue {
        .object(members.map { SpecJSONMember(key: $0.key, value: $0.value) })
    }
    static func quoted(key: String) -> String { quotedForMessage(key) }
}
