/// The HTML half of ``PlainText``: tags, comments and raw-text elements skipped, character and
/// named references decoded once (`feed-parsing.md` §2 rules 1 and 4).
extension PlainText {
    /// Not inlined into `normalize`: the caller it would make is too large for the optimiser
    /// to inline `appendPlainRun` into it as well, and that call per run cost more than this one
    /// per field (callgrind: 7 M instructions in a 20 000-item document; issue 17).
    @inline(never)
    mutating func stripAndDecode(_ input: UnsafeBufferPointer<UInt8>) {
        let count = input.count
        var index = 0
        while index < count {
            index = appendPlainRun(input, from: index, isHTML: true)
            guard index < count else { break }
            let byte = input[index]
            if byte == UInt8(ascii: "<") {
                if usesFastPaths, let end = skipSimpleTag(input, at: index) {
                    index = end
                } else {
                    index = skipMarkup(input, at: index)
                }
            } else if byte == UInt8(ascii: "&") {
                index = decodeReference(input, at: index)
            } else {
                index = appendScalar(input, at: index)
            }
        }
    }

    /// Skips the `<name>` or `</name>` at `start` (a name of ASCII letters and digits, directly
    /// followed by `>`, not an opening script or style tag), as `skipMarkup` would; nil hands
    /// anything else to it. Most tags of feed HTML are such (`<p>`, `</b>`: eight an RSS item in
    /// the benchmark), and this saves them `skipMarkup`'s call and general walk (issue 17).
    @inline(__always)
    private mutating func skipSimpleTag(_ input: UnsafeBufferPointer<UInt8>, at start: Int) -> Int? {
        guard let base = input.baseAddress else { return nil }
        let count = input.count
        var nameStart = start &+ 1
        if nameStart < count && base[nameStart] == UInt8(ascii: "/") { nameStart &+= 1 }
        guard nameStart < count, base[nameStart].isASCIILetter else { return nil }
        var nameEnd = nameStart &+ 1
        while nameEnd < count, base[nameEnd].isASCIILetter || base[nameEnd].isASCIIDigit { nameEnd &+= 1 }
        guard nameEnd < count, base[nameEnd] == UInt8(ascii: ">") else { return nil }
        let name = UnsafeBufferPointer(start: base + nameStart, count: nameEnd &- nameStart)
        // `<img>` has no `src`, but a later scan for images would look at it.
        if HTMLTagNames.equalsIgnoringCase(name, "img") { mayHoldImageTag = true }
        // An opening script or style tag drops what follows it: `skipMarkup`'s business.
        if nameStart == start &+ 1 && HTMLTagNames.rawTextCloser(name) != nil { return nil }
        if HTMLTagNames.isBlock(name) { pendingSpace = true }
        return nameEnd &+ 1
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
        // Comments, declarations and processing instructions are skipped unread.
        if next == UInt8(ascii: "!") || next == UInt8(ascii: "?") { mayHoldImageTag = true }
        if next == UInt8(ascii: "!") {
            if start + 3 < count && input[start + 2] == UInt8(ascii: "-") && input[start + 3] == UInt8(ascii: "-") {
                return Self.find(Array("-->".utf8), in: input, from: start + 4).map { $0 + 3 } ?? count
            }
            return input.index(of: UInt8(ascii: ">"), from: start + 2).map { $0 + 1 } ?? count
        }
        if next == UInt8(ascii: "?") {
            return input.index(of: UInt8(ascii: ">"), from: start + 2).map { $0 + 1 } ?? count
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
        guard let tagEnd = Self.endOfTag(input, from: nameEnd) else {
            mayHoldImageTag = true
            return count
        }
        // An `img` tag, or a `<` in the attributes (a quoted value may hold one).
        if HTMLTagNames.equalsIgnoringCase(name, "img")
            || input.index(of: UInt8(ascii: "<"), from: nameEnd, before: tagEnd) != nil
        {
            mayHoldImageTag = true
        }
        if HTMLTagNames.isBlock(name) { pendingSpace = true }
        if !isClosing, let closer = HTMLTagNames.rawTextCloser(name) {
            mayHoldImageTag = true
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
        var afterEquals = false
        while index < input.count {
            let byte = input[index]
            if byte == UInt8(ascii: ">") { return index + 1 }
            if afterEquals && (byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'")) {
                // A quoted value (a URL, mostly): straight to its closing quote.
                guard let close = input.index(of: byte, from: index + 1) else { return nil }
                index = close + 1
                afterEquals = false
                continue
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
            appendScalarValue(HTMLEntities.numericScalar(value))
            return index + 1
        }
        if let end = HTMLEntities.nameEnd(in: input, from: index) {
            let name = UnsafeBufferPointer(rebasing: input[index..<end])
            // The references feeds use most, without a String or a table lookup.
            if let byte = Self.commonASCIIReference(name) {
                appendVisible(byte)
                return end + 1
            }
            if Self.equals(name, "nbsp") {
                pendingSpace = true
                return end + 1
            }
            if let replacement = HTMLEntities.lookup(name) {
                appendDecoded(replacement)
                return end + 1
            }
        }
        appendVisible(UInt8(ascii: "&"))
        return start + 1
    }

    /// The character of `&amp;`, `&lt;`, `&gt;`, `&quot;` or `&apos;` (exactly these lowercase
    /// names, as in the HTML5 table), else nil.
    private static func commonASCIIReference(_ name: UnsafeBufferPointer<UInt8>) -> UInt8? {
        switch name.count {
        case 2:
            guard name[1] == UInt8(ascii: "t") else { return nil }
            if name[0] == UInt8(ascii: "l") { return UInt8(ascii: "<") }
            if name[0] == UInt8(ascii: "g") { return UInt8(ascii: ">") }
        case 3:
            if name[0] == UInt8(ascii: "a") && name[1] == UInt8(ascii: "m") && name[2] == UInt8(ascii: "p") {
                return UInt8(ascii: "&")
            }
        case 4:
            if equals(name, "quot") { return UInt8(ascii: "\"") }
            if equals(name, "apos") { return UInt8(ascii: "'") }
        default: break
        }
        return nil
    }

    /// Byte equality with a literal (case-sensitive, as reference names are).
    private static func equals(_ name: UnsafeBufferPointer<UInt8>, _ literal: StaticString) -> Bool {
        guard name.count == literal.utf8CodeUnitCount else { return false }
        for index in 0..<name.count where name[index] != literal.utf8Start[index] { return false }
        return true
    }

    // MARK: Byte search

    private static func find(_ needle: [UInt8], in input: UnsafeBufferPointer<UInt8>, from: Int) -> Int? {
        guard let first = needle.first else { return from }
        var index = from
        while let candidate = input.index(of: first, from: index), candidate + needle.count <= input.count {
            var matches = true
            for offset in 1..<needle.count where input[candidate + offset] != needle[offset] {
                matches = false
                break
            }
            if matches { return candidate }
            index = candidate + 1
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
