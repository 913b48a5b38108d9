#if canImport(Glibc)
    internal import Glibc
#endif

/// The lexical half of a strict RFC 8259 JSON parser, shared by HomeLayout's spec parser and
/// the Varlink message parser: whitespace, literals, numbers, strings with their escapes and
/// UTF-8 validation, and byte descriptions for error messages. Each parser keeps its own tree
/// building (ordered members for layout specs, dictionaries for Varlink).
///
/// Strict: no comments, `NaN` or leading zeros; control characters in strings must be escaped;
/// `\u` escapes must pair surrogates (unless ``unpairedSurrogateOffsets`` is set); invalid
/// UTF-8 is an error. It never traps on any input:
/// every problem is a ``JSONSyntaxError`` at a byte offset.
public struct JSONScanner {
    public let bytes: UnsafeBufferPointer<UInt8>
    public var index = 0
    /// Nil (the default): strict, an unpaired surrogate escape is an error. An array: each one
    /// is decoded as U+FFFD instead and the offset of its backslash appended here, for a
    /// reader that takes what producers write (a JavaScript `substring` that cut an emoji in
    /// half) and reports it. Only the JSON Feed reader sets it; Varlink and layout specs stay
    /// strict.
    public var unpairedSurrogateOffsets: [Int]?

    public init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// Skips a leading UTF-8 byte-order mark (RFC 8259 §8.1 allows a parser to).
    public mutating func skipByteOrderMark() {
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
    }

    public mutating func expectLiteral(_ literal: StaticString) throws(JSONSyntaxError) {
        let start = index
        let count = literal.utf8CodeUnitCount
        let matches = literal.withUTF8Buffer { expected in
            guard bytes.count - start >= count else { return false }
            for i in 0..<count where bytes[start + i] != expected[i] { return false }
            return true
        }
        guard matches else {
            throw JSONSyntaxError(offset: start, message: "invalid literal; expected \(literal)")
        }
        index += count
        // `truex` and `null1` are one bad token, not a literal followed by garbage.
        if index < bytes.count, isIdentifierByte(bytes[index]) {
            throw JSONSyntaxError(offset: start, message: "invalid literal; expected \(literal)")
        }
    }

    // MARK: - Numbers

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    ///
    /// Up to 15 significant digits with a decimal exponent within ±22 are converted exactly
    /// with one multiplication or division (Clinger's fast path); anything else goes through the
    /// standard library's correctly rounded `Double(_:)`. Literals beyond the double range
    /// become ±infinity (the decoder reports them), tiny ones 0.
    public mutating func parseNumber() throws(JSONSyntaxError) -> JSONNumber {
        let start = index
        var negative = false
        if bytes[index] == UInt8(ascii: "-") {
            negative = true
            index += 1
        }
        var mantissa: UInt64 = 0
        var significantDigits = 0
        var exponent = 0
        var truncated = false

        guard index < bytes.count, isDigit(bytes[index]) else {
            throw JSONSyntaxError(offset: index, message: "invalid number; expected a digit after '-'")
        }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, isDigit(bytes[index]) {
                throw JSONSyntaxError(offset: start, message: "invalid number; leading zeros are not allowed")
            }
        } else {
            while index < bytes.count, isDigit(bytes[index]) {
                if significantDigits < 19 {
                    mantissa = mantissa &* 10 &+ UInt64(bytes[index] &- UInt8(ascii: "0"))
                    significantDigits += 1
                } else {
                    exponent += 1
                    truncated = true
                }
                index += 1
            }
        }
        var isInteger = true
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else {
                throw JSONSyntaxError(offset: index, message: "invalid number; expected a digit after '.'")
            }
            while index < bytes.count, isDigit(bytes[index]) {
                let digit = bytes[index] &- UInt8(ascii: "0")
                if mantissa == 0 && digit == 0 {
                    exponent -= 1
                } else if significantDigits < 19 {
                    mantissa = mantissa &* 10 &+ UInt64(digit)
                    significantDigits += 1
                    exponent -= 1
                } else {
                    truncated = true
                }
                index += 1
            }
        }
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            isInteger = false
            index += 1
            var exponentNegative = false
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                exponentNegative = bytes[index] == UInt8(ascii: "-")
                index += 1
            }
            guard index < bytes.count, isDigit(bytes[index]) else {
                throw JSONSyntaxError(offset: index, message: "invalid number; expected a digit in the exponent")
            }
            var explicit = 0
            while index < bytes.count, isDigit(bytes[index]) {
                // Saturate: 1e999999999999 is simply out of range, never an overflow trap.
                if explicit < 1_000_000 { explicit = explicit * 10 + Int(bytes[index] &- UInt8(ascii: "0")) }
                index += 1
            }
            exponent += exponentNegative ? -explicit : explicit
        }
        if index < bytes.count, isIdentifierByte(bytes[index]) || bytes[index] == UInt8(ascii: ".") {
            throw JSONSyntaxError(offset: index, message: "invalid number; unexpected \(describeByte(at: index))")
        }

        return JSONNumber(
            negative: negative,
            mantissa: mantissa,
            significantDigits: significantDigits,
            exponent: exponent,
            isTruncated: truncated,
            isInteger: isInteger,
            range: start..<index
        )
    }

    // MARK: - Strings

    /// The string at `index` (its opening quote), `index` then after its closing quote.
    ///
    /// Its bytes are checked as they are scanned (escapes, control characters, well-formed
    /// UTF-8), so the `String` is made without validating them a second time; a string with
    /// escapes is decoded into a temporary buffer (on the stack when short), never shorter than
    /// its decoding since no escape is shorter than what it stands for. Both cut 1 000 of the
    /// 12 500 instructions of a Varlink call (callgrind, issue 17): `String(decoding:as:)`
    /// validated every byte again, and the escape path grew a heap array each message.
    public mutating func parseString() throws(JSONSyntaxError) -> String {
        index += 1  // "
        let start = index
        var isASCII = true
        // Fast path: no escapes.
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let string = String(
                    validUTF8: UnsafeBufferPointer(rebasing: bytes[start..<index]),
                    isASCII: isASCII
                )
                index += 1
                return string
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw controlCharacterError(byte) }
            if byte < 0x80 {
                index += 1
            } else {
                isASCII = false
                index += try utf8SequenceLength(at: index)
            }
        }
        guard index < bytes.count else {
            throw JSONSyntaxError(offset: index, message: "unexpected end of input inside a string")
        }
        // Slow path: room for the string up to its closing quote (or the input's end, an error
        // the decoding below reports where it is).
        let capacity = closingQuote(from: index) - start
        return try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) {
            buffer throws(JSONSyntaxError) -> String in
            try decodeEscapedString(from: start, into: buffer, isASCII: isASCII)
        }
    }

    /// The offset of the first quote from `from` on that no backslash escapes (preceded by an
    /// even number of them), or the input's end. A quote is found with `memchr`, not a loop
    /// over every byte (a loop was 180 instructions of a Varlink call's `ifNoneMatch`).
    private func closingQuote(from: Int) -> Int {
        guard let base = bytes.baseAddress else { return bytes.count }
        var from = from
        while from < bytes.count, let hit = memchr(base + from, Int32(UInt8(ascii: "\"")), bytes.count - from) {
            let quote = UnsafeRawPointer(hit) - UnsafeRawPointer(base)
            var backslashes = 0
            while quote - backslashes - 1 >= 0, bytes[quote - backslashes - 1] == UInt8(ascii: "\\") {
                backslashes += 1
            }
            if backslashes % 2 == 0 { return quote }
            from = quote + 1
        }
        return bytes.count
    }

    /// The rest of the string whose first backslash is at `index` and which started at `start`,
    /// decoded into `buffer` (at least as long as the raw string); `index` then after its
    /// closing quote.
    private mutating func decodeEscapedString(
        from start: Int,
        into buffer: UnsafeMutableBufferPointer<UInt8>,
        isASCII: Bool
    ) throws(JSONSyntaxError) -> String {
        guard let out = buffer.baseAddress, let base = bytes.baseAddress else {
            throw JSONSyntaxError(offset: index, message: "unexpected end of input inside a string")
        }
        var isASCII = isASCII
        var written = index - start
        out.initialize(from: base + start, count: written)
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                return String(validUTF8: UnsafeBufferPointer(start: out, count: written), isASCII: isASCII)
            }
            if byte == UInt8(ascii: "\\") {
                let decoded = try parseEscape(into: out + written)
                if decoded > 1 { isASCII = false }  // one byte is ASCII
                written += decoded
                continue
            }
            if byte < 0x20 { throw controlCharacterError(byte) }
            // The run of plain bytes up to the next quote, backslash or control byte, validated
            // as in the fast path and copied whole.
            let run = index
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { break }
                if byte < 0x80 {
                    index += 1
                } else {
                    isASCII = false
                    index += try utf8SequenceLength(at: index)
                }
            }
            (out + written).initialize(from: base + run, count: index - run)
            written += index - run
        }
        throw JSONSyntaxError(offset: index, message: "unexpected end of input inside a string")
    }

    public func controlCharacterError(_ byte: UInt8) -> JSONSyntaxError {
        JSONSyntaxError(
            offset: index,
            message: "unescaped control character U+\(hex(UInt32(byte), digits: 4)) in a string"
        )
    }

    /// Decodes the escape at `index` (a backslash) to `out`, which has room for 4 bytes; returns
    /// how many it wrote (1 to 4: an escape is never shorter than what it stands for).
    mutating func parseEscape(into out: UnsafeMutablePointer<UInt8>) throws(JSONSyntaxError) -> Int {
        let escapeStart = index
        index += 1
        guard index < bytes.count else {
            throw JSONSyntaxError(offset: index, message: "unexpected end of input inside a string")
        }
        let byte = bytes[index]
        index += 1
        let single: UInt8
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): single = byte
        case UInt8(ascii: "b"): single = 0x08
        case UInt8(ascii: "f"): single = 0x0C
        case UInt8(ascii: "n"): single = 0x0A
        case UInt8(ascii: "r"): single = 0x0D
        case UInt8(ascii: "t"): single = 0x09
        case UInt8(ascii: "u"):
            let first = try parseHex4()
            var scalarValue = first
            if unpairedSurrogateOffsets != nil, (0xD800...0xDFFF).contains(first),
                !isLowSurrogateEscapeNext(after: first)
            {
                unpairedSurrogateOffsets?.append(escapeStart)
                scalarValue = 0xFFFD
            } else if (0xD800...0xDBFF).contains(first) {
                // A high surrogate must be followed by an escaped low surrogate.
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
                else {
                    throw JSONSyntaxError(
                        offset: escapeStart,
                        message:
                            "unpaired surrogate \\u\(hex(first, digits: 4)); expected a \\u low surrogate to follow"
                    )
                }
                index += 2
                let second = try parseHex4()
                guard (0xDC00...0xDFFF).contains(second) else {
                    throw JSONSyntaxError(
                        offset: escapeStart,
                        message:
                            "unpaired surrogate \\u\(hex(first, digits: 4)) followed by \\u\(hex(second, digits: 4))"
                    )
                }
                scalarValue = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(first) {
                throw JSONSyntaxError(
                    offset: escapeStart,
                    message: "unpaired surrogate \\u\(hex(first, digits: 4)) (a low surrogate without a high one)"
                )
            }
            // Never nil: surrogates are handled above and the value is at most 0x10FFFF.
            guard let scalar = Unicode.Scalar(scalarValue), let encoded = UTF8.encode(scalar) else { return 0 }
            for (offset, unit) in encoded.enumerated() { out[offset] = unit }
            return encoded.count
        default:
            throw JSONSyntaxError(
                offset: escapeStart,
                message:
                    "invalid escape \\\(describeByteRaw(byte)); expected one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u"
            )
        }
        out.pointee = single
        return 1
    }

    /// Whether `first`, a surrogate just read, is a high one followed by the escape of a low
    /// one (which the caller then reads); `index` is left where it was.
    private mutating func isLowSurrogateEscapeNext(after first: UInt32) -> Bool {
        guard (0xD800...0xDBFF).contains(first), index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
            bytes[index + 1] == UInt8(ascii: "u")
        else { return false }
        let start = index
        defer { index = start }
        index += 2
        guard let second = try? parseHex4() else { return false }
        return (0xDC00...0xDFFF).contains(second)
    }

    public mutating func parseHex4() throws(JSONSyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard index < bytes.count else {
                throw JSONSyntaxError(offset: index, message: "unexpected end of input in a \\u escape")
            }
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default:
                throw JSONSyntaxError(
                    offset: index,
                    message: "unexpected \(describeByte(at: index)) in a \\u escape; expected 4 hex digits"
                )
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    /// Length of the well-formed UTF-8 sequence at `i` (a byte ≥ 0x80), per the Unicode
    /// table of well-formed byte sequences (no overlongs, no surrogates, nothing above U+10FFFF).
    public func utf8SequenceLength(at i: Int) throws(JSONSyntaxError) -> Int {
        let b0 = bytes[i]
        guard let lead = UTF8Lead(b0) else {
            throw JSONSyntaxError(offset: i, message: "invalid UTF-8 byte 0x\(hex(UInt32(b0), digits: 2))")
        }
        let length = lead.length
        guard bytes.count - i >= length else {
            throw JSONSyntaxError(offset: i, message: "truncated UTF-8 sequence at the end of input")
        }
        let b1 = bytes[i + 1]
        guard lead.second.contains(b1) else {
            throw JSONSyntaxError(
                offset: i,
                message: "invalid UTF-8 sequence 0x\(hex(UInt32(b0), digits: 2)) 0x\(hex(UInt32(b1), digits: 2))"
            )
        }
        for k in 2..<max(2, length) where bytes[i + k] & 0xC0 != 0x80 {
            throw JSONSyntaxError(
                offset: i,
                message: "invalid UTF-8 sequence starting with 0x\(hex(UInt32(b0), digits: 2))"
            )
        }
        return length
    }

    // MARK: - Bytes

    /// Inlinable: called between every two tokens, from other modules too (a call each time
    /// was 150 instructions of a Varlink call, callgrind, issue 17).
    @inlinable
    public mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    public func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    public func isIdentifierByte(_ byte: UInt8) -> Bool {
        isDigit(byte) || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z"))
            || byte == UInt8(ascii: "_") || byte >= 0x80
    }

    /// `'x'`, `end of input` or `byte 0xC3` for the byte at `i`.
    public func describeByte(at i: Int) -> String {
        guard i < bytes.count else { return "end of input" }
        let byte = bytes[i]
        if byte >= 0x80 {
            if let length = try? utf8SequenceLength(at: i) {
                let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[i..<i + length]), as: UTF8.self)
                return "'\(text)'"
            }
            return "byte 0x\(hex(UInt32(byte), digits: 2))"
        }
        if byte >= 0x21, byte < 0x7F { return "'\(describeByteRaw(byte))'" }
        return "byte \(describeByteRaw(byte))"
    }

    /// A printable ASCII byte as itself, anything else as `0xNN`.
    public func describeByteRaw(_ byte: UInt8) -> String {
        if byte >= 0x21, byte < 0x7F { return String(UnicodeScalar(byte)) }
        return "0x\(hex(UInt32(byte), digits: 2))"
    }
}

/// A number token: its decimal parts, read once, and where it stands in the input.
public struct JSONNumber {
    public var negative: Bool
    /// The first 19 significant digits.
    public var mantissa: UInt64
    public var significantDigits: Int
    /// The decimal exponent applied to `mantissa`.
    public var exponent: Int
    /// More than 19 significant digits: `mantissa` is not the whole number.
    public var isTruncated: Bool
    /// No fraction and no exponent in the literal.
    public var isInteger: Bool
    public var range: Range<Int>

    /// Exact powers of ten: every one up to 1e22 is a double, which makes the fast path exact.
    static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    /// The integer, when the literal is one with at most 18 digits (always within `Int`).
    public var exactInteger: Int? {
        guard isInteger, !isTruncated, significantDigits <= 18 else { return nil }
        let magnitude = Int(mantissa)
        return negative ? -magnitude : magnitude
    }

    /// The value when it is an integer within `Int64`, however it is written (`12`, `-0`, `1.0`,
    /// `1e3`, `1200e-2`), found from the decimal digits, never rounded through `Double`: nil
    /// otherwise, and for a literal of more than 19 significant digits.
    public var int64Value: Int64? {
        if mantissa == 0 { return 0 }
        guard !isTruncated else { return nil }
        var magnitude = mantissa
        if exponent >= 0 {
            // Past 20 steps the product has overflowed.
            for _ in 0..<exponent {
                let (product, overflow) = magnitude.multipliedReportingOverflow(by: 10)
                guard !overflow else { return nil }
                magnitude = product
            }
        } else {
            // A nonzero mantissa runs out of trailing zeros within 20 steps.
            for _ in 0 ..< -exponent {
                guard magnitude % 10 == 0 else { return nil }
                magnitude /= 10
            }
        }
        if negative {
            guard magnitude <= UInt64(Int64.max) + 1 else { return nil }
            return Int64(truncatingIfNeeded: 0 &- magnitude)
        }
        return magnitude <= UInt64(Int64.max) ? Int64(magnitude) : nil
    }

    /// The nearest double: Clinger's fast path (up to 15 significant digits, decimal exponent
    /// within ±22, one exact multiplication or division), else the standard library's
    /// correctly rounded `Double(_:)` on the literal. Beyond the double range: ±infinity.
    public func doubleValue(in bytes: UnsafeBufferPointer<UInt8>) -> Double {
        if mantissa == 0 { return negative ? -0.0 : 0 }
        if !isTruncated, significantDigits <= 15, exponent >= -22, exponent <= 22 {
            let m = Double(mantissa)
            let value = exponent >= 0 ? m * Self.powersOfTen[exponent] : m / Self.powersOfTen[-exponent]
            return negative ? -value : value
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
        if let value = Double(text) { return value }
        // The grammar is already checked, so only a range problem is left.
        return negative ? -.infinity : .infinity
    }
}

/// A syntax error at a byte offset; each parser turns it into its own error type.
public struct JSONSyntaxError: Error {
    public var offset: Int
    public var message: String

    public init(offset: Int, message: String) {
        self.offset = offset
        self.message = message
    }
}

/// Upper-case hex, zero-padded to `digits`.
public func hex(_ value: UInt32, digits: Int) -> String {
    let text = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, digits - text.count)) + text
}
