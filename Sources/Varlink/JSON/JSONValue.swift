import JSONCore

/// A JSON value: what Varlink call and reply parameters are made of.
///
/// Varlink distinguishes `int` and `float` in its IDL, so integers that fit in `Int` are kept
/// exact as ``int(_:)`` rather than rounded through a double; every other number is a
/// ``double(_:)``. Objects are dictionaries: the parser rejects duplicate keys, and the writer
/// sorts keys by code point, so encoding is deterministic (the same as `JSONEncoder` with
/// `.sortedKeys`, swift-on-linux.md §7).
///
/// Sendable: an immutable value.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// Parses one JSON document (RFC 8259, strict).
    ///
    /// - Throws: ``JSONParseError`` with the byte offset of the first problem.
    public init(parsing bytes: some Collection<UInt8>) throws(JSONParseError) {
        let parsed: Result<JSONValue, JSONParseError> =
            bytes.withContiguousStorageIfAvailable { buffer in
                do throws(JSONParseError) {
                    return .success(try JSONParser.parse(buffer))
                } catch {
                    return .failure(error)
                }
            }
            ?? Array(bytes).withUnsafeBufferPointer { buffer in
                do throws(JSONParseError) {
                    return .success(try JSONParser.parse(buffer))
                } catch {
                    return .failure(error)
                }
            }
        self = try parsed.get()
    }

    /// Parses one JSON document from a string.
    public init(parsing text: String) throws(JSONParseError) {
        try self.init(parsing: Array(text.utf8))
    }

    /// The compact JSON encoding, keys sorted by code point.
    public var encoded: [UInt8] {
        JSONWriter.encode(pretty: false, capacity: 64) { $0.value(self) }
    }

    /// ``encoded`` as a string.
    public var encodedString: String { String(decoding: encoded, as: UTF8.self) }

    // MARK: - Accessors

    /// The string, or nil for any other kind of value.
    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// The Boolean, or nil for any other kind of value.
    public var boolValue: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }

    /// The integer: an ``int(_:)``, or a ``double(_:)`` with an integral value in `Int`'s range.
    public var intValue: Int? {
        switch self {
        case .int(let i): return i
        case .double(let d):
            // Int(exactly:) is nil outside Int's range and for fractions, NaN and infinity.
            return Int(exactly: d)
        default: return nil
        }
    }

    /// The number as a double, for ``int(_:)`` and ``double(_:)``.
    public var doubleValue: Double? {
        switch self {
        case .int(let i): return Double(i)
        case .double(let d): return d
        default: return nil
        }
    }

    /// The members, or nil for any other kind of value.
    public var objectValue: [String: JSONValue]? {
        if case .object(let o) = self { return o }
        return nil
    }

    /// The elements, or nil for any other kind of value.
    public var arrayValue: [JSONValue]? {
        if case .array(let a) = self { return a }
        return nil
    }

    /// True for ``null``.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The member `key` of an object; nil for a missing key or a value that is not an object.
    public subscript(key: String) -> JSONValue? {
        if case .object(let o) = self { return o[key] }
        return nil
    }
}

extension JSONValue: CustomStringConvertible {
    /// The compact encoding.
    public var description: String { encodedString }
}

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral
{
    public init(nilLiteral: ()) { self = .null }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int) { self = .int(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }

    /// A later duplicate key replaces an earlier one.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}

/// Why parsing a JSON document failed.
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Byte offset of the problem in the input.
    public var offset: Int
    /// What was wrong, e.g. `unexpected ','; expected a JSON value`.
    public var message: String

    public init(offset: Int, message: String) {
        self.offset = offset
        self.message = message
    }

    public var description: String { "JSON at byte \(offset): \(message)" }
}
