/// The two shapes nearly every feed writes, read at fixed offsets before the tolerant
/// scanners get a chance: RSS's RFC 822 `Tue, 01 Dec 2026 15:04:05 +0900` (or `… GMT`) and
/// Atom's RFC 3339 `2026-03-04T05:06:07+09:00` (or `…Z`).
///
/// Each reader accepts only text the tolerant scanner reads the same way and returns the
/// same `FeedTimestamp.make` of the same fields; anything else (other spacing, case, zones,
/// fractions, a weekday that is no weekday) returns nil and goes to the tolerant scanner,
/// which has the last word, impossible dates included.
extension FeedTimestamp {
    /// The timestamp of `bytes` when they are one of the canonical shapes, or nil.
    static func canonical(_ bytes: UnsafeBufferPointer<UInt8>) -> FeedTimestamp?? {
        switch bytes.count {
        case 31, 29: return canonicalRFC822(bytes)
        case 25, 20: return canonicalRFC3339(bytes)
        default: return nil
        }
    }

    /// `Www, DD Mmm YYYY HH:MM:SS +HHMM` (31 bytes) or `… GMT` (29), with English weekday and
    /// month abbreviations as RFC 822 writes them. The outer nil means "not this shape".
    private static func canonicalRFC822(_ bytes: UnsafeBufferPointer<UInt8>) -> FeedTimestamp?? {
        guard bytes[3] == UInt8(ascii: ","), bytes[4] == 0x20, bytes[7] == 0x20, bytes[11] == 0x20,
            bytes[16] == 0x20, bytes[19] == UInt8(ascii: ":"), bytes[22] == UInt8(ascii: ":"), bytes[25] == 0x20,
            isWeekday(packed(bytes, at: 0)), let month = monthNumber(packed(bytes, at: 8)),
            let day = twoDigits(bytes, at: 5), let century = twoDigits(bytes, at: 12),
            let yearInCentury = twoDigits(bytes, at: 14), let hour = twoDigits(bytes, at: 17),
            let minute = twoDigits(bytes, at: 20), let second = twoDigits(bytes, at: 23)
        else { return nil }
        let offset: Int64
        if bytes.count == 29 {
            guard packed(bytes, at: 26) == 0x54_4D47 else { return nil }  // GMT
            offset = 0
        } else {
            guard let sign = offsetSign(bytes[26]), let hours = twoDigits(bytes, at: 27),
                let minutes = twoDigits(bytes, at: 29), hours <= 23, minutes <= 59
            else { return nil }
            offset = sign &* (hours &* 3600 &+ minutes &* 60)
        }
        return .some(
            makeCanonical(
                year: century &* 100 &+ yearInCentury,
                month: month,
                day: day,
                hour: hour,
                minute: minute,
                second: second,
                offsetSeconds: offset
            )
        )
    }

    /// `YYYY-MM-DDTHH:MM:SS±HH:MM` (25 bytes) or `…Z` (20), upper-case `T` and `Z`.
    private static func canonicalRFC3339(_ bytes: UnsafeBufferPointer<UInt8>) -> FeedTimestamp?? {
        guard bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"), bytes[10] == UInt8(ascii: "T"),
            bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"), let century = twoDigits(bytes, at: 0),
            let yearInCentury = twoDigits(bytes, at: 2), let month = twoDigits(bytes, at: 5),
            let day = twoDigits(bytes, at: 8), let hour = twoDigits(bytes, at: 11),
            let minute = twoDigits(bytes, at: 14), let second = twoDigits(bytes, at: 17)
        else { return nil }
        let offset: Int64
        if bytes.count == 20 {
            guard bytes[19] == UInt8(ascii: "Z") else { return nil }
            offset = 0
        } else {
            guard let sign = offsetSign(bytes[19]), bytes[22] == UInt8(ascii: ":"),
                let hours = twoDigits(bytes, at: 20), let minutes = twoDigits(bytes, at: 23), hours <= 23,
                minutes <= 59
            else { return nil }
            offset = sign &* (hours &* 3600 &+ minutes &* 60)
        }
        return .some(
            makeCanonical(
                year: century &* 100 &+ yearInCentury,
                month: month,
                day: day,
                hour: hour,
                minute: minute,
                second: second,
                offsetSeconds: offset
            )
        )
    }

    /// `make` for fields read from two-digit groups (each 0…99, the year 0…9999, the offset
    /// under a day), with wrapping arithmetic that cannot wrap on such fields. Years 2…9998
    /// stay inside years 1–9999 whatever the offset, so only years 0, 1, 9999 go to `make`
    /// and its bounds; the result is the same `make` would return.
    @inline(__always)
    private static func makeCanonical(
        year: Int64,
        month: Int64,
        day: Int64,
        hour: Int64,
        minute: Int64,
        second: Int64,
        offsetSeconds: Int64
    ) -> FeedTimestamp? {
        guard year >= 2 && year <= 9998 else {
            return make(
                year: year,
                month: month,
                day: day,
                hour: hour,
                minute: minute,
                second: second,
                offsetSeconds: offsetSeconds
            )
        }
        // Unsigned from here: the fields are non-negative, and unsigned division by a constant
        // needs no sign fix-up.
        let year = UInt64(truncatingIfNeeded: year)
        let month = UInt64(truncatingIfNeeded: month)
        let day = UInt64(truncatingIfNeeded: day)
        guard month &- 1 < 12, day &- 1 < daysInMonth(year: year, month: month) else { return nil }
        guard hour <= 23, minute <= 59, second <= 60 else { return nil }
        // The era arithmetic of `CivilCalendar.days(fromYear:month:day:)`; y ≥ 1, so eras from 0.
        let y = month <= 2 ? year &- 1 : year
        let era = y / 400
        let yearOfEra = y &- era &* 400
        let shiftedMonth = month > 2 ? month &- 3 : month &+ 9
        let dayOfYear = (153 &* shiftedMonth &+ 2) / 5 &+ day &- 1
        let dayOfEra = yearOfEra &* 365 &+ yearOfEra / 4 &- yearOfEra / 100 &+ dayOfYear
        let days = Int64(truncatingIfNeeded: era &* 146_097 &+ dayOfEra) &- 719_468
        // A leap second (…:60) stays inside its minute, as in `make`.
        let local = days &* 86_400 &+ hour &* 3600 &+ minute &* 60 &+ min(second, 59)
        return FeedTimestamp(secondsSince1970: local &- offsetSeconds)
    }

    /// `CivilCalendar.daysInMonth` for a month 1…12 and a year from 2, unsigned.
    @inline(__always)
    private static func daysInMonth(year: UInt64, month: UInt64) -> UInt64 {
        if month == 2 {
            return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        }
        // 30 for April, June, September, November (bits 4, 6, 9, 11), 31 otherwise.
        return 31 &- ((0b1010_0101_0000 &>> month) & 1)
    }

    @inline(__always)
    private static func twoDigits(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> Int64? {
        let tens = bytes[offset] &- 0x30
        let ones = bytes[offset + 1] &- 0x30
        guard tens < 10, ones < 10 else { return nil }
        return Int64(tens) &* 10 &+ Int64(ones)
    }

    @inline(__always)
    private static func offsetSign(_ byte: UInt8) -> Int64? {
        switch byte {
        case UInt8(ascii: "+"): return 1
        case UInt8(ascii: "-"): return -1
        default: return nil
        }
    }

    /// Three bytes from `offset` in one integer, first byte lowest.
    @inline(__always)
    private static func packed(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> UInt32 {
        UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16
    }

    /// `Mon`…`Sun` packed by `packed(_:at:)` (a switch, not a table: no lookup per date).
    private static func isWeekday(_ word: UInt32) -> Bool {
        switch word {
        // Mon, Tue, Wed, Thu, Fri, Sat, Sun
        case 0x6E6F4D, 0x657554, 0x646557, 0x756854, 0x697246, 0x746153, 0x6E7553: return true
        default: return false
        }
    }

    /// 1…12 for `Jan`…`Dec` packed by `packed(_:at:)`.
    private static func monthNumber(_ word: UInt32) -> Int64? {
        switch word {
        case 0x6E614A: return 1  // Jan
        case 0x626546: return 2  // Feb
        case 0x72614D: return 3  // Mar
        case 0x727041: return 4  // Apr
        case 0x79614D: return 5  // May
        case 0x6E754A: return 6  // Jun
        case 0x6C754A: return 7  // Jul
        case 0x677541: return 8  // Aug
        case 0x706553: return 9  // Sep
        case 0x74634F: return 10  // Oct
        case 0x766F4E: return 11  // Nov
        case 0x636544: return 12  // Dec
        default: return nil
        }
    }
}
