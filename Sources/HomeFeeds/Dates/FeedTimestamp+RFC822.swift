extension DateScanner {
    /// Tolerant RFC 822/2822: `[Weekday[,]] D Month YY[YY] [H:MM[:SS]] [zone] [(comment)]`,
    /// and the month-first asctime and JavaScript forms (`parseMonthFirst`).
    ///
    /// Weekdays are optional and ignored even when wrong; day and month names may be full or
    /// abbreviated in any case; 2-digit years map 00–49 → 20xx and 50–99 → 19xx; a missing
    /// zone means UTC (`feed-parsing.md` §2). Anything left over makes the value unparseable.
    mutating func parseRFC822() -> FeedTimestamp? {
        skipSpaces()
        if let byte = current, byte.isASCIILetter {
            let first = word()
            if let month = monthNumber(first) { return parseMonthFirst(month: month) }
            _ = consume(UInt8(ascii: ","))
            skipSpaces()
            if let byte = current, byte.isASCIILetter {
                guard let month = monthNumber(word()) else { return nil }
                return parseMonthFirst(month: month)
            }
        }
        guard let day = digits(min: 1, max: 2) else { return nil }
        skipSeparators()
        let monthWord = word()
        guard let month = monthNumber(monthWord) else { return nil }
        skipSeparators()
        guard let yearDigits = digits(min: 2, max: 4), yearDigits.count != 3 else { return nil }
        if let byte = current, byte.isASCIIDigit { return nil }
        var year = yearDigits.value
        if yearDigits.count == 2 { year += year < 50 ? 2000 : 1900 }

        var hour: Int64 = 0
        var minute: Int64 = 0
        var second: Int64 = 0
        var offset: Int64 = 0
        skipSpaces()
        if let byte = current, byte.isASCIIDigit {
            guard let time = timeOfDay(minimumHourDigits: 1, fractionNeedsDigits: false) else { return nil }
            (hour, minute, second) = time
            skipSpaces()
            if let byte = current, byte != UInt8(ascii: "(") {
                guard let zone = zoneOffset() else { return nil }
                offset = zone
            }
        }
        skipSpaces()
        guard skipComment(), isAtEnd else { return nil }
        return FeedTimestamp.make(
            year: year,
            month: month,
            day: day.value,
            hour: hour,
            minute: minute,
            second: second,
            offsetSeconds: offset
        )
    }

    /// The month-first forms, after the month name: C's asctime
    /// (`Sun Jan  4 16:29:06 2004`, also with a zone before the year) and JavaScript's
    /// `Date.toString` (`Thu Aug 30 2012 17:26:16 +0200 (CEST)`). Both need a time: a bare
    /// `Nov 29 2026` stays unparsed rather than guessed.
    private mutating func parseMonthFirst(month: Int64) -> FeedTimestamp? {
        skipSpaces()
        guard let day = digits(min: 1, max: 2) else { return nil }
        skipSpaces()
        let year: Int64
        let time: (hour: Int64, minute: Int64, second: Int64)
        var offset: Int64 = 0
        var probe = self
        if let yearFirst = probe.digits(min: 4, max: 4), probe.current != UInt8(ascii: ":") {
            self = probe
            year = yearFirst.value
            skipSpaces()
            guard let clock = timeOfDay(minimumHourDigits: 1, fractionNeedsDigits: false) else { return nil }
            time = clock
            skipSpaces()
            if let byte = current, byte != UInt8(ascii: "(") {
                guard let zone = zoneOffset() else { return nil }
                offset = zone
            }
        } else {
            guard let clock = timeOfDay(minimumHourDigits: 1, fractionNeedsDigits: false) else { return nil }
            time = clock
            skipSpaces()
            if let byte = current, !byte.isASCIIDigit {
                guard let zone = zoneOffset() else { return nil }
                offset = zone
                skipSpaces()
            }
            guard let value = digits(min: 4, max: 4) else { return nil }
            year = value.value
        }
        skipSpaces()
        guard skipComment(), isAtEnd else { return nil }
        return FeedTimestamp.make(
            year: year,
            month: month,
            day: day.value,
            hour: time.hour,
            minute: time.minute,
            second: time.second,
            offsetSeconds: offset
        )
    }

    /// An optional trailing `(comment)`; false when it is not closed.
    private mutating func skipComment() -> Bool {
        guard consume(UInt8(ascii: "(")) else { return true }
        while let byte = current, byte != UInt8(ascii: ")") { index += 1 }
        guard consume(UInt8(ascii: ")")) else { return false }
        skipSpaces()
        return true
    }

    private mutating func skipSeparators() {
        while let byte = current, byte == 0x20 || byte == 0x09 || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ",")
        {
            index += 1
        }
    }

    /// 1…12 for a month name: the 3-letter abbreviation or any longer prefix of the full name
    /// ("Sept", "September"), in any case.
    private func monthNumber(_ word: DateWord) -> Int64? {
        for (number, name) in Self.monthNames.enumerated() where word.isAbbreviation(of: name) {
            return Int64(number + 1)
        }
        return nil
    }

    private static let monthNames: [DateWord] = [
        "january", "february", "march", "april", "may", "june",
        "july", "august", "september", "october", "november", "december",
    ].map { DateWord($0) }
}
