extension DateScanner {
    /// ISO 8601 / RFC 3339: `YYYY-MM-DD[(T|t| )HH:MM[:SS[.frac]]][Z|±hh:mm|±hhmm|±hh]`, and
    /// the W3C-DTF reduced forms `YYYY-MM` and `YYYY` (https://www.w3.org/TR/NOTE-datetime).
    ///
    /// A date alone means 00:00:00, a missing day or month the first one; a missing zone means
    /// UTC; fractional seconds are truncated (`feed-parsing.md` §2). Called with the cursor on
    /// the first digit of the year.
    mutating func parseISO8601() -> FeedTimestamp? {
        guard let year = digits(min: 4, max: 4) else { return nil }
        if isBlankToEnd {
            return .make(year: year.value, month: 1, day: 1, hour: 0, minute: 0, second: 0, offsetSeconds: 0)
        }
        guard consume(UInt8(ascii: "-")), let month = digits(min: 2, max: 2) else { return nil }
        if isBlankToEnd {
            return .make(year: year.value, month: month.value, day: 1, hour: 0, minute: 0, second: 0, offsetSeconds: 0)
        }
        guard consume(UInt8(ascii: "-")), let day = digits(min: 2, max: 2) else { return nil }
        var hour: Int64 = 0
        var minute: Int64 = 0
        var second: Int64 = 0
        var offset: Int64 = 0
        if let separator = current,
            separator == UInt8(ascii: "T") || separator == UInt8(ascii: "t") || separator == 0x20
        {
            index += 1
            if separator == 0x20 { skipSpaces() }
            if !isAtEnd {
                guard let time = timeOfDay(minimumHourDigits: 2, fractionNeedsDigits: true) else { return nil }
                (hour, minute, second) = time
                skipSpaces()
                if !isAtEnd {
                    guard let zone = zoneOffset() else { return nil }
                    offset = zone
                }
            }
        }
        skipSpaces()
        guard isAtEnd else { return nil }
        return FeedTimestamp.make(
            year: year.value,
            month: month.value,
            day: day.value,
            hour: hour,
            minute: minute,
            second: second,
            offsetSeconds: offset
        )
    }
}
