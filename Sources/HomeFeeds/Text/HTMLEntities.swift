/// The HTML5 named character references and numeric-reference rules.
///
/// Used twice: by libxml2's `getEntity` hook for undeclared `&nbsp;`-style references in XML
/// (`feed-parsing.md` §5.2), and by `PlainText` for the single entity-decoding pass over HTML
/// text (§2 rule 1).
package enum HTMLEntities {
    /// Name (without `&` and `;`) → UTF-8 of the replacement. Built once, read-only afterwards.
    static let table: [String: [UInt8]] = {
        var table: [String: [UInt8]] = [:]
        table.reserveCapacity(2200)
        for record in packedTable.split(separator: ";") {
            let trimmed = record.trimmingPrefix(while: { $0 == " " || $0 == "\n" })
            guard let equals = trimmed.firstIndex(of: "=") else { continue }
            let name = String(trimmed[..<equals])
            var utf8: [UInt8] = []
            for hex in trimmed[trimmed.index(after: equals)...].split(separator: " ") {
                if let value = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(value) {
                    utf8.append(contentsOf: String(Character(scalar)).utf8)
                }
            }
            table[name] = utf8
        }
        return table
    }()

    /// The replacement for `&name;`, or nil for an unknown name.
    static func lookup(_ name: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        table[String(decoding: name, as: UTF8.self)]
    }

    /// The index of the `;` that ends a reference name starting at `start` (just after the `&`):
    /// 1 to 32 ASCII letters and digits, then `;`; nil when none ends there. HTML5's names are 2
    /// to 31 such characters.
    @inline(__always)
    static func nameEnd(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        var index = start
        while index < bytes.count, index - start < 32, bytes[index].isASCIILetter || bytes[index].isASCIIDigit {
            index += 1
        }
        return index > start && index < bytes.count && bytes[index] == UInt8(ascii: ";") ? index : nil
    }

    /// The scalar for `&#n;` under HTML5 rules: NUL, surrogates and values past U+10FFFF become
    /// U+FFFD, and 0x80–0x9F are read as windows-1252 as browsers do. So do the characters XML
    /// cannot carry (``isForbiddenInXML(_:)``), which HTML5 only calls parse errors: a title must
    /// not carry a control character, whatever format it came in.
    static func numericScalar(_ value: UInt32) -> Unicode.Scalar {
        if value >= 0x80 && value <= 0x9F, let mapped = windows1252[Int(value - 0x80)] {
            return mapped
        }
        guard let scalar = Unicode.Scalar(value), !isForbiddenInXML(scalar) else { return "\u{FFFD}" }
        return scalar
    }

    /// The C0 controls other than tab, LF and CR, and U+FFFE and U+FFFF: the characters below
    /// U+10000 XML 1.0 forbids, which an XML document never delivers (`UTF8Sanitizer` replaces
    /// them by U+FFFD) but a reference in HTML text or a JSON escape (`\u0000`) can write.
    package static func isForbiddenInXML(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0D: false
        case 0..<0x20, 0xFFFE, 0xFFFF: true
        default: false
        }
    }

    /// The windows-1252 character of a byte 0x80–0x9F, or nil for the five unassigned ones
    /// (also what `SingleByteTable.windows1252` decodes with).
    static func windows1252C1(_ byte: UInt8) -> UInt32? {
        guard byte >= 0x80 && byte <= 0x9F else { return nil }
        return windows1252[Int(byte - 0x80)].map(\.value)
    }

    private static let windows1252: [Unicode.Scalar?] = [
        "\u{20AC}", nil, "\u{201A}", "\u{0192}", "\u{201E}", "\u{2026}", "\u{2020}", "\u{2021}",
        "\u{02C6}", "\u{2030}", "\u{0160}", "\u{2039}", "\u{0152}", nil, "\u{017D}", nil,
        nil, "\u{2018}", "\u{2019}", "\u{201C}", "\u{201D}", "\u{2022}", "\u{2013}", "\u{2014}",
        "\u{02DC}", "\u{2122}", "\u{0161}", "\u{203A}", "\u{0153}", nil, "\u{017E}", "\u{0178}",
    ]
}
