import JSONCore
import Testing

@testable import HomeLayout

@Suite struct JSONParserTests {
    struct ValueCase: Sendable, CustomTestStringConvertible {
        var json: String
        var expected: SpecJSONValue
        var testDescription: String { json }
    }

    static let valueCases: [ValueCase] = [
        .init(json: "null", expected: .null),
        .init(json: "true", expected: .bool(true)),
        .init(json: " \t\r\nfalse\n", expected: .bool(false)),
        .init(json: "0", expected: .number(0)),
        .init(json: "-0", expected: .number(-0.0)),
        .init(json: "375", expected: .number(375)),
        .init(json: "-12.5", expected: .number(-12.5)),
        .init(json: "1e3", expected: .number(1000)),
        .init(json: "1E+3", expected: .number(1000)),
        .init(json: "25e-2", expected: .number(0.25)),
        .init(json: "0.000123", expected: .number(0.000123)),
        .init(json: "\"\"", expected: .string("")),
        .init(json: "\"héllo ✓ 😀\"", expected: .string("héllo ✓ 😀")),
        .init(json: #""a\"b\\c\/d\be\ff\ng\rh\ti""#, expected: .string("a\"b\\c/d\u{8}e\u{C}f\ng\rh\ti")),
        .init(json: #""\u0041\u00e9\u2713""#, expected: .string("Aé✓")),
        .init(json: #""\uD83D\uDE00""#, expected: .string("😀")),
        .init(json: #""\ud83d\ude00x""#, expected: .string("😀x")),
        .init(json: #""\u0000""#, expected: .string("\u{0}")),
        .init(json: "[]", expected: .array([])),
        .init(json: "[ 1 , [2] ,{} ]", expected: .array([.number(1), .array([.number(2)]), .object([])])),
        .init(json: "{}", expected: .object([])),
        .init(
            json: #"{"b": 1, "a": [true, null]}"#,
            expected: .object([
                SpecJSONMember(key: "b", value: .number(1)),
                SpecJSONMember(key: "a", value: .array([.bool(true), .null])),
            ])
        ),
        .init(json: "\u{FEFF}[1]", expected: .array([.number(1)])),
    ]

    @Test("parses valid JSON", arguments: valueCases)
    func parsesValid(_ c: ValueCase) throws {
        let value = try SpecJSONParser.parse(Array(c.json.utf8))
        #expect(value == c.expected)
    }

    @Test("keeps the sign of -0")
    func negativeZero() throws {
        guard case .number(let n) = try SpecJSONParser.parse(Array("-0.0".utf8)) else {
            Issue.record("not a number")
            return
        }
        #expect(n == 0 && n.sign == .minus)
    }

    struct SyntaxCase: Sendable, CustomTestStringConvertible {
        var json: [UInt8]
        var line: Int
        var column: Int
        var reason: String
        init(_ json: String, _ line: Int, _ column: Int, _ reason: String) {
            self.json = Array(json.utf8)
            self.line = line
            self.column = column
            self.reason = reason
        }
        init(bytes: [UInt8], _ line: Int, _ column: Int, _ reason: String) {
            self.json = bytes
            self.line = line
            self.column = column
            self.reason = reason
        }
        var testDescription: String { reason }
    }

    static let syntaxCases: [SyntaxCase] = [
        .init("", 1, 1, "unexpected end of input; expected a JSON value"),
        .init("   \n  ", 2, 3, "unexpected end of input; expected a JSON value"),
        .init("[1,]", 1, 4, "trailing comma before ']'"),
        .init("{\"a\": 1,}", 1, 9, "trailing comma before '}'"),
        .init("[1 2]", 1, 4, "unexpected '2'; expected ',' or ']' after an array element"),
        .init("{\"a\" 1}", 1, 6, "unexpected '1'; expected ':' after an object key"),
        .init("{\"a\": 1 \"b\": 2}", 1, 9, "unexpected '\"'; expected ',' or '}' after an object member"),
        .init("{a: 1}", 1, 2, "unexpected 'a'; expected a string key in double quotes"),
        .init("{\n  \"a\": 1,\n  \"a\": 2\n}", 3, 3, "duplicate key \"a\""),
        .init("[1] x", 1, 5, "unexpected 'x' after the JSON value"),
        .init("[1]]", 1, 4, "unexpected ']' after the JSON value"),
        .init("'a'", 1, 1, "unexpected '''; expected a JSON value"),
        .init("[tru]", 1, 2, "invalid literal; expected true"),
        .init("truex", 1, 1, "invalid literal; expected true"),
        .init("nul", 1, 1, "invalid literal; expected null"),
        .init("NaN", 1, 1, "unexpected 'N'; expected a JSON value"),
        .init("-Infinity", 1, 2, "invalid number; expected a digit after '-'"),
        .init("01", 1, 1, "invalid number; leading zeros are not allowed"),
        .init("-", 1, 2, "invalid number; expected a digit after '-'"),
        .init("1.", 1, 3, "invalid number; expected a digit after '.'"),
        .init(".5", 1, 1, "unexpected '.'; expected a JSON value"),
        .init("1e", 1, 3, "invalid number; expected a digit in the exponent"),
        .init("1e+", 1, 4, "invalid number; expected a digit in the exponent"),
        .init("+1", 1, 1, "unexpected '+'; expected a JSON value"),
        .init("1.5.2", 1, 4, "invalid number; unexpected '.'"),
        .init("0x10", 1, 2, "invalid number; unexpected 'x'"),
        .init("[1", 1, 3, "unexpected end of input; expected ',' or ']'"),
        .init("{\"a\"", 1, 5, "unexpected end of input; expected ':'"),
        .init("{\"a\":1", 1, 7, "unexpected end of input; expected ',' or '}'"),
        .init("{", 1, 2, "unexpected end of input; expected a string key"),
        .init("\"abc", 1, 5, "unexpected end of input inside a string"),
        .init("\"a\\", 1, 4, "unexpected end of input inside a string"),
        .init("\"a\nb\"", 1, 3, "unescaped control character U+000A in a string"),
        .init("\"\t\"", 1, 2, "unescaped control character U+0009 in a string"),
        .init(#""\x""#, 1, 2, #"invalid escape \x; expected one of \" \\ \/ \b \f \n \r \t \u"#),
        .init(#""\u12G4""#, 1, 6, "unexpected 'G' in a \\u escape; expected 4 hex digits"),
        .init(#""\u12"#, 1, 6, "unexpected end of input in a \\u escape"),
        .init(#""\uD800""#, 1, 2, #"unpaired surrogate \uD800; expected a \u low surrogate to follow"#),
        .init(#""\uD800x""#, 1, 2, #"unpaired surrogate \uD800; expected a \u low surrogate to follow"#),
        .init(#""\uD800\u0041""#, 1, 2, #"unpaired surrogate \uD800 followed by \u0041"#),
        .init(#""\uDC00""#, 1, 2, #"unpaired surrogate \uDC00 (a low surrogate without a high one)"#),
        .init("[1, /* c */ 2]", 1, 5, "unexpected '/'; expected a JSON value"),
        .init("\"é\" x", 1, 5, "unexpected 'x' after the JSON value"),
        .init("[\"😀\", é]", 1, 7, "unexpected 'é'; expected a JSON value"),
        // Invalid UTF-8, inside and outside strings.
        .init(bytes: [0x22, 0xFF, 0x22], 1, 2, "invalid UTF-8 byte 0xFF"),
        .init(bytes: [0x22, 0x80, 0x22], 1, 2, "invalid UTF-8 byte 0x80"),
        .init(bytes: [0x22, 0xC0, 0xAF, 0x22], 1, 2, "invalid UTF-8 byte 0xC0"),  // overlong '/'
        .init(bytes: [0x22, 0xE0, 0x80, 0xAF, 0x22], 1, 2, "invalid UTF-8 sequence 0xE0 0x80"),  // overlong
        .init(bytes: [0x22, 0xED, 0xA0, 0x80, 0x22], 1, 2, "invalid UTF-8 sequence 0xED 0xA0"),  // surrogate
        .init(bytes: [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], 1, 2, "invalid UTF-8 sequence 0xF4 0x90"),  // > U+10FFFF
        .init(bytes: [0x22, 0xF5, 0x80, 0x80, 0x80, 0x22], 1, 2, "invalid UTF-8 byte 0xF5"),
        .init(bytes: [0x22, 0xE2, 0x9C, 0x41, 0x22], 1, 2, "invalid UTF-8 sequence starting with 0xE2"),
        .init(bytes: [0x22, 0xE2, 0x9C], 1, 2, "truncated UTF-8 sequence at the end of input"),
        .init(bytes: [0x22, 0x5C, 0x6E, 0xFF, 0x22], 1, 4, "invalid UTF-8 byte 0xFF"),  // after an escape
        .init(bytes: [0x5B, 0xFF, 0x5D], 1, 2, "unexpected byte 0xFF; expected a JSON value"),
        .init(bytes: [0x0A, 0x0A, 0x20, 0x20, 0x00], 3, 3, "unexpected byte 0x00; expected a JSON value"),
        .init(bytes: [0xEF, 0xBB], 1, 1, "unexpected byte 0xEF; expected a JSON value"),
    ]

    @Test("reports syntax errors with line and column", arguments: syntaxCases)
    func syntaxErrors(_ c: SyntaxCase) {
        #expect(throws: LayoutSpecError(path: "", line: c.line, column: c.column, reason: c.reason)) {
            try SpecJSONParser.parse(c.json)
        }
    }

    @Test("describes a syntax error in one line")
    func syntaxErrorDescription() {
        let error = LayoutSpecError(path: "", line: 3, column: 7, reason: "duplicate key \"a\"")
        #expect(error.description == "line 3, column 7: duplicate key \"a\"")
    }

    @Test("detects duplicate keys in large objects")
    func duplicateKeysInLargeObjects() {
        let members = (0..<40).map { "\"k\($0)\": \($0)" }.joined(separator: ", ")
        #expect(throws: LayoutSpecError(path: "", line: 1, column: 422, reason: "duplicate key \"k35\"")) {
            try SpecJSONParser.parse(Array("{\(members), \"k35\": 0}".utf8))
        }
        let fine = try? SpecJSONParser.parse(Array("{\(members)}".utf8))
        guard case .object(let parsed)? = fine else {
            Issue.record("expected an object")
            return
        }
        #expect(parsed.map(\.key) == (0..<40).map { "k\($0)" })
    }

    struct NumberCase: Sendable, CustomTestStringConvertible {
        var text: String
        var expected: Double
        var testDescription: String { text }
    }

    /// Fast-path and slow-path numbers, each checked against the correctly rounded value.
    static let numberCases: [NumberCase] = [
        "0.1", "0.2", "0.3", "1.7976931348623157e308", "2.2250738585072014e-308", "5e-324", "4.9e-324",
        "123456789012345", "1234567890123456", "12345678901234567890", "123456789012345678901234567890",
        "9007199254740993", "0.1000000000000000055511151231257827", "1e22", "1e23", "1e-22", "1e-23",
        "3.141592653589793", "2.718281828459045", "-98.3333333333333", "166.66666666666666", "0.00000000001",
        "100000000000000000000000000000e-30", "1.5e300", "8.5", "-0.0000001234",
    ].map { NumberCase(text: $0, expected: Double($0)!) }

    @Test("converts numbers correctly rounded", arguments: numberCases)
    func numbers(_ c: NumberCase) throws {
        #expect(try SpecJSONParser.parse(Array(c.text.utf8)) == .number(c.expected))
    }

    @Test("turns out-of-range numbers into infinity or zero, never a trap")
    func outOfRangeNumbers() throws {
        #expect(try SpecJSONParser.parse(Array("1e400".utf8)) == .number(.infinity))
        #expect(try SpecJSONParser.parse(Array("-1e400".utf8)) == .number(-.infinity))
        #expect(try SpecJSONParser.parse(Array("1e99999999999999999999".utf8)) == .number(.infinity))
        #expect(try SpecJSONParser.parse(Array("1e-400".utf8)) == .number(0))
        #expect(try SpecJSONParser.parse(Array("1e-99999999999999999999".utf8)) == .number(0))
        #expect(try SpecJSONParser.parse(Array(("1" + String(repeating: "0", count: 400)).utf8)) == .number(.infinity))
    }

    @Test("limits nesting depth")
    func nestingDepth() throws {
        let ok =
            String(repeating: "[", count: SpecJSONParser.maxDepth)
            + String(repeating: "]", count: SpecJSONParser.maxDepth)
        _ = try SpecJSONParser.parse(Array(ok.utf8))
        let deep = String(repeating: "[", count: 100_000)
        #expect(
            throws: LayoutSpecError(
                path: "",
                line: 1,
                column: SpecJSONParser.maxDepth + 1,
                reason: "arrays and objects nest deeper than 128 levels"
            )
        ) {
            try SpecJSONParser.parse(Array(deep.utf8))
        }
        let objects = String(repeating: "{\"a\":", count: 200) + "1" + String(repeating: "}", count: 200)
        #expect(throws: LayoutSpecError.self) { try SpecJSONParser.parse(Array(objects.utf8)) }
    }

    @Test("refuses input over the byte limit before parsing")
    func byteLimit() throws {
        #expect(throws: LayoutSpecError(path: "", reason: "the spec is 11 bytes; the limit is 10")) {
            try SpecJSONParser.parse(Array("[1,2,3,4,5]".utf8), maxBytes: 10)
        }
        _ = try SpecJSONParser.parse(Array("[1,2,3,4,5]".utf8), maxBytes: 11)
        let tooBig = [UInt8](repeating: 0x20, count: LayoutLimits.maxSpecBytes + 1)
        #expect(throws: LayoutSpecError(path: "", reason: "the spec is 4194305 bytes; the limit is 4194304")) {
            try LayoutSpec(json: tooBig)
        }
    }

    @Test("accepts any Collection of bytes")
    func collections() throws {
        let text = #"{"a": [1, "x"]}"#
        let expected = try SpecJSONParser.parse(Array(text.utf8))
        #expect(try SpecJSONParser.parse(text.utf8) == expected)
        #expect(try SpecJSONParser.parse(ArraySlice(Array(("  " + text).utf8)).dropFirst(2)) == expected)
    }

    /// Every prefix and many single-byte mutations of a realistic document either parse or
    /// throw; none may trap. (A crash here fails the whole test run.)
    @Test("never traps on truncated or mutated input")
    func neverTraps() {
        let document = Array(
            #"""
            {"sections": [{"id": "a\u00e9\ud83d\ude00", "itemCount": 4, "group": {"axis": "horizontal",
             "size": {"width": {"fractionalWidth": 1.0}, "height": {"absolute": 44e0}},
             "subitems": [{"item": {"size": {"width": {"fractionalWidth": 0.5}, "height": {"estimated": -1.5E-3}}}}]},
             "text": "tab\t é ✓ 😀", "n": [null, true, false, -0, 123456789012345678901234]}]}
            """#.utf8
        )
        for end in 0...document.count { _ = try? SpecJSONParser.parse(document[0..<end]) }
        let replacements: [UInt8] = [
            0x00, 0x22, 0x5C, 0x7B, 0x7D, 0x5B, 0x5D, 0x2C, 0x3A, 0x80, 0xC3, 0xED, 0xF0, 0xFF, 0x30,
        ]
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<3000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            var mutated = document
            let position = Int(state >> 33) % mutated.count
            mutated[position] = replacements[Int(state >> 20) % replacements.count]
            _ = try? SpecJSONParser.parse(mutated)
            _ = try? LayoutSpec(json: mutated)
        }
    }

    @Test("counts columns in Unicode scalars and lines at newlines")
    func lineAndColumn() {
        let bytes = Array("ab\n😀é\nx".utf8)
        #expect(JSONScanner.lineAndColumn(of: 0, in: bytes) == (1, 1))
        #expect(JSONScanner.lineAndColumn(of: 2, in: bytes) == (1, 3))
        #expect(JSONScanner.lineAndColumn(of: 3, in: bytes) == (2, 1))
        #expect(JSONScanner.lineAndColumn(of: 7, in: bytes) == (2, 2))
        #expect(JSONScanner.lineAndColumn(of: 9, in: bytes) == (2, 3))
        #expect(JSONScanner.lineAndColumn(of: 10, in: bytes) == (3, 1))
    }
}
