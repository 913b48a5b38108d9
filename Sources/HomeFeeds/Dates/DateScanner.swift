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

    /// `YYYY-` or a bare `YYYY` at the cursor: the ISO 8601 / W3C-DTF shape. RFC 822 never
    /// starts with four digits.
    var looksLikeISO8601: Bool {
        for offset in 0..<4 {
            guard let byte = peek(offset), byte.isASCIIDigit else { return false }
        }
        if peek(4) == UInt8(ascii: "-") { return true }
        var copy = self
        copy.index += 4
        return copy.isBlankToEnd
    }

    /// Nothing but white space from the cursor on.
    var isBlankToEnd: Bool {
        var position = index
        while position < bytes.count {
            let byte = bytes[position]
            guard byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D else { return false }
            position += 1
        }
        return true
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

    /// A time of day, `HH:MM[:SS[(.|,)fraction]]`, with the fraction skipped (seconds are
    /// truncated, `feed-parsing.md` §2).
    ///
    /// - Parameters:
    ///   - minimumHourDigits: 2 for ISO 8601; RFC 822 dates in the wild also write `9:05`.
    ///   - fractionNeedsDigits: whether a `.` or `,` must be followed by a digit (ISO 8601).
    /// - Returns: nil when the text is not such a time (the cursor is then somewhere inside it).
    mutating func timeOfDay(
        minimumHourDigits: Int,
        fractionNeedsDigits: Bool
    ) -> (hour: Int64, minute: Int64, second: Int64)? {
        guard let hour = digits(min: minimumHourDigits, max: 2), consume(UInt8(ascii: ":")),
            let minute = digits(min: 2, max: 2)
        else { return nil }
        var second: Int64 = 0
        if consume(UInt8(ascii: ":")) {
            guard let seconds = digits(min: 2, max: 2) else { return nil }
            second = seconds.value
            if consume(UInt8(ascii: ".")) || consume(UInt8(ascii: ",")) {
                if fractionNeedsDigits {
                    guard let byte = current, byte.isASCIIDigit else { return nil }
                }
                skipDigits()
            }
        }
        return (hour.value, minute.value, second)
    }

    /// Reads a run of ASCII letters, lowercased and packed (no allocation per date).
    mutating func word() -> DateWord {
        var word = DateWord(packed: 0, length: 0)
        while let byte = current, byte.isASCIILetter {
            if word.length < 8 { word.packed |= UInt64(byte | 0x20) << (8 * UInt64(word.length)) }
            word.length += 1
            index += 1
        }
        return word
    }

    /// A zone after the time: `Z`, a named zone of §2, an RFC 822 military letter, `±hhmm`,
    /// `±hh:mm` or `±hh`, and `GMT`/`UTC` followed by a numeric offset (`GMT-01:01`).
    /// Returns the offset east of UTC in seconds; nil when the text is no zone we know.
    mutating func zoneOffset() -> Int64? {
        guard let byte = current else { return nil }
        if byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") { return numericOffset() }
        guard byte.isASCIILetter else { return nil }
        let name = word()
        if name.length == 1, let letter = UInt8(exactly: name.packed) { return Self.militaryZone(letter) }
        guard let zone = Self.namedZones.first(where: { $0.name == name }) else { return nil }
        if zone.hours == 0, let next = current, next == UInt8(ascii: "+") || next == UInt8(ascii: "-") {
            return numericOffset()
        }
        return zone.hours * 3600
    }

    /// RFC 822 §5.1's military zones: `A`–`I` and `K`–`M` are −1…−12 hours, `N`–`Y` +1…+12,
    /// `Z` is UT; `J` is not a zone. (RFC 1123 §5.2.14 notes that RFC 822 got the signs
    /// backwards and senders rarely meant them; they are read as RFC 822 defines them.)
    static func militaryZone(_ letter: UInt8) -> Int64? {
        let hours: Int64
        switch letter {
        case UInt8(ascii: "a")...UInt8(ascii: "i"): hours = -Int64(letter - UInt8(ascii: "a") + 1)
        case UInt8(ascii: "k")...UInt8(ascii: "m"): hours = -Int64(letter - UInt8(ascii: "k") + 10)
        case UInt8(ascii: "n")...UInt8(ascii: "y"): hours = Int64(letter - UInt8(ascii: "n") + 1)
        case UInt8(ascii: "z"): hours = 0
        default: return nil
        }
        return hours * 3600
    }

    /// `±hhmm`, `±hh:mm` or `±hh` at the cursor, in seconds east of UTC.
    private mutating func numericOffset() -> Int64? {
        guard let byte = current else { return nil }
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

    /// Named zones of `feed-parsing.md` §2, lowercased, in hours east of UTC. `KST` is a
    /// product-specific addition for Korean publishers.
    static let namedZones: [(name: DateWord, hours: Int64)] = [
        ("ut", 0), ("utc", 0), ("gmt", 0), ("est", -5), ("edt", -4), ("cst", -6), ("cdt", -5),
        ("mst", -7), ("mdt", -6), ("pst", -8), ("pdt", -7), ("kst", 9),
    ].map { (DateWord($0.0), $0.1) }
}

/// Up to the first 8 letters of a lowercase ASCII word packed into an integer, plus its length.
struct DateWord: Equatable {
    var packed: UInt64
    var length: Int

    init(packed: UInt64, length: Int) {
        self.packed = packed
        self.length = length
    }

    init(_ text: String) {
        self.init(packed: 0, length: 0)
        for byte in text.utf8 {
            if length < 8 { packed |= UInt64(byte) << (8 * UInt64(length)) }
            length += 1
        }
    }

    /// True when `self` (at least 3 letters) is a prefix of `name`.
    func isAbbreviation(of name: DateWord) -> Bool {
        guard length >= 3, length <= name.length else { return false }
        let kept = min(length, 8)
        let mask: UInt64 = kept == 8 ? ~0 : (1 << (8 * UInt64(kept))) - 1
        return name.packed & mask == packed
    }
}

extension UInt8 {
    var isASCIIDigit: Bool { self >= 0x30 && self <= 0x39 }
    var isASCIILetter: Bool { (self | 0x20) >= 0x61 && (self | 0x20) <= 0x7A }
}
