import JSONCore

/// A JSON document read value by value over JSONCore's scanner, building only the values its
/// reader asks for (`JSONFeedDocument`): an object's members and an array's elements are
/// handed over one at a time, and a value no one wants is skipped, checked as JSON but never
/// built.
///
/// Why not `JSONDecoder`: it maps the whole document before the first value is decoded, so no
/// limit could apply before the allocation. `{"items":[{},{},…]}` of 15 MB (5 000 000 items)
/// took 1.6 GB and 15 s, and some 290 MB and 12 s even with every item past the entry limit
/// decoded as nothing. Here an item past the limit costs its scan, and the parse's deadline is
/// read every 1 024 values.
///
/// Strict RFC 8259 (JSONCore's lexer) but for one thing: an unpaired surrogate escape
/// (`\uD83D` alone) is read as U+FFFD with a warning, as invalid UTF-8 is. A key given twice is
/// read twice, the last value winning, as `JSONDecoder` did. Nesting is bounded by
/// `FeedParseLimits.maxDepth`; skipping keeps no recursion. Errors are `FeedParseError`s with
/// the line and column of the offending byte.
struct JSONFeedCursor {
    enum Kind {
        case object, array, string, number, literal

        /// `an array`, `a string`, `true, false or null`, for messages.
        var described: String {
            switch self {
            case .object: "an object"
            case .array: "an array"
            case .string: "a string"
            case .number: "a number"
            case .literal: "true, false or null"
            }
        }
    }

    private var scanner: JSONScanner
    private let source: String
    private let maxDepth: Int
    private let deadline: ContinuousClock.Instant
    private let maxParseDuration: Duration
    /// Arrays and objects open around the cursor.
    private var depth = 0
    /// Values started, for reading the clock every 1 024 of them.
    private var values = 0
    /// What the cursor read past: unpaired surrogate escapes, and the characters XML cannot
    /// carry in the strings it kept.
    private(set) var warnings = WarningLog()
    /// An unpaired surrogate escape was read (as U+FFFD): the document is not well-formed.
    private(set) var hasUnpairedSurrogates = false
    /// The last position computed for a warning, from which the next one is counted on.
    private var lastPosition = (offset: 0, line: 1, column: 1)

    /// - Parameter bytes: valid UTF-8 (`UTF8Sanitizer`), which must outlive the cursor.
    init(bytes: UnsafeBufferPointer<UInt8>, source: String, limits: FeedParseLimits, deadline: ContinuousClock.Instant)
    {
        scanner = JSONScanner(bytes: bytes)
        scanner.unpairedSurrogateOffsets = []
        self.source = source
        maxDepth = limits.maxDepth
        maxParseDuration = limits.maxParseDuration
        self.deadline = deadline
        scanner.skipByteOrderMark()
    }

    /// The kind of the value at the cursor (white space before it skipped).
    mutating func kind() throws(FeedParseError) -> Kind {
        scanner.skipWhitespace()
        guard scanner.index < scanner.bytes.count else {
            throw syntaxError("unexpected end of input; expected a JSON value")
        }
        switch scanner.bytes[scanner.index] {
        case UInt8(ascii: "{"): return .object
        case UInt8(ascii: "["): return .array
        case UInt8(ascii: "\""): return .string
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number
        case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"): return .literal
        default:
            throw syntaxError("unexpected \(scanner.describeByte(at: scanner.index)); expected a JSON value")
        }
    }

    /// Reads the object at the cursor: `body` gets each key in turn, with the cursor before
    /// its value, and must read or skip that value. False, the value skipped, when it is no
    /// object.
    @discardableResult
    mutating func members(_ body: (inout JSONFeedCursor, String) throws(FeedParseError) -> Void) throws(FeedParseError)
        -> Bool
    {
        guard try kind() == .object else {
            try skip()
            return false
        }
        try tick()
        try enterContainer()
        if try isClosing(UInt8(ascii: "}")) { return true }
        repeat {
            let key = try key()
            try body(&self, key)
        } while try !endOfMember(closing: UInt8(ascii: "}"))
        return true
    }

    /// Reads the array at the cursor: `body` gets the cursor before each element in turn, and
    /// must read or skip it. False, the value skipped, when it is no array.
    @discardableResult
    mutating func elements(_ body: (inout JSONFeedCursor) throws(FeedParseError) -> Void) throws(FeedParseError)
        -> Bool
    {
        guard try kind() == .array else {
            try skip()
            return false
        }
        try tick()
        try enterContainer()
        if try isClosing(UInt8(ascii: "]")) { return true }
        repeat {
            try body(&self)
        } while try !endOfMember(closing: UInt8(ascii: "]"))
        return true
    }

    /// The string at the cursor, or nil, the value skipped, when it is something else.
    mutating func string() throws(FeedParseError) -> String? {
        guard try kind() == .string else {
            try skip()
            return nil
        }
        try tick()
        let start = scanner.index
        let string = try lexed { (scanner: inout JSONScanner) throws(JSONSyntaxError) in try scanner.parseString() }
        return scrubbed(string, at: start)
    }

    /// `string` with the characters XML cannot carry (`HTMLEntities.isForbiddenInXML`) as
    /// U+FFFD, as an XML feed has them: a JSON escape writes them (`\u0000`, `\u0007`), and no
    /// title, text or id of a feed may carry one. A warning at the string names the first.
    private mutating func scrubbed(_ string: String, at offset: Int) -> String {
        // The bytes that can start one: C0 controls and the lead byte of U+FFFE and U+FFFF.
        guard string.utf8.contains(where: { $0 < 0x20 || $0 == 0xEF }),
            let first = string.unicodeScalars.first(where: HTMLEntities.isForbiddenInXML)
        else { return string }
        let (line, column) = warnings.isFull ? (0, 0) : position(of: offset)
        let shown = hex(first.value, digits: 4)
        warnings.add(line: line, column: column, "character U+\(shown) in a string replaced by U+FFFD")
        var scalars = String.UnicodeScalarView()
        for scalar in string.unicodeScalars {
            scalars.append(HTMLEntities.isForbiddenInXML(scalar) ? "\u{FFFD}" : scalar)
        }
        return String(scalars)
    }

    /// The number at the cursor as text (`feed-parsing.md` §3, "stringified"), or nil, the value
    /// skipped, when it is something else: an integer within `Int64` as that integer, however
    /// written (`12345`, `1.0` is `1`, `1e3` is `1000`), any other number as written
    /// (`10000000000000000001`, `1.5`, `1e400`), never rounded through `Double`, so different
    /// numbers give different ids.
    mutating func numberText() throws(FeedParseError) -> String? {
        guard try kind() == .number else {
            try skip()
            return nil
        }
        try tick()
        let number = try lexed { (scanner: inout JSONScanner) throws(JSONSyntaxError) in try scanner.parseNumber() }
        if let integer = number.int64Value { return String(integer) }
        return String(decoding: UnsafeBufferPointer(rebasing: scanner.bytes[number.range]), as: UTF8.self)
    }

    /// Skips the value at the cursor, checking it as JSON without building it. Iterative, with
    /// one flag per container it opened (true for an object).
    mutating func skip() throws(FeedParseError) {
        var open: [Bool] = []
        repeat {
            // One value: a scalar, or the start of a container.
            let kind = try kind()
            try tick()
            switch kind {
            case .object, .array:
                let isObject = kind == .object
                try enterContainer()
                if try isClosing(isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) { break }
                open.append(isObject)
                if isObject { _ = try key() }
                continue
            case .string:
                _ = try lexed { (scanner: inout JSONScanner) throws(JSONSyntaxError) in try scanner.parseString() }
            case .number:
                _ = try lexed { (scanner: inout JSONScanner) throws(JSONSyntaxError) in try scanner.parseNumber() }
            case .literal:
                try literal()
            }
            // After a whole value: close the containers it ended, up to one that goes on.
            while let isObject = open.last {
                guard try endOfMember(closing: isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) else {
                    if isObject { _ = try key() }
                    break
                }
                open.removeLast()
            }
        } while !open.isEmpty
    }

    /// Checks that nothing but white space follows the document's value.
    mutating func end() throws(FeedParseError) {
        scanner.skipWhitespace()
        if scanner.index < scanner.bytes.count {
            throw syntaxError("unexpected \(scanner.describeByte(at: scanner.index)) after the JSON value")
        }
    }

    // MARK: Tokens

    /// A member's key and its `:`, the cursor then before the value.
    private mutating func key() throws(FeedParseError) -> String {
        scanner.skipWhitespace()
        guard scanner.index < scanner.bytes.count, scanner.bytes[scanner.index] == UInt8(ascii: "\"") else {
            throw syntaxError(
                "unexpected \(scanner.describeByte(at: scanner.index)); expected a string key in double quotes"
            )
        }
        let key = try lexed { (scanner: inout JSONScanner) throws(JSONSyntaxError) in try scanner.parseString() }
        scanner.skipWhitespace()
        guard scanner.index < scanner.bytes.count, scanner.bytes[scanner.index] == UInt8(ascii: ":") else {
            throw syntaxError("unexpected \(scanner.describeByte(at: scanner.index)); expected ':' after an object key")
        }
        scanner.index += 1
        return key
    }

    private mutating func literal() throws(FeedParseError) {
        let text: StaticString
        switch scanner.bytes[scanner.index] {
        case UInt8(ascii: "t"): text = "true"
        case UInt8(ascii: "f"): text = "false"
        default: text = "null"
        }
        try lexed { (scanner: inout JSONScanner) throws(JSONSyntaxError) in try scanner.expectLiteral(text) }
    }

    /// Steps into the container at the cursor.
    private mutating func enterContainer() throws(FeedParseError) {
        guard depth < maxDepth else {
            throw limitError(.depth, "arrays and objects nest deeper than \(maxDepth) levels")
        }
        scanner.index += 1
        depth += 1
    }

    /// True, past it, when `closing` comes right after the opening bracket (an empty container).
    private mutating func isClosing(_ closing: UInt8) throws(FeedParseError) -> Bool {
        scanner.skipWhitespace()
        guard scanner.index < scanner.bytes.count, scanner.bytes[scanner.index] == closing else { return false }
        scanner.index += 1
        depth -= 1
        return true
    }

    /// After a member or an element: true past the closing bracket, false past a `,`.
    private mutating func endOfMember(closing: UInt8) throws(FeedParseError) -> Bool {
        scanner.skipWhitespace()
        guard scanner.index < scanner.bytes.count else {
            throw syntaxError("unexpected end of input; expected ',' or '\(UnicodeScalar(closing))'")
        }
        let byte = scanner.bytes[scanner.index]
        if byte == closing {
            scanner.index += 1
            depth -= 1
            return true
        }
        guard byte == UInt8(ascii: ",") else {
            throw syntaxError(
                "unexpected \(scanner.describeByte(at: scanner.index)); expected ',' or '\(UnicodeScalar(closing))'"
            )
        }
        scanner.index += 1
        return false
    }

    /// Runs one of the scanner's lexing steps, its error made a `FeedParseError`.
    private mutating func lexed<T>(_ step: (inout JSONScanner) throws(JSONSyntaxError) -> T) throws(FeedParseError) -> T
    {
        let value: T
        do {
            value = try step(&scanner)
        } catch {
            scanner.index = error.offset
            throw syntaxError(error.message)
        }
        if scanner.unpairedSurrogateOffsets?.isEmpty == false { noteUnpairedSurrogates() }
        return value
    }

    /// A warning for each unpaired surrogate escape the last string had, where it was written.
    private mutating func noteUnpairedSurrogates() {
        hasUnpairedSurrogates = true
        for offset in scanner.unpairedSurrogateOffsets ?? [] {
            // Past the listed warnings only the count grows: no position is computed for them.
            let (line, column) = warnings.isFull ? (0, 0) : position(of: offset)
            let escape = String(
                decoding: UnsafeBufferPointer(rebasing: scanner.bytes[offset..<offset + 6]),
                as: UTF8.self
            )
            warnings.add(line: line, column: column, "unpaired surrogate \(escape) replaced by U+FFFD")
        }
        scanner.unpairedSurrogateOffsets?.removeAll(keepingCapacity: true)
    }

    /// The 1-based line and column of `offset`, counted on from the last one asked for (the
    /// warnings come in document order), so that many of them never rescan the document.
    private mutating func position(of offset: Int) -> (line: Int, column: Int) {
        if offset < lastPosition.offset { lastPosition = (0, 1, 1) }
        let (lines, column) = JSONScanner.lineAndColumn(
            of: offset - lastPosition.offset,
            in: UnsafeBufferPointer(rebasing: scanner.bytes[lastPosition.offset...])
        )
        lastPosition = (offset, lastPosition.line + lines - 1, lines == 1 ? lastPosition.column + column - 1 : column)
        return (lastPosition.line, lastPosition.column)
    }

    /// Counts a value; every 1 024th reads the clock.
    private mutating func tick() throws(FeedParseError) {
        values += 1
        guard values & 1023 == 0, ContinuousClock.now >= deadline else { return }
        throw limitError(.parseDuration, "parse took longer than \(maxParseDuration)")
    }

    /// A limit passed at the cursor.
    func limitError(_ limit: FeedParseError.Limit, _ message: String) -> FeedParseError {
        FeedParseError(
            kind: .limitExceeded(limit),
            source: source,
            line: position.line,
            column: position.column,
            message: message
        )
    }

    private func syntaxError(_ message: String) -> FeedParseError {
        FeedParseError(
            kind: .malformedJSON,
            source: source,
            line: position.line,
            column: position.column,
            message: "invalid JSON: \(message)"
        )
    }

    /// The 1-based line and column (in characters) of the cursor.
    private var position: (line: Int, column: Int) {
        JSONScanner.lineAndColumn(of: scanner.index, in: scanner.bytes)
    }
}
