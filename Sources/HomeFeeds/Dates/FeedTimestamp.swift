/// A publication instant, whole seconds in UTC (`feed-parsing.md` §2, "Dates").
///
/// Parsed by hand (swift-on-linux.md §9): no `DateFormatter` per value, no ICU, and nothing
/// that silently "normalises" an impossible date such as month 13 into the next year.
/// Sendable: an immutable value.
public struct FeedTimestamp: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Seconds since 1970-01-01T00:00:00Z; fractional seconds are truncated.
    public var secondsSince1970: Int64

    public init(secondsSince1970: Int64) {
        self.secondsSince1970 = secondsSince1970
    }

    /// Reads an RFC 822/2822 or ISO 8601/RFC 3339 date; nil when it is neither or impossible.
    public init?(parsing text: String) {
        let parsed = text.withBorrowedUTF8 { FeedTimestamp(utf8: $0) }
        guard let parsed else { return nil }
        self = parsed
    }

    /// The same reader over UTF-8 bytes, used on libxml2's text without making a String.
    init?(utf8 bytes: UnsafeBufferPointer<UInt8>) {
        // The canonical RSS and Atom shapes at fixed offsets; the scanners for everything else.
        if case .some(let canonical) = Self.canonical(bytes) {
            guard let canonical else { return nil }
            self = canonical
            return
        }
        var scanner = DateScanner(bytes)
        scanner.skipSpaces()
        if scanner.looksLikeISO8601 {
            guard let value = scanner.parseISO8601() else { return nil }
            self = value
        } else {
            guard let value = scanner.parseRFC822() else { return nil }
            self = value
        }
    }

    /// `YYYY-MM-DDTHH:MM:SSZ`, the output form of the contract.
    ///
    /// Years 0–9999 are written as twenty bytes straight into the string's storage: a manifest
    /// prints a date for every notice and history item, in each profile, every version (callgrind,
    /// issue 17). Other years come from no parser (they read years 1–9999); they are printed
    /// field by field, each zero-padded to its width, and are not RFC 3339: a negative year
    /// gets its zeros before the sign (`00-1-12-31T23:59:59Z`). Any `Int64` prints.
    public var rfc3339: String {
        // Floor division that cannot overflow, down to Int64.min.
        var secondOfDay = secondsSince1970 % 86_400
        var days = secondsSince1970 / 86_400
        if secondOfDay < 0 {
            secondOfDay += 86_400
            days -= 1
        }
        let (year, month, day) = CivilCalendar.civil(fromDays: days)
        let time = (hour: secondOfDay / 3600, minute: secondOfDay / 60 % 60, second: secondOfDay % 60)
        guard (0...9999).contains(year) else {
            return Self.padded(year: year, month: month, day: day, time: time)
        }
        return String(unsafeUninitializedCapacity: 20) { out in
            func two(_ value: Int64, at offset: Int) {
                out[offset] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value / 10)
                out[offset + 1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value % 10)
            }
            two(year / 100, at: 0)
            two(year % 100, at: 2)
            out[4] = UInt8(ascii: "-")
            two(month, at: 5)
            out[7] = UInt8(ascii: "-")
            two(day, at: 8)
            out[10] = UInt8(ascii: "T")
            two(time.hour, at: 11)
            out[13] = UInt8(ascii: ":")
            two(time.minute, at: 14)
            out[16] = UInt8(ascii: ":")
            two(time.second, at: 17)
            out[19] = UInt8(ascii: "Z")
            return 20
        }
    }

    /// ``rfc3339`` for a year outside 0–9999: each field zero-padded to its width.
    private static func padded(
        year: Int64,
        month: Int64,
        day: Int64,
        time: (hour: Int64, minute: Int64, second: Int64)
    ) -> String {
        var out = ""
        CivilCalendar.append(year, width: 4, to: &out)
        out += "-"
        CivilCalendar.append(month, width: 2, to: &out)
        out += "-"
        CivilCalendar.append(day, width: 2, to: &out)
        out += "T"
        CivilCalendar.append(time.hour, width: 2, to: &out)
        out += ":"
        CivilCalendar.append(time.minute, width: 2, to: &out)
        out += ":"
        CivilCalendar.append(time.second, width: 2, to: &out)
        out += "Z"
        return out
    }

    public var description: String { rfc3339 }

    public static func < (lhs: FeedTimestamp, rhs: FeedTimestamp) -> Bool {
        lhs.secondsSince1970 < rhs.secondsSince1970
    }

    /// Builds a timestamp from checked civil fields; nil when a field is out of range or the
    /// UTC result leaves years 1–9999 (the range `rfc3339` can print).
    static func make(
        year: Int64,
        month: Int64,
        day: Int64,
        hour: Int64,
        minute: Int64,
        second: Int64,
        offsetSeconds: Int64
    ) -> FeedTimestamp? {
        guard (1...9999).contains(year), (1...12).contains(month) else { return nil }
        guard day >= 1, day <= CivilCalendar.daysInMonth(year: year, month: month) else { return nil }
        guard (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second) else { return nil }
        // A leap second (…:60) is a real instant; keep it inside its minute rather than rolling over.
        let clampedSecond = min(second, 59)
        let days = CivilCalendar.days(fromYear: year, month: month, day: day)
        // Checked fields of years 1–9999 (days within ±3 700 000) cannot overflow from here,
        // nor can any offset a parser hands over (under a day): wrapping arithmetic, as on the
        // hot path of every feed's dates.
        let local = days &* 86_400 &+ hour &* 3600 &+ minute &* 60 &+ clampedSecond
        let utc = local &- offsetSeconds
        guard utc >= CivilCalendar.firstSecondOfYear1, utc <= CivilCalendar.lastSecondOfYear9999 else { return nil }
        return FeedTimestamp(secondsSince1970: utc)
    }
}

/// Proleptic Gregorian calendar arithmetic on day numbers (day 0 = 1970-01-01).
enum CivilCalendar {
    /// `days(fromYear: 1, month: 1, day: 1) * 86_400` and `days(fromYear: 10_000, month: 1,
    /// day: 1) * 86_400 - 1`, written out: a computed `static let` is initialised lazily and
    /// checked on every read, and `FeedTimestamp.make` reads both for every date.
    static let firstSecondOfYear1: Int64 = -62_135_596_800
    static let lastSecondOfYear9999: Int64 = 253_402_300_799

    static func isLeap(_ year: Int64) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    static func daysInMonth(year: Int64, month: Int64) -> Int64 {
        switch month {
        case 2: return isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01, counting in 400-year eras that start on March 1st.
    static func days(fromYear year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let shiftedMonth = month > 2 ? month - 3 : month + 9
        let dayOfYear = (153 * shiftedMonth + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The inverse of `days(fromYear:month:day:)`.
    static func civil(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    static func append(_ value: Int64, width: Int, to out: inout String) {
        let digits = String(value)
        if digits.utf8.count < width {
            out += String(repeating: "0", count: width - digits.utf8.count)
        }
        out += digits
    }
}
