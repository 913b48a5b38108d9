/// How a parser's own value type is built from JSON: each module keeps its representation
/// (ordered members for layout specs, dictionaries and exact integers for Varlink).
public protocol JSONTreeBuilder {
    associatedtype Value
    static func null() -> Value
    static func bool(_ value: Bool) -> Value
    static func number(_ number: JSONNumber, in bytes: UnsafeBufferPointer<UInt8>) -> Value
    static func string(_ value: String) -> Value
    static func array(_ elements: [Value]) -> Value
    /// Members in document order; keys are already unique.
    static func object(_ members: [(key: String, value: Value)]) -> Value
    /// A key as a duplicate-key error message quotes it.
    static func quoted(key: String) -> String
}

/// The structural half of a strict RFC 8259 parser: one value with optional whitespace around
/// it (a leading byte-order mark is skipped), arrays and objects without trailing commas,
/// duplicate keys refused, nesting bounded by `maxDepth` so recursion is bounded. Lexing is
/// ``JSONScanner``'s. It never traps on any input.
///
/// Inlinable, so each module that parses gets it specialized for its builder: unspecialized, a
/// Varlink call of 76 bytes cost 18 000 instructions in witness-table calls and generic
/// metadata look-ups (callgrind, issue 17); the lexer stays an ordinary call into JSONCore.
/// `public` rather than `package` for that reason alone: this toolchain does not specialize
/// `@inlinable package` code in other modules (JSONCore is no product, so nothing outside the
/// package sees it either way).
public struct JSONTreeParser<Builder: JSONTreeBuilder> {
    @usableFromInline var scanner: JSONScanner
    @usableFromInline let maxDepth: Int
    @usableFromInline var depth = 0

    /// Parses one JSON document from `buffer`.
    @inlinable
    public static func parse(
        _ buffer: UnsafeBufferPointer<UInt8>,
        maxDepth: Int
    ) throws(JSONSyntaxError) -> Builder.Value {
        var parser = JSONTreeParser(scanner: JSONScanner(bytes: buffer), maxDepth: maxDepth)
        return try parser.parseDocument()
    }

    /// Parses one value starting at `scanner`'s position and leaves `scanner` just after it,
    /// for a caller that walks the enclosing document itself (Varlink's call envelope). `depth`
    /// is how many arrays and objects already enclose the value, so `maxDepth` bounds the whole
    /// document as ``parse(_:maxDepth:)`` would.
    @inlinable
    public static func parseValue(
        from scanner: inout JSONScanner,
        depth: Int,
        maxDepth: Int
    ) throws(JSONSyntaxError) -> Builder.Value {
        var parser = JSONTreeParser(scanner: scanner, maxDepth: maxDepth)
        parser.depth = depth
        let value = try parser.parseValue()
        scanner = parser.scanner
        return value
    }

    @inlinable
    init(scanner: JSONScanner, maxDepth: Int) {
        self.scanner = scanner
        self.maxDepth = maxDepth
    }

    @inlinable
    var bytes: UnsafeBufferPointer<UInt8> { scanner.bytes }

    @inlinable
    var index: Int {
        get { scanner.index }
        set { scanner.index = newValue }
    }

    @inlinable
    mutating func skipWhitespace() { scanner.skipWhitespace() }

    @inlinable
    func describeByte(at i: Int) -> String { scanner.describeByte(at: i) }

    @inlinable
    mutating func parseDocument() throws(JSONSyntaxError) -> Builder.Value {
        scanner.skipByteOrderMark()
        skipWhitespace()
        let value = try parseValue()
        skipWhitespace()
        if index < bytes.count {
            throw JSONSyntaxError(offset: index, message: "unexpected \(describeByte(at: index)) after the JSON value")
        }
        return value
    }

    @inlinable
    mutating func parseValue() throws(JSONSyntaxError) -> Builder.Value {
        guard index < bytes.count else {
            throw JSONSyntaxError(offset: index, message: "unexpected end of input; expected a JSON value")
        }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return Builder.string(try scanner.parseString())
        case UInt8(ascii: "t"):
            try scanner.expectLiteral("true")
            return Builder.bool(true)
        case UInt8(ascii: "f"):
            try scanner.expectLiteral("false")
            return Builder.bool(false)
        case UInt8(ascii: "n"):
            try scanner.expectLiteral("null")
            return Builder.null()
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return Builder.number(try scanner.parseNumber(), in: bytes)
        default:
            throw JSONSyntaxError(
                offset: index,
                message: "unexpected \(describeByte(at: index)); expected a JSON value"
            )
        }
    }

    @inlinable
    mutating func enterContainer() throws(JSONSyntaxError) {
        depth += 1
        if depth > maxDepth {
            throw JSONSyntaxError(offset: index, message: "arrays and objects nest deeper than \(maxDepth) levels")
        }
    }

    /// After a member or element: `,` (not before the closing bracket) or the closing bracket.
    /// - Returns: true at the closing bracket.
    @inlinable
    mutating func endOfMember(closing: UInt8, what: String) throws(JSONSyntaxError) -> Bool {
        skipWhitespace()
        guard index < bytes.count else {
            let close = String(UnicodeScalar(closing))
            throw JSONSyntaxError(offset: index, message: "unexpected end of input; expected ',' or '\(close)'")
        }
        let byte = bytes[index]
        index += 1
        if byte == closing { return true }
        if byte != UInt8(ascii: ",") {
            let close = String(UnicodeScalar(closing))
            throw JSONSyntaxError(
                offset: index - 1,
                message: "unexpected \(describeByte(at: index - 1)); expected ',' or '\(close)' after \(what)"
            )
        }
        skipWhitespace()
        if index < bytes.count, bytes[index] == closing {
            let close = String(UnicodeScalar(closing))
            throw JSONSyntaxError(offset: index, message: "trailing comma before '\(close)'")
        }
        return false
    }

    @inlinable
    mutating func parseArray() throws(JSONSyntaxError) -> Builder.Value {
        try enterContainer()
        index += 1  // [
        var elements: [Builder.Value] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return Builder.array(elements)
        }
        repeat {
            skipWhitespace()
            elements.append(try parseValue())
        } while try !endOfMember(closing: UInt8(ascii: "]"), what: "an array element")
        depth -= 1
        return Builder.array(elements)
    }

    @inlinable
    mutating func parseObject() throws(JSONSyntaxError) -> Builder.Value {
        try enterContainer()
        index += 1  // {
        var members: [(key: String, value: Builder.Value)] = []
        // Duplicate detection: a linear scan for the usual small objects, a set for big ones.
        var seen: Set<String> = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return Builder.object(members)
        }
        repeat {
            skipWhitespace()
            guard index < bytes.count else {
                throw JSONSyntaxError(offset: index, message: "unexpected end of input; expected a string key")
            }
            guard bytes[index] == UInt8(ascii: "\"") else {
                throw JSONSyntaxError(
                    offset: index,
                    message: "unexpected \(describeByte(at: index)); expected a string key in double quotes"
                )
            }
            let keyOffset = index
            let key = try scanner.parseString()
            let isDuplicate: Bool
            if members.count < 16 {
                isDuplicate = members.contains { $0.key == key }
            } else {
                if seen.isEmpty { seen = Set(members.lazy.map(\.key)) }
                isDuplicate = !seen.insert(key).inserted
            }
            if isDuplicate {
                throw JSONSyntaxError(offset: keyOffset, message: "duplicate key \(Builder.quoted(key: key))")
            }
            skipWhitespace()
            guard index < bytes.count else {
                throw JSONSyntaxError(offset: index, message: "unexpected end of input; expected ':'")
            }
            guard bytes[index] == UInt8(ascii: ":") else {
                throw JSONSyntaxError(
                    offset: index,
                    message: "unexpected \(describeByte(at: index)); expected ':' after an object key"
                )
            }
            index += 1
            skipWhitespace()
            members.append((key, try parseValue()))
        } while try !endOfMember(closing: UInt8(ascii: "}"), what: "an object member")
        depth -= 1
        return Builder.object(members)
    }
}
