/// A cursor over the UTF-8 bytes of a date, shared by the RFC 822 and ISO 8601 readers.
struct DateScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    var isAtEnd: Bool { index >= bytes.count }
    var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    func peek(_ offset: Int) -> UInt8? {
        let position = index + offset
        return position < bytes.count ? bytes[position] : nil
    }

    /// `YYYY-` at the cursor: the ISO 8601 shape. RFC 822 never starts with four digits.
    var looksLikeISO8601: Bool {
        for offset in 0..<4 {
            guard let byte = peek(offset), byte.isASCIIDigit else { return false }
        }
        return peek(4) == UInt8(ascii: "-")
    }

    mutating func skipSpaces() {
        while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
            index += 1
        }
    }

    mutating func consume(_ byte: UInt8) -> Bool {
        guard current == byte else { return false }
        index += 1
        return true
    }

    /// Reads between `minDigits` and `maxDigits` decimal digits; nil when fewer are present.
    mutating func digits(min minDigits: Int, max maxDigits: Int) -> (value: Int64, count: Int)? {
        var value: Int64 = 0
        var count = 0
        while count < maxDigits, let byte = current, byte.isASCIIDigit {
            value = value * 10 + Int64(byte - 0x30)
            count += 1
            index += 1
        }
        return count >= minDigits ? (value, count) : nil
    }

    mutating func skipDigits() {
        while let byte = current, byte.isASCIIDigit { index += 1 }
    }

    /// Reads ASCII letters, lowercased, up to 16 of them (longer words are not date words).
    mutating func word() -> [UInt8] {
        var letters: [UInt8] = []
        while let byte = current, byte.isASCIILetter {
            if letters.count < 16 { letters.append(byte | 0x20) }
            index += 1
        }
        return letters
    }

    /// A zone after the time: `Z`, a named zone of §2, `±hhmm`, `±hh:mm` or `±hh`.
    /// Returns the offset east of UTC in seconds; nil when the text is no zone we know.
    mutating func zoneOffset() -> Int64? {
        guard let byte = current else { return nil }
        if byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") {
            index += 1
            let sign: Int64 = byte == UInt8(ascii: "-") ? -1 : 1
            guard let hours = digits(min: 2, max: 2) else { return nil }
            var minutes: Int64 = 0
            if consume(UInt8(ascii: ":")) {
                guard let value = digits(min: 2, max: 2) else { return nil }
                minutes = value.value
            } else if let value = digits(min: 2, max: 2) {
                minutes = value.value
            }
            guard hours.value <= 23, minutes <= 59 else { return nil }
            return sign * (hours.value * 3600 + minutes * 60)
        }
        guard byte.isASCIILetter else { return nil }
        let name = word()
        guard let hours = Self.namedZones[name] else { return nil }
        return hours * 3600
    }

    /// Named zones of `feed-parsing.md` §2, lowercased, in hours east of UTC. `KST` is a
    /// product-specific addition for Korean publishers.
    static let namedZones: [[UInt8]: Int64] = [
        Array("ut".utf8): 0, Array("utc".utf8): 0, Array("gmt".utf8): 0, Array("z".utf8): 0,
        Array("est".utf8): -5, Array("edt".utf8): -4, Array("cst".utf8): -6, Array("cdt".utf8): -5,
        Array("mst".utf8): -7, Array("mdt".utf8): -6, Array("pst".utf8): -8, Array("pdt".utf8): -7,
        Array("kst".utf8): 9,
    ]
}

extension UInt8 {
    var isASCIIDigit: Bool { self >= 0x30 && self <= 0x39 }
    var isASCIILetter: Bool { (self | 0x20) >= 0x61 && (self | 0x20) <= 0x7A }
}
