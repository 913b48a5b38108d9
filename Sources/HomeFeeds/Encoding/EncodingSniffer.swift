/// Decides which encoding an XML document is in, from its first bytes and the HTTP
/// `Content-Type`, in this order:
///
/// 1. A byte-order mark (UTF-8, UTF-16, UTF-32) wins over everything (RFC 7303 §3.3, WHATWG).
/// 2. The HTTP `charset` of a `text/*`, `application/xml` or `application/*+xml` response
///    (RFC 7303 §3.2–3.3: it is authoritative for XML media types).
/// 3. The `encoding` of the XML declaration (XML 1.0 §4.3.3), read in the byte pattern the
///    document starts with (XML 1.0 appendix F: ASCII, UTF-16, UTF-32, EBCDIC).
/// 4. Otherwise UTF-8 (UTF-16/32 for those patterns).
///
/// Labels are resolved with `EncodingLabel` (the WHATWG table, then iconv). A label that names
/// no known encoding, or an encoding that cannot have produced the document's first bytes
/// (`utf-16` declared in an ASCII document, as the HTML standard also rules), is skipped with
/// a warning and the next source is asked.
enum EncodingSniffer {
    struct Decision {
        var encoding: TextEncoding
        /// The name for messages, e.g. `EUC-KR`.
        var name: String
        /// Length of the byte-order mark to drop.
        var byteOrderMarkLength: Int
        /// True when the document is read as UTF-8 without a byte-order mark saying so: it
        /// may turn out to be windows-1252 (`UTF8Sanitizer`).
        var mayFallBack: Bool
    }

    /// The shape of the first four bytes (XML 1.0 appendix F).
    enum Pattern: Equatable {
        case asciiCompatible
        case utf16(bigEndian: Bool)
        case utf32(bigEndian: Bool)
        case ebcdic
    }

    /// The longest prefix read to find the XML declaration.
    static let maxPrefix = 1024

    /// True while `prefix` may still be too short to decide: fewer than four bytes, or no end
    /// of the XML declaration yet within `maxPrefix` bytes.
    static func needsMoreBytes(_ prefix: [UInt8], isFinal: Bool) -> Bool {
        if isFinal || prefix.count >= maxPrefix { return false }
        if prefix.count < 4 { return true }
        if byteOrderMark(prefix) != nil { return false }
        let end: UInt8 = pattern(prefix) == .ebcdic ? 0x6E : 0x3E  // '>' in EBCDIC and ASCII
        return !prefix.contains(end)
    }

    static func decide(_ prefix: [UInt8], contentType: ContentType?, warnings: inout WarningLog) -> Decision {
        let charset = contentType.flatMap { $0.isXMLOrText ? $0.charset : nil }
        if let (encoding, name, length) = byteOrderMark(prefix) {
            if let charset, EncodingLabel.resolve(charset)?.name != name {
                warnings.add(
                    line: nil,
                    column: nil,
                    "the byte-order mark (\(name)) wins over the HTTP charset \(charset)"
                )
            }
            return Decision(encoding: encoding, name: name, byteOrderMarkLength: length, mayFallBack: false)
        }
        let shape = pattern(prefix)
        let declared = declaredEncoding(prefix, pattern: shape)
        var chosen: ResolvedEncoding?
        var chosenSource = ""
        for (label, source) in [(charset, "HTTP charset"), (declared, "declared encoding")] {
            guard chosen == nil, let label else { continue }
            let line: Int? = source == "HTTP charset" ? nil : 1
            guard let resolved = EncodingLabel.resolve(label) else {
                warnings.add(
                    line: line,
                    column: nil,
                    "unknown \(source) \"\(excerpt(label, maxCharacters: 40))\" ignored"
                )
                continue
            }
            guard let fitted = fit(resolved, to: shape, prefix: prefix) else {
                warnings.add(
                    line: line,
                    column: nil,
                    "\(source) \(resolved.name) does not match the document's first bytes; ignored"
                )
                continue
            }
            chosen = fitted
            chosenSource = source
        }
        if let chosen, chosenSource == "HTTP charset", let declared, let other = EncodingLabel.resolve(declared),
            other.name != chosen.name
        {
            warnings.add(
                line: 1,
                column: nil,
                "the HTTP charset \(chosen.name) overrides the declared encoding \(other.name)"
            )
        }
        let result = chosen ?? defaultEncoding(for: shape)
        return Decision(
            encoding: result.encoding,
            name: result.name,
            byteOrderMarkLength: 0,
            mayFallBack: result.encoding == .utf8
        )
    }

    // MARK: Bytes

    /// The byte-order mark `bytes` start with: its encoding, that encoding's name and the
    /// mark's length (also `JSONFeedReader`'s, which refuses all but UTF-8's).
    static func byteOrderMark(_ bytes: [UInt8]) -> (TextEncoding, String, Int)? {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { return (.utf8, "UTF-8", 3) }
        if bytes.starts(with: [0x00, 0x00, 0xFE, 0xFF]) { return (.utf32(bigEndian: true), "UTF-32BE", 4) }
        if bytes.starts(with: [0xFF, 0xFE, 0x00, 0x00]) { return (.utf32(bigEndian: false), "UTF-32LE", 4) }
        if bytes.starts(with: [0xFE, 0xFF]) { return (.utf16(bigEndian: true), "UTF-16BE", 2) }
        if bytes.starts(with: [0xFF, 0xFE]) { return (.utf16(bigEndian: false), "UTF-16LE", 2) }
        return nil
    }

    /// Zero bytes among the first four tell UTF-16 and UTF-32 apart from ASCII; `Lo§”` is the
    /// EBCDIC form of `<?xm`.
    static func pattern(_ bytes: [UInt8]) -> Pattern {
        guard bytes.count >= 4 else { return .asciiCompatible }
        let zero = (bytes[0] == 0, bytes[1] == 0, bytes[2] == 0, bytes[3] == 0)
        switch zero {
        case (true, true, true, false): return .utf32(bigEndian: true)
        case (false, true, true, true): return .utf32(bigEndian: false)
        case (true, false, _, _): return .utf16(bigEndian: true)
        case (false, true, _, _): return .utf16(bigEndian: false)
        default: break
        }
        if bytes.starts(with: [0x4C, 0x6F, 0xA7, 0x94]) { return .ebcdic }
        return .asciiCompatible
    }

    private static func defaultEncoding(for pattern: Pattern) -> ResolvedEncoding {
        switch pattern {
        case .asciiCompatible: return ResolvedEncoding(encoding: .utf8, name: "UTF-8")
        case .utf16(let bigEndian):
            return ResolvedEncoding(encoding: .utf16(bigEndian: bigEndian), name: bigEndian ? "UTF-16BE" : "UTF-16LE")
        case .utf32(let bigEndian):
            return ResolvedEncoding(encoding: .utf32(bigEndian: bigEndian), name: bigEndian ? "UTF-32BE" : "UTF-32LE")
        case .ebcdic: return ResolvedEncoding(encoding: .converted(iconvName: "IBM037"), name: "IBM037")
        }
    }

    /// `resolved` adapted to the byte pattern (a `utf-16` label takes the pattern's byte
    /// order), or nil when it cannot have produced these bytes.
    private static func fit(_ resolved: ResolvedEncoding, to pattern: Pattern, prefix: [UInt8]) -> ResolvedEncoding? {
        switch (pattern, resolved.encoding) {
        case (.asciiCompatible, let encoding):
            return encoding.isASCIICompatible ? resolved : nil
        case (.utf16, .utf16), (.utf32, .utf32):
            return defaultEncoding(for: pattern)
        case (.ebcdic, .converted(let name)):
            // An EBCDIC code page must read the first bytes as "<?xm".
            guard let converter = IconvConverter(iconvName: name, codeUnitSize: 1) else { return nil }
            var out: [UInt8] = []
            Array(prefix.prefix(4)).withUnsafeBytes { converter.convert($0, isFinal: true, into: &out) }
            return out == Array("<?xm".utf8) ? resolved : nil
        default:
            return nil
        }
    }

    // MARK: The XML declaration

    /// The `encoding` pseudo-attribute of the XML declaration, read from `prefix` in its byte
    /// pattern; nil when there is no declaration or it names no encoding.
    static func declaredEncoding(_ prefix: [UInt8], pattern: Pattern) -> String? {
        let text = asciiView(prefix, pattern: pattern)
        var index = 0
        while index < text.count,
            text[index] == 0x20 || text[index] == 0x09 || text[index] == 0x0A || text[index] == 0x0D
        {
            index += 1
        }
        guard text[index...].starts(with: Array("<?xml".utf8)) else { return nil }
        let end = firstIndex(of: Array("?>".utf8), in: text, from: index) ?? text.count
        guard let name = firstIndex(of: Array("encoding".utf8), in: text, from: index), name < end else { return nil }
        var cursor = name + 8
        func skipSpaces() {
            while cursor < end,
                text[cursor] == 0x20 || text[cursor] == 0x09 || text[cursor] == 0x0A || text[cursor] == 0x0D
            {
                cursor += 1
            }
        }
        skipSpaces()
        guard cursor < end, text[cursor] == UInt8(ascii: "=") else { return nil }
        cursor += 1
        skipSpaces()
        guard cursor < end, text[cursor] == UInt8(ascii: "\"") || text[cursor] == UInt8(ascii: "'") else { return nil }
        let quote = text[cursor]
        let valueStart = cursor + 1
        guard let valueEnd = text[valueStart..<end].firstIndex(of: quote), valueEnd > valueStart else { return nil }
        return String(decoding: text[valueStart..<valueEnd], as: UTF8.self)
    }

    /// The ASCII characters of `prefix` read in `pattern` (stops at the first non-ASCII one).
    private static func asciiView(_ prefix: [UInt8], pattern: Pattern) -> [UInt8] {
        switch pattern {
        case .asciiCompatible:
            return Array(prefix.prefix { $0 < 0x80 })
        case .utf16(let bigEndian), .utf32(let bigEndian):
            let width = pattern == .utf16(bigEndian: bigEndian) ? 2 : 4
            var out: [UInt8] = []
            var index = 0
            while index + width <= prefix.count {
                let unit = prefix[index..<(index + width)]
                let low = bigEndian ? unit[unit.endIndex - 1] : unit[unit.startIndex]
                let rest = bigEndian ? unit.dropLast() : unit.dropFirst()
                guard low < 0x80, rest.allSatisfy({ $0 == 0 }) else { break }
                out.append(low)
                index += width
            }
            return out
        case .ebcdic:
            guard let converter = IconvConverter(iconvName: "IBM037", codeUnitSize: 1) else { return [] }
            var out: [UInt8] = []
            prefix.withUnsafeBytes { converter.convert($0, isFinal: true, into: &out) }
            return Array(out.prefix { $0 < 0x80 })
        }
    }

    private static func firstIndex(of needle: [UInt8], in haystack: [UInt8], from: Int) -> Int? {
        guard needle.count <= haystack.count else { return nil }
        var index = from
        while index + needle.count <= haystack.count {
            if haystack[index..<(index + needle.count)].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }
}
