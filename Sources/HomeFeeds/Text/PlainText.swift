/// How a text field is to be read (`feed-parsing.md` §2, plain text rules 1–2).
enum TextMode: Sendable {
    /// HTML: strip tags (dropping script, style and comments; block elements count as
    /// whitespace), then decode HTML entities exactly once.
    case html
    /// Literal text: no tag stripping and no second entity decoding.
    case literal
}

/// Turns field text into the contract's plain text: tags stripped (HTML only), entities decoded
/// once (HTML only), whitespace folded and trimmed, empty → nil.
///
/// Works on UTF-8 bytes in one pass and reuses its output buffer, so one value serves a whole
/// parse. Not Sendable by intent: one per parse.
struct PlainText {
    private var out: [UInt8] = []
    private var pendingSpace = false

    init() {
        out.reserveCapacity(4096)
    }

    /// Normalises `input` read as `mode`; nil when nothing but whitespace remains.
    mutating func normalize(_ input: UnsafeBufferPointer<UInt8>, mode: TextMode) -> String? {
        out.removeAll(keepingCapacity: true)
        pendingSpace = false
        switch mode {
        case .literal: appendFolding(input)
        case .html: stripAndDecode(input)
        }
        return out.isEmpty ? nil : String(decoding: out, as: UTF8.self)
    }

    /// Convenience for tests and JSON Feed.
    mutating func normalize(_ text: String, mode: TextMode) -> String? {
        var text = text
        return text.withUTF8 { normalize($0, mode: mode) }
    }

    // MARK: Whitespace folding

    private mutating func appendFolding(_ input: UnsafeBufferPointer<UInt8>) {
        var index = 0
        let count = input.count
        while index < count {
            index = appendPlainRun(input, from: index, isHTML: false)
            guard index < count else { break }
            index = appendScalar(input, at: index)
        }
    }

    /// Copies the run of bytes from `start` that need no attention (no markup, no reference,
    /// nothing that may be whitespace) in one append; returns where the run ends. Hangul and
    /// ASCII text are such runs, which keeps normalisation near memcpy speed.
    @inline(__always)
    private mutating func appendPlainRun(_ input: UnsafeBufferPointer<UInt8>, from start: Int, isHTML: Bool) -> Int {
        var index = start
        let count = input.count
        // Bit n of word n / 64 marks a byte that ends the run: ASCII space and controls, the
        // lead bytes of the non-ASCII spaces (C2, E1, E2, E3) and, for HTML, `<` and `&`.
        let low: UInt64 = isHTML ? 0x1000_0041_ffff_ffff : 0x0000_0001_ffff_ffff
        let high: UInt64 = 0x0000_000e_0000_0004
        while index < count {
            let byte = input[index]
            let word: UInt64 = byte < 0x40 ? low : byte >= 0xC0 ? high : 0
            if word & (1 << UInt64(byte & 63)) != 0 { break }
            index += 1
        }
        if index > start {
            if pendingSpace && !out.isEmpty { out.append(0x20) }
            pendingSpace = false
            out.append(contentsOf: UnsafeBufferPointer(rebasing: input[start..<index]))
        }
        return index
    }

    /// Appends the scalar starting at `index`, folding whitespace; returns the next index.
    @inline(__always)
    private mutating func appendScalar(_ input: UnsafeBufferPointer<UInt8>, at index: Int) -> Int {
        let byte = input[index]
        if byte < 0x80 {
            if byte == 0x20 || (byte >= 0x09 && byte <= 0x0D) {
                pendingSpace = true
            } else {
                appendVisible(byte)
            }
            return index + 1
        }
        let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
        let end = min(index + length, input.count)
        if Self.isUnicodeSpace(input, from: index, to: end) {
            pendingSpace = true
        } else {
            if pendingSpace && !out.isEmpty { out.append(0x20) }
            pendingSpace = false
            for position in index..<end { out.append(input[position]) }
        }
        return end
    }

    @inline(__always)
    private mutating func appendVisible(_ byte: UInt8) {
        if pendingSpace && !out.isEmpty { out.append(0x20) }
        pendingSpace = false
        out.append(byte)
    }

    private mutating func appendDecoded(_ utf8: [UInt8]) {
        utf8.withUnsafeBufferPointer { appendFolding($0) }
    }

    /// Unicode White_Space outside ASCII: U+0085, U+00A0 (NBSP, named in §2), U+1680,
    /// U+2000–U+200A, U+2028, U+2029, U+202F, U+205F, U+3000.
    private static func isUnicodeSpace(_ input: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Bool {
        let length = end - start
        let b0 = input[start]
        if length == 2 {
            return b0 == 0xC2 && (input[start + 1] == 0xA0 || input[start + 1] == 0x85)
        }
        guard length == 3 else { return false }
        let b1 = input[start + 1]
        let b2 = input[start + 2]
        switch b0 {
        case 0xE1: return b1 == 0x9A && b2 == 0x80
        case 0xE2:
            if b1 == 0x80 { return b2 <= 0x8A || b2 == 0xA8 || b2 == 0xA9 || b2 == 0xAF }
            return b1 == 0x81 && b2 == 0x9F
        case 0xE3: return b1 == 0x80 && b2 == 0x80
        default: return false
        }
    }

    // MARK: HTML

    private mutating func stripAndDecode(_ input: UnsafeBufferPointer<UInt8>) {
        let count = input.count
        var index = 0
        while index < count {
            index = appendPlainRun(input, from: index, isHTML: true)
            guard index < count else { break }
            let byte = input[index]
            if byte == UInt8(ascii: "<") {
                index = skipMarkup(input, at: index)
            } else if byte == UInt8(ascii: "&") {
                index = decodeReference(input, at: index)
            } else {
                index = appendScalar(input, at: index)
            }
        }
    }

    /// Handles a `<` at `start`: skips a tag, comment, declaration or processing instruction,
    /// or emits a literal `<` when none starts here. Returns the index after what was consumed.
    private mutating func skipMarkup(_ input: UnsafeBufferPointer<UInt8>, at start: Int) -> Int {
        let count = input.count
        guard start + 1 < count else {
            appendVisible(UInt8(ascii: "<"))
            return start + 1
        }
        let next = input[start + 1]
        if next == UInt8(ascii: "!") {
            if start + 3 < count && input[start + 2] == UInt8(ascii: "-") && input[start + 3] == UInt8(ascii: "-") {
                return Self.find(Array("-->".utf8), in: input, from: start + 4).map { $0 + 3 } ?? count
            }
            return Self.index(of: UInt8(ascii: ">"), in: input, from: start + 2).map { $0 + 1 } ?? count
        }
        if next == UInt8(ascii: "?") {
            return Self.index(of: UInt8(ascii: ">"), in: input, from: start + 2).map { $0 + 1 } ?? count
        }
        let isClosing = next == UInt8(ascii: "/")
        var nameStart = start + 1
        if isClosing { nameStart += 1 }
        guard nameStart < count, input[nameStart].isASCIILetter else {
            appendVisible(UInt8(ascii: "<"))
            return start + 1
        }
        var nameEnd = nameStart
        while nameEnd < count, input[nameEnd].isASCIILetter || input[nameEnd].isASCIIDigit { nameEnd += 1 }
        let name = UnsafeBufferPointer(rebasing: input[nameStart..<nameEnd])
        guard let tagEnd = Self.endOfTag(input, from: nameEnd) else { return count }
        if HTMLTagNames.isBlock(name) { pendingSpace = true }
        if !isClosing, let closer = HTMLTagNames.rawTextCloser(name) {
            // Script and style contents are dropped up to the matching close tag.
            guard let close = Self.findCaseInsensitive(closer, in: input, from: tagEnd) else { return count }
            return (Self.endOfTag(input, from: close + closer.count)) ?? count
        }
        return tagEnd
    }

    /// The index after the `>` that ends a tag whose name ends at `from`, honouring quoted
    /// attribute values; nil when the tag never ends (the rest is then part of the tag).
    private static func endOfTag(_ input: UnsafeBufferPointer<UInt8>, from: Int) -> Int? {
        var index = from
        var quote: UInt8 = 0
        var afterEquals = false
        while index < input.count {
            let byte = input[index]
            if quote != 0 {
                if byte == quote { quote = 0 }
            } else if byte == UInt8(ascii: ">") {
                return index + 1
            } else if afterEquals && (byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'")) {
                quote = byte
            }
            if byte == UInt8(ascii: "=") {
                afterEquals = true
            } else if byte != 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D {
                afterEquals = false
            }
            index += 1
        }
        return nil
    }

    /// Decodes `&name;`, `&#n;` or `&#xh;` at `start`; a bare `&` stays a literal `&` (§2 rule 4).
    private mutating func decodeReference(_ input: UnsafeBufferPointer<UInt8>, at start: Int) -> Int {
        let count = input.count
        var index = start + 1
        if index < count && input[index] == UInt8(ascii: "#") {
            index += 1
            var isHex = false
            if index < count && (input[index] | 0x20) == UInt8(ascii: "x") {
                isHex = true
                index += 1
            }
            var value: UInt32 = 0
            var digits = 0
            while index < count {
                let byte = input[index]
                let digit: UInt32
                if byte.isASCIIDigit {
                    digit = UInt32(byte - 0x30)
                } else if isHex && (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "f") {
                    digit = UInt32((byte | 0x20) - UInt8(ascii: "a") + 10)
                } else {
                    break
                }
                value = min(value &* (isHex ? 16 : 10) &+ digit, 0x11_0000)
                digits += 1
                index += 1
            }
            guard digits > 0, index < count, input[index] == UInt8(ascii: ";") else {
                appendVisible(UInt8(ascii: "&"))
                return start + 1
            }
            appendDecoded(Array(String(Character(HTMLEntities.numericScalar(value))).utf8))
            return index + 1
        }
        let nameStart = index
        while index < count, index - nameStart < 32, input[index].isASCIILetter || input[index].isASCIIDigit {
            index += 1
        }
        if index > nameStart, index < count, input[index] == UInt8(ascii: ";"),
            let replacement = HTMLEntities.lookup(UnsafeBufferPointer(rebasing: input[nameStart..<index]))
        {
            appendDecoded(replacement)
            return index + 1
        }
        appendVisible(UInt8(ascii: "&"))
        return start + 1
    }

    // MARK: Byte search

    private static func index(of byte: UInt8, in input: UnsafeBufferPointer<UInt8>, from: Int) -> Int? {
        var index = from
        while index < input.count {
            if input[index] == byte { return index }
            index += 1
        }
        return nil
    }

    private static func find(_ needle: [UInt8], in input: UnsafeBufferPointer<UInt8>, from: Int) -> Int? {
        guard let first = needle.first else { return from }
        var index = from
        while index + needle.count <= input.count {
            if input[index] == first {
                var matches = true
                for offset in 1..<needle.count where input[index + offset] != needle[offset] {
                    matches = false
                    break
                }
                if matches { return index }
            }
            index += 1
        }
        return nil
    }

    /// Finds `needle` (lowercase ASCII) ignoring ASCII case.
    private static func findCaseInsensitive(_ needle: [UInt8], in input: UnsafeBufferPointer<UInt8>, from: Int) -> Int?
    {
        var index = from
        while index + needle.count <= input.count {
            var matches = true
            for offset in 0..<needle.count where (input[index + offset] | 0x20) != needle[offset] {
                matches = false
                break
            }
            if matches { return index }
            index += 1
        }
        return nil
    }
}
