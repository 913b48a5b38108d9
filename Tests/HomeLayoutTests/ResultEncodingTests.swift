import JSONCore
import Testing

@testable import HomeLayout

private func numberText(_ value: Double) -> String {
    var writer = JSONWriter(pretty: false)
    writer.number(value)
    return String(decoding: writer.bytes, as: UTF8.self)
}

private func stringText(_ value: String) -> String {
    var writer = JSONWriter(pretty: true)
    writer.string(value)
    return String(decoding: writer.bytes, as: UTF8.self)
}

/// A small result touching every field of the output contract.
private let sample = LayoutResult(
    environment: LayoutEnvironment(width: 375, height: 812, scale: 2),
    contentSize: Size(width: 375, height: 929.5),
    sections: [
        SectionLayout(
            index: 0,
            id: "userHistory",
            frame: Rect(x: 0, y: 0, width: 375, height: 200),
            itemFrames: [
                Rect(x: 16, y: 44, width: 166.5, height: 100), Rect(x: 192.5, y: 44, width: 166.5, height: 100),
            ],
            itemZIndex: 1,
            slotsPerGroup: 2,
            supplementaries: [
                SupplementaryFrame(
                    elementKind: "header",
                    item: nil,
                    frame: Rect(x: 16, y: 0, width: 343, height: 44),
                    zIndex: 2,
                    pinToVisibleBounds: true,
                    pinRange: PinRange(min: 0, max: 156)
                ),
                SupplementaryFrame(
                    elementKind: "badge",
                    item: 1,
                    frame: Rect(x: 349.5, y: 38, width: 20, height: 20),
                    zIndex: 1,
                    pinToVisibleBounds: false,
                    pinRange: nil
                ),
            ],
            decorations: [
                DecorationFrame(elementKind: "background", frame: Rect(x: 0, y: 0, width: 375, height: 200), zIndex: 0)
            ],
            orthogonal: nil
        ),
        SectionLayout(
            index: 1,
            id: "carousel \"new\"",
            frame: Rect(x: 0, y: 200, width: 375, height: 100),
            itemFrames: [],
            itemZIndex: 0,
            slotsPerGroup: 1,
            supplementaries: [],
            decorations: [],
            orthogonal: OrthogonalScrolling(
                behavior: .groupPaging,
                axis: .horizontal,
                contentWidth: 1170,
                stride: 230,
                centeringInset: 0,
                restOffsets: [0, 230, 460, 690, 795],
                minOffset: 0,
                maxOffset: 795
            )
        ),
    ],
    globalSupplementaries: [
        SupplementaryFrame(
            elementKind: "globalFooter",
            item: nil,
            frame: Rect(x: 0, y: 300, width: 375, height: 629.5),
            zIndex: 0,
            pinToVisibleBounds: false,
            pinRange: nil
        )
    ],
    diagnostics: [LayoutDiagnostic(path: "sections[1].group", message: "flexible spacing will be ignored")]
)

@Suite struct ResultEncodingTests {
    @Test("writes the documented pretty output")
    func prettyGolden() {
        let expected = """
            {
              "container": {"width": 375, "height": 812, "scale": 2},
              "platform": "ios17",
              "contentSize": {"width": 375, "height": 929.5},
              "sections": [
                {
                  "index": 0,
                  "id": "userHistory",
                  "frame": {"x": 0, "y": 0, "width": 375, "height": 200},
                  "items": [
                    {"index": 0, "frame": {"x": 16, "y": 44, "width": 166.5, "height": 100}, "zIndex": 1},
                    {"index": 1, "frame": {"x": 192.5, "y": 44, "width": 166.5, "height": 100}, "zIndex": 1}
                  ],
                  "supplementaries": [
                    {"elementKind": "header", "item": null, "frame": {"x": 16, "y": 0, "width": 343, "height": 44}, "zIndex": 2, "pinToVisibleBounds": true, "pinRange": {"min": 0, "max": 156}},
                    {"elementKind": "badge", "item": 1, "frame": {"x": 349.5, "y": 38, "width": 20, "height": 20}, "zIndex": 1, "pinToVisibleBounds": false}
                  ],
                  "decorations": [
                    {"elementKind": "background", "frame": {"x": 0, "y": 0, "width": 375, "height": 200}, "zIndex": 0}
                  ],
                  "orthogonal": null
                },
                {
                  "index": 1,
                  "id": "carousel \\"new\\"",
                  "frame": {"x": 0, "y": 200, "width": 375, "height": 100},
                  "items": [],
                  "supplementaries": [],
                  "decorations": [],
                  "orthogonal": {
                    "behavior": "groupPaging",
                    "axis": "horizontal",
                    "contentWidth": 1170,
                    "stride": 230,
                    "centeringInset": 0,
                    "restOffsets": [0, 230, 460, 690, 795],
                    "minOffset": 0,
                    "maxOffset": 795
                  }
                }
              ],
              "globalSupplementaries": [
                {"elementKind": "globalFooter", "item": null, "frame": {"x": 0, "y": 300, "width": 375, "height": 629.5}, "zIndex": 0, "pinToVisibleBounds": false}
              ],
              "diagnostics": [
                {"severity": "warning", "path": "sections[1].group", "message": "flexible spacing will be ignored"}
              ]
            }
            """
        #expect(sample.jsonString() == expected)
        #expect(sample.jsonBytes(pretty: true) == Array(expected.utf8))
    }

    @Test("writes compact output without whitespace")
    func compact() {
        let result = LayoutResult(
            environment: LayoutEnvironment(width: 320, height: 480, scale: 0),
            contentSize: Size(width: 320, height: 0),
            sections: [
                SectionLayout(
                    index: 0,
                    id: "a",
                    frame: .zero,
                    itemFrames: [Rect(x: 0, y: 0, width: 98.33333333333333, height: 1)],
                    itemZIndex: 0,
                    slotsPerGroup: 1,
                    supplementaries: [],
                    decorations: [],
                    orthogonal: OrthogonalScrolling(
                        behavior: .continuous,
                        axis: .horizontal,
                        contentWidth: 400,
                        stride: 100,
                        centeringInset: 0,
                        restOffsets: [],
                        minOffset: 0,
                        maxOffset: 80
                    )
                )
            ],
            globalSupplementaries: [],
            diagnostics: []
        )
        let expected =
            #"{"container":{"width":320,"height":480,"scale":0},"platform":"ios17","#
            + #""contentSize":{"width":320,"height":0},"#
            + #""sections":[{"index":0,"id":"a","frame":{"x":0,"y":0,"width":0,"height":0},"#
            + #""items":[{"index":0,"frame":{"x":0,"y":0,"width":98.33333333333333,"height":1},"zIndex":0}],"#
            + #""supplementaries":[],"decorations":[],"orthogonal":{"behavior":"continuous","axis":"horizontal","#
            + #""contentWidth":400,"stride":100,"centeringInset":0,"restOffsets":[],"minOffset":0,"maxOffset":80}}],"#
            + #""globalSupplementaries":[],"diagnostics":[]}"#
        #expect(result.jsonString(pretty: false) == expected)
    }

    @Test("writes an empty result")
    func empty() {
        let result = LayoutResult(
            environment: LayoutEnvironment(width: 1, height: 2, scale: 3),
            contentSize: .zero,
            sections: [],
            globalSupplementaries: [],
            diagnostics: []
        )
        #expect(
            result.jsonString()
                == """
                {
                  "container": {"width": 1, "height": 2, "scale": 3},
                  "platform": "ios17",
                  "contentSize": {"width": 0, "height": 0},
                  "sections": [],
                  "globalSupplementaries": [],
                  "diagnostics": []
                }
                """
        )
    }

    /// Compact items are written by a fast path of their own (one token run per item); they
    /// must be the pretty output's tokens exactly, whitespace aside.
    @Test("compact items are the pretty output without its whitespace")
    func compactItemsMatchPretty() {
        let frames = (0..<1_200).map { index in
            // Negative, fractional (1/2, 1/3, 1/8) and large coordinates, indexes past 1 000.
            Rect(x: Double(index) / 3 - 200, y: Double(index) * 1_234.5, width: 161.125, height: -0.5)
        }
        Self.expectCompactMatchesPretty(Self.grid(frames, zIndex: -3, scale: 3))
    }

    /// The compact items copy a frame field's text when it repeats the previous item's
    /// (`JSONNumberMemo`): every text must still be the one formatted for that exact value,
    /// whatever the runs of equal and changing values, signed zeros, non-finite values and
    /// the longest texts.
    @Test("repeated frame values are written as when first formatted")
    func repeatedFrameValues() {
        let pool: [Double] = [
            0, -0.0, 161.5, 161.5.nextUp, 20, -20, 199.5, 0.30000000000000004, 500.0 / 3, 1e300,
            -2.2250738585072014e-308, .greatestFiniteMagnitude, -.greatestFiniteMagnitude, .nan, .infinity,
            9_007_199_254_740_992, 1e-5,
        ]
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func pick() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return pool[Int(truncatingIfNeeded: state >> 33) % pool.count]
        }
        var frames: [Rect] = []
        var current = Rect(x: 0, y: 0, width: 0, height: 0)
        // Each field keeps its value on some items and takes any of the pool's on the others:
        // runs of one value, changes, and changes back to the value before.
        for index in 0..<3_000 {
            if index % 3 != 0 { current.x = pick() }
            if index % 5 != 1 { current.y = pick() }
            if index % 7 == 0 { current.width = pick() }
            if index % 2 == 0 { current.height = pick() }
            frames.append(current)
        }
        let result = Self.grid(frames, zIndex: 0, scale: 2)
        Self.expectCompactMatchesPretty(result)
        // The pool's texts all occur (a run of copies did not stand in for a new value).
        let text = String(decoding: result.jsonBytes(pretty: false), as: UTF8.self)
        for needle in ["-2.2250738585072014e-308", "-1.7976931348623157e+308", "161.50000000000003", "null", "1e-05"] {
            #expect(text.contains(needle), "\(needle)")
        }
    }

    /// A memo keeps an offset into the writer's output, not a pointer: the writer moving to a
    /// larger buffer between two uses must not change what is copied.
    @Test("repeated numbers survive the writer moving to a larger buffer")
    func memoAcrossGrowth() {
        let pool: [Double] = [161.5, 0.30000000000000004, 1e300, 20, -0.0, 0, 500.0 / 3, .nan]
        let values = (0..<400).map { pool[($0 / 3) % pool.count] }
        var memo = JSONNumberMemo()
        // 256 bytes at first (the least `encode` lends), so the 3 kB written grow it four times.
        let bytes = JSONWriter.encode(pretty: false, capacity: 0) { writer in
            writer.beginArray()
            for value in values {
                writer.compactValue(reserving: JSONWriter.maxNumberBytes) { $0.number(value, memo: &memo) }
            }
            writer.endArray()
        }
        #expect(String(decoding: bytes, as: UTF8.self) == "[" + values.map(numberText).joined(separator: ",") + "]")
    }

    /// An integer memo copies a repeat (a section's zIndex) and raises the last digit of a
    /// successor (the items' indices), but never past a 9, and stays exact across signs, the
    /// extremes and the writer moving to a larger buffer.
    @Test("integers written through a memo read as their own digits")
    func integerMemo() {
        var values = Array(0...25) + [99, 100, 101, 109, 110, 111, 5, 5, 6, 6, 1_999, 2_000, 2_001]
        values += [-1, 0, 1, -9, -8, -10, Int.max - 1, Int.max, Int.min, Int.min + 1, 999_999_999_999_999]
        values += [1_000_000_000_000_000, 1_000_000_000_000_001, 12_345_678_901_234_567, 12_345_678_901_234_568]
        values += (1_000...1_300).map { $0 }
        // Back to the older entry, and repeats of texts longer than the 16 bytes copied blind.
        values += [7, 8, 7, 8, 7, Int.min, Int.min, Int.max, Int.max, Int.min]
        var memo = JSONNumberMemo()
        let bytes = JSONWriter.encode(pretty: false, capacity: 0) { writer in
            writer.beginArray()
            for value in values {
                writer.compactValue(reserving: 20) { $0.int(value, memo: &memo) }
            }
            writer.endArray()
        }
        #expect(String(decoding: bytes, as: UTF8.self) == "[" + values.map(String.init).joined(separator: ",") + "]")
    }

    /// A result of one section, "grid", holding `frames` as its items.
    private static func grid(_ frames: [Rect], zIndex: Int, scale: Double) -> LayoutResult {
        LayoutResult(
            environment: LayoutEnvironment(width: 375, height: 812, scale: scale),
            contentSize: Size(width: 375, height: 1e6),
            sections: [
                SectionLayout(
                    index: 0,
                    id: "grid",
                    frame: .zero,
                    itemFrames: frames,
                    itemZIndex: zIndex,
                    slotsPerGroup: 2,
                    supplementaries: [],
                    decorations: [],
                    orthogonal: nil
                )
            ],
            globalSupplementaries: [],
            diagnostics: []
        )
    }

    /// Expects `result`'s compact output to be its pretty output less the whitespace, naming the
    /// first byte where they differ (the whole texts are megabytes).
    private static func expectCompactMatchesPretty(
        _ result: LayoutResult,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let compact = result.jsonBytes(pretty: false)
        let expected = withoutWhitespace(result.jsonBytes(pretty: true))
        guard compact != expected else { return }
        let shorter = min(compact.count, expected.count)
        let at = (0..<shorter).first { compact[$0] != expected[$0] } ?? shorter
        func around(_ bytes: [UInt8]) -> String {
            String(decoding: bytes[max(at - 40, 0)..<min(at + 40, bytes.count)], as: UTF8.self)
        }
        Issue.record(
            "compact output differs at byte \(at): \(around(compact)) instead of \(around(expected))",
            sourceLocation: sourceLocation
        )
    }

    /// `pretty` JSON less its whitespace outside strings: the compact output of the same value.
    private static func withoutWhitespace(_ pretty: [UInt8]) -> [UInt8] {
        var stripped: [UInt8] = []
        var inString = false
        var escaped = false
        for byte in pretty {
            if inString {
                stripped.append(byte)
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
            } else if byte == UInt8(ascii: "\"") {
                inString = true
                stripped.append(byte)
            } else if byte != UInt8(ascii: " "), byte != UInt8(ascii: "\n") {
                stripped.append(byte)
            }
        }
        return stripped
    }

    struct NumberCase: Sendable, CustomTestStringConvertible {
        var value: Double
        var text: String
        var testDescription: String { text }
    }

    static let numberCases: [NumberCase] = [
        .init(value: 375, text: "375"),
        .init(value: 0, text: "0"),
        .init(value: -0.0, text: "0"),
        .init(value: -12, text: "-12"),
        .init(value: 98.5, text: "98.5"),
        .init(value: -0.25, text: "-0.25"),
        .init(value: 0.1, text: "0.1"),
        .init(value: 0.3, text: "0.3"),
        .init(value: 0.1 + 0.2, text: "0.30000000000000004"),
        .init(value: 12.125, text: "12.125"),
        .init(value: 0.001, text: "0.001"),
        .init(value: 0.0001, text: "0.0001"),
        .init(value: 0.00001, text: "1e-05"),
        .init(value: 500.0 / 3, text: "166.66666666666666"),
        .init(value: 98.33333333333333, text: "98.33333333333333"),
        .init(value: 1e15, text: "1000000000000000"),
        .init(value: 9_007_199_254_740_991, text: "9007199254740991"),
        .init(value: 9_007_199_254_740_992, text: "9007199254740992"),
        .init(value: 1e16, text: "1e+16"),
        .init(value: -2e20, text: "-2e+20"),
        .init(value: 1e300, text: "1e+300"),
        .init(value: -1.5e-300, text: "-1.5e-300"),
        .init(value: .leastNonzeroMagnitude, text: "5e-324"),
        .init(value: .greatestFiniteMagnitude, text: "1.7976931348623157e+308"),
        .init(value: 123_456_789_012.5, text: "123456789012.5"),
        .init(value: 0.5, text: "0.5"),
        .init(value: -0.5, text: "-0.5"),
        .init(value: -161.5, text: "-161.5"),
        .init(value: 4_503_599_627_370_495.5, text: "4503599627370495.5"),
        .init(value: 4_503_599_627_370_497, text: "4503599627370497"),
        .init(value: .nan, text: "null"),
        .init(value: .infinity, text: "null"),
        .init(value: -.infinity, text: "null"),
    ]

    @Test("prints numbers: integers bare, others shortest round-trip, non-finite as null", arguments: numberCases)
    func numbers(_ c: NumberCase) {
        #expect(numberText(c.value) == c.text)
    }

    /// The allocation-free path for short decimals must print exactly what Double.description
    /// prints (less the ".0" of integers).
    @Test("short-decimal fast path agrees with Double.description")
    func fastPathAgreesWithDescription() {
        var mismatches: [String] = []
        for denominator in [2.0, 3, 4, 5, 8, 10, 20, 100, 1000, 3000, 7] {
            for numerator in stride(from: -3000.0, through: 3000, by: 1) {
                let value = numerator / denominator
                var expected = value.description
                if expected.hasSuffix(".0") { expected.removeLast(2) }
                if expected == "-0" { expected = "0" }
                if numberText(value) != expected { mismatches.append("\(value): \(numberText(value)) vs \(expected)") }
            }
        }
        // Halves (and, where a binade holds none, the integers they round to) in every binade up
        // to 2^52, where halves end: from 2^50 up several one-place decimals read back to k.5.
        for exponent in 0...52 {
            let base = Double(sign: .plus, exponent: exponent, significand: 1)
            for value in [base - 0.5, -(base - 0.5), base + 0.5, -(base + 0.5), base * 1.5 + 0.5] {
                var expected = value.description
                if expected.hasSuffix(".0") { expected.removeLast(2) }
                if numberText(value) != expected { mismatches.append("\(value): \(numberText(value)) vs \(expected)") }
            }
        }
        for scale in [1e-4, 0.0003, 0.0012, 1e3, 1e6, 1e9, 1e11, 5e11] {
            for step in 0..<200 {
                let value = scale * (1 + Double(step) * 0.137)
                let expected =
                    value.description.hasSuffix(".0") ? String(value.description.dropLast(2)) : value.description
                if numberText(value) != expected { mismatches.append("\(value): \(numberText(value)) vs \(expected)") }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(10))")
    }

    /// The exact shortest-decimal search (JSONCore's ShortestDecimal) over random doubles of
    /// every binade of the plain range, 1e-4 ≤ |v| < 2^53: same text as Double.description.
    @Test("shortest round-trip digits agree with Double.description across the plain range")
    func shortestAgreesWithDescription() {
        var state: UInt64 = 0x5EED
        func next() -> UInt64 {
            // SplitMix64.
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        var mismatches: [String] = []
        var checked = 0
        while checked < 50_000 {
            // Biased exponents 1010…1075: 2^-13 (≈ 1.2e-4) up to 2^52.
            let exponent = 1010 + next() % 66
            let bits = (exponent << 52) | (next() & ((1 << 52) - 1)) | (next() & 1) << 63
            let value = Double(bitPattern: bits)
            guard value.magnitude >= 1e-4 else { continue }
            checked += 1
            var expected = value.description
            if expected.hasSuffix(".0") { expected.removeLast(2) }
            if numberText(value) != expected { mismatches.append("\(value): \(numberText(value)) vs \(expected)") }
        }
        // Powers of two (a narrower ulp below) and their neighbours.
        for exponent in -13...52 {
            let power = Double(sign: .plus, exponent: exponent, significand: 1)
            for value in [power, power.nextUp, power.nextDown, -power.nextDown] where value.magnitude >= 1e-4 {
                var expected = value.description
                if expected.hasSuffix(".0") { expected.removeLast(2) }
                if numberText(value) != expected { mismatches.append("\(value): \(numberText(value)) vs \(expected)") }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(10))")
    }

    struct StringCase: Sendable, CustomTestStringConvertible {
        var value: String
        var json: String
        var testDescription: String { json }
    }

    @Test(
        "escapes strings per RFC 8259",
        arguments: [
            StringCase(value: "plain", json: #""plain""#),
            StringCase(value: "q\"b\\s/", json: #""q\"b\\s/""#),
            StringCase(value: "\n\r\t\u{8}\u{C}", json: #""\n\r\t\b\f""#),
            StringCase(value: "\u{0}\u{1F}\u{7F}", json: "\"\\u0000\\u001f\u{7F}\""),
            StringCase(value: "é✓😀\u{2028}", json: "\"é✓😀\u{2028}\""),
        ]
    )
    func strings(_ c: StringCase) throws {
        #expect(stringText(c.value) == c.json)
        #expect(try SpecJSONParser.parse(Array(c.json.utf8)) == .string(c.value))
    }

    /// Each character that needs escaping (and some that look close), at every offset of three
    /// 8-byte words and at the very end: the word-at-a-time scan must find it wherever it sits,
    /// and text after it must still be copied whole.
    @Test("escapes a special character at every position of the scanned words", arguments: [false, true])
    func specialsAtEveryOffset(lineSeparators: Bool) {
        let specials: [String] = [
            "\"", "\\", "\n", "\u{1}", "\u{1F}", " ", "\u{7F}", "é", "\u{2028}", "\u{2029}", "✓",
            "\"\\", "\u{2028}\"", "\n\u{2029}\t",
        ]
        for special in specials {
            for offset in 0...24 {
                let text = String(repeating: "a", count: offset) + special + String(repeating: "b", count: 24 - offset)
                var writer = JSONWriter(pretty: false, escapingLineSeparators: lineSeparators)
                writer.string(text)
                let expected =
                    "\"" + text.unicodeScalars.map { Self.reference($0, lineSeparators: lineSeparators) }.joined()
                    + "\""
                #expect(
                    String(decoding: writer.bytes, as: UTF8.self) == expected,
                    "\(special.unicodeScalars.map { String($0.value, radix: 16) }) at \(offset)"
                )
            }
        }
    }

    /// Bytes a String cannot hold: a line separator's lead cut off at the end (`E2`, `E2 80`)
    /// is copied as it is, in the last word and past it.
    @Test("a cut-off line separator at the end is copied, not escaped", arguments: [0, 5, 6, 7, 8, 13])
    func cutOffLineSeparator(padding: Int) {
        for tail: [UInt8] in [[0xE2], [0xE2, 0x80]] {
            let input = [UInt8](repeating: UInt8(ascii: "a"), count: padding) + tail
            var output = [UInt8](repeating: 0, count: input.count * 6 + 2)
            let written = input.withUnsafeBufferPointer { utf8 in
                output.withUnsafeMutableBufferPointer { out in
                    guard let base = out.baseAddress else { return 0 }
                    return writeJSONString(utf8, to: base, escapingLineSeparators: true)
                }
            }
            #expect(Array(output[..<written]) == [UInt8(ascii: "\"")] + input + [UInt8(ascii: "\"")])
        }
    }

    /// RFC 8259 §7 one scalar at a time: the plain reading the fast scan must agree with.
    private static func reference(_ scalar: Unicode.Scalar, lineSeparators: Bool) -> String {
        switch scalar.value {
        case 0x22: return "\\\""
        case 0x5C: return "\\\\"
        case 0x0A: return "\\n"
        case 0x0D: return "\\r"
        case 0x09: return "\\t"
        case 0x08: return "\\b"
        case 0x0C: return "\\f"
        case 0..<0x20:
            let hex = String(scalar.value, radix: 16)
            return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        case 0x2028 where lineSeparators: return "\\u2028"
        case 0x2029 where lineSeparators: return "\\u2029"
        default: return String(scalar)
        }
    }

    @Test("output parses back with every number intact")
    func roundTrip() throws {
        var frames: [Rect] = []
        var state: UInt64 = 42
        for _ in 0..<500 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let bits = Double(state >> 11) / Double(1 << 53)
            frames.append(Rect(x: bits * 1000, y: (bits * 3).rounded() / 3, width: 1 / (bits + 0.01), height: -bits))
        }
        var result = sample
        result.sections[0].itemFrames = frames
        for pretty in [true, false] {
            let value = try SpecJSONParser.parse(result.jsonBytes(pretty: pretty))
            guard case .object(let root) = value,
                root.map(\.key) == [
                    "container", "platform", "contentSize", "sections", "globalSupplementaries", "diagnostics",
                ],
                case .array(let sections) = root[3].value, case .object(let section) = sections[0],
                case .array(let items) = section[3].value
            else {
                Issue.record("unexpected shape")
                return
            }
            #expect(
                section.map(\.key) == ["index", "id", "frame", "items", "supplementaries", "decorations", "orthogonal"]
            )
            #expect(items.count == frames.count)
            for (index, item) in items.enumerated() {
                let expected = SpecJSONValue.object([
                    SpecJSONMember(key: "index", value: .number(Double(index))),
                    SpecJSONMember(
                        key: "frame",
                        value: .object([
                            SpecJSONMember(key: "x", value: .number(frames[index].x)),
                            SpecJSONMember(key: "y", value: .number(frames[index].y)),
                            SpecJSONMember(key: "width", value: .number(frames[index].width)),
                            SpecJSONMember(key: "height", value: .number(frames[index].height)),
                        ])
                    ),
                    SpecJSONMember(key: "zIndex", value: .number(1)),
                ])
                if item != expected {
                    Issue.record("item \(index) differs: \(item) vs \(expected)")
                    break
                }
            }
        }
    }

    @Test("encodes a 100 000-item section and parses it back")
    func largeResult() throws {
        var result = sample
        result.sections[0].itemFrames = (0..<100_000).map { i in
            Rect(x: Double(i % 2) * 187.5, y: Double(i / 2) * 100.5, width: 187.5, height: 100)
        }
        let bytes = result.jsonBytes(pretty: false)
        let value = try SpecJSONParser.parse(bytes, maxBytes: Int.max)
        guard case .object(let root) = value, case .array(let sections) = root[3].value,
            case .object(let section) = sections[0], case .array(let items) = section[3].value
        else {
            Issue.record("unexpected shape")
            return
        }
        #expect(items.count == 100_000)
        #expect(
            items.last
                == .object([
                    SpecJSONMember(key: "index", value: .number(99_999)),
                    SpecJSONMember(
                        key: "frame",
                        value: .object([
                            SpecJSONMember(key: "x", value: .number(187.5)),
                            SpecJSONMember(key: "y", value: .number(49_999 * 100.5)),
                            SpecJSONMember(key: "width", value: .number(187.5)),
                            SpecJSONMember(key: "height", value: .number(100)),
                        ])
                    ),
                    SpecJSONMember(key: "zIndex", value: .number(1)),
                ])
        )
        #expect(result.jsonString(pretty: true).utf8.count > bytes.count)
    }

    @Test("a decoded spec and an encoded result share one JSON dialect")
    func specAndResultSanity() throws {
        // Decoding a spec and encoding a result built from it parse with the same parser; the
        // section ids survive escaping in both directions.
        let spec = try LayoutSpec(
            json: #"""
                {"sections": [{"id": "caf\u00e9 \"1\"", "itemCount": 2, "group": {"axis": "horizontal",
                  "size": {"width": {"fractionalWidth": 1}, "height": {"absolute": 44}},
                  "subitems": [{"item": {"size": {"width": {"fractionalWidth": 0.5}, "height": {"fractionalHeight": 1}}}}]}}]}
                """#.utf8
        )
        let section = spec.sections[0]
        #expect(section.id == "café \"1\"")
        let result = LayoutResult(
            environment: LayoutEnvironment(width: 375, height: 812, scale: 3),
            contentSize: Size(width: 375, height: 44),
            sections: [
                SectionLayout(
                    index: 0,
                    id: section.id,
                    frame: Rect(x: 0, y: 0, width: 375, height: 44),
                    itemFrames: [
                        Rect(x: 0, y: 0, width: 187.33333333333334, height: 44),
                        Rect(x: 187.33333333333334, y: 0, width: 187.33333333333334, height: 44),
                    ],
                    itemZIndex: 0,
                    slotsPerGroup: 2,
                    supplementaries: [],
                    decorations: [],
                    orthogonal: nil
                )
            ],
            globalSupplementaries: [],
            diagnostics: []
        )
        let json = result.jsonString()
        #expect(json.contains(#""id": "café \"1\"""#))
        #expect(json.contains(#""width": 187.33333333333334"#))
        guard case .object(let root) = try SpecJSONParser.parse(json.utf8), case .array(let sections) = root[3].value,
            case .object(let encoded) = sections[0]
        else {
            Issue.record("unexpected shape")
            return
        }
        #expect(encoded[1].value == .string(section.id))
    }
}
