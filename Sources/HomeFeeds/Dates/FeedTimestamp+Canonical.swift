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
        // Four 8-byte words; `?` lanes are checked on their own. See `digitLanes` for the constants.
        guard
            let dayWord = digitLanes(  // "???, DD "
                bytes,
                at: 0,
                template: 0x2030_3020_2C00_0000,
                limits: 0x7F76_767F_7F00_0000,
                keep: 0xFFFF_FFFF_FF00_0000
            ),
            let yearWord = digitLanes(  // "??? DDDD"
                bytes,
                at: 8,
                template: 0x3030_3030_2000_0000,
                limits: 0x7676_7676_7F00_0000,
                keep: 0xFFFF_FFFF_FF00_0000
            ),
            let timeWord = digitLanes(  // " DD:DD:D"
                bytes,
                at: 16,
                template: 0x303A_3030_3A30_3020,
                limits: 0x767F_7676_7F76_767F,
                keep: ~0
            ),
            isWeekday(packed(bytes, at: 0)), let month = monthNumber(packed(bytes, at: 8))
        else { return nil }
        let second: Int64
        let offset: Int64
        if bytes.count == 29 {
            guard
                let zoneWord = digitLanes(  // "D:DD GMT"
                    bytes,
                    at: 21,
                    template: 0x544D_4720_3030_3A30,
                    limits: 0x7F7F_7F7F_7676_7F76,
                    keep: ~0
                )
            else { return nil }
            second = number(zoneWord, from: 2, count: 2)
            offset = 0
        } else {
            guard
                let zoneWord = digitLanes(  // "DD ?DDDD"
                    bytes,
                    at: 23,
                    template: 0x3030_3030_0020_3030,
                    limits: 0x7676_7676_007F_7676,
                    keep: 0xFFFF_FFFF_00FF_FFFF
                ),
                let sign = offsetSign(bytes[26])
            else { return nil }
            let hours = number(zoneWord, from: 4, count: 2)
            let minutes = number(zoneWord, from: 6, count: 2)
            guard hours <= 23, minutes <= 59 else { return nil }
            second = number(zoneWord, from: 0, count: 2)
            offset = sign &* (hours &* 3600 &+ minutes &* 60)
        }
        return .some(
            make(
                year: number(yearWord, from: 4, count: 4),
                month: month,
                day: number(dayWord, from: 5, count: 2),
                hour: number(timeWord, from: 1, count: 2),
                minute: number(timeWord, from: 4, count: 2),
                second: second,
                offsetSeconds: offset
            )
        )
    }

    /// `YYYY-MM-DDTHH:MM:SS±HH:MM` (25 bytes) or `…Z` (20), upper-case `T` and `Z`.
    private static func canonicalRFC3339(_ bytes: UnsafeBufferPointer<UInt8>) -> FeedTimestamp?? {
        guard
            let dateWord = digitLanes(  // "DDDD-DD-"
                bytes,
                at: 0,
                template: 0x2D30_302D_3030_3030,
                limits: 0x7F76_767F_7676_7676,
                keep: ~0
            ),
            let timeWord = digitLanes(  // "DDTDD:DD"
                bytes,
                at: 8,
                template: 0x3030_3A30_3054_3030,
                limits: 0x7676_7F76_767F_7676,
                keep: ~0
            )
        else { return nil }
        let secondWord: UInt64
        let offset: Int64
        if bytes.count == 20 {
            guard
                let word = digitLanes(  // "D:DD:DDZ"
                    bytes,
                    at: 12,
                    template: 0x5A30_303A_3030_3A30,
                    limits: 0x7F76_767F_7676_7F76,
                    keep: ~0
                )
            else { return nil }
            secondWord = word
            offset = 0
        } else {
            guard
                let word = digitLanes(  // "D:DD:DD?"
                    bytes,
                    at: 12,
                    template: 0x0030_303A_3030_3A30,
                    limits: 0x0076_767F_7676_7F76,
                    keep: 0x00FF_FFFF_FFFF_FFFF
                ),
                let zoneWord = digitLanes(  // "DD?DD:DD"
                    bytes,
                    at: 17,
                    template: 0x3030_3A30_3000_3030,
                    limits: 0x7676_7F76_7600_7676,
                    keep: 0xFFFF_FFFF_FF00_FFFF
                ),
                let sign = offsetSign(bytes[19])
            else { return nil }
            let hours = number(zoneWord, from: 3, count: 2)
            let minutes = number(zoneWord, from: 6, count: 2)
            guard hours <= 23, minutes <= 59 else { return nil }
            secondWord = word
            offset = sign &* (hours &* 3600 &+ minutes &* 60)
        }
        return .some(
            make(
                year: number(dateWord, from: 0, count: 4),
                month: number(dateWord, from: 5, count: 2),
                day: number(timeWord, from: 0, count: 2),
                hour: number(timeWord, from: 3, count: 2),
                minute: number(timeWord, from: 6, count: 2),
                second: number(secondWord, from: 5, count: 2),
                offsetSeconds: offset
            )
        )
    }

    /// The 8 bytes from `offset` checked against a pattern in one go. `template` holds 0x30
    /// where a digit goes and the byte itself where a literal goes, first byte lowest; `keep`
    /// clears the lanes checked elsewhere. The lanes of the result are the digits' values
    /// (literal lanes 0); nil when a digit lane is above 9 or a literal lane above 0:
    /// `limits` adds 0x76 to a digit lane and 0x7F to a literal one, which sets the top bit
    /// of a lane of 0–0x7F exactly then (0x76 + 10 = 0x80, 0x7F + 1 = 0x80) without a carry,
    /// and a lane of 0x80 or more has it already.
    @inline(__always)
    private static func digitLanes(
        _ bytes: UnsafeBufferPointer<UInt8>,
        at offset: Int,
        template: UInt64,
        limits: UInt64,
        keep: UInt64
    ) -> UInt64? {
        let raw = UnsafeRawBufferPointer(bytes).loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        let lanes = (UInt64(littleEndian: raw) ^ template) & keep
        guard ((lanes &+ limits) | lanes) & 0x8080_8080_8080_8080 == 0 else { return nil }
        return lanes
    }

    /// The decimal number of `count` digit lanes of `lanes` from lane `first`.
    @inline(__always)
    private static func number(_ lanes: UInt64, from first: Int, count: Int) -> Int64 {
        var value: Int64 = 0
        for lane in first..<(first + count) {
            value = value &* 10 &+ Int64(truncatingIfNeeded: (lanes &>> (8 &* lane)) & 0xFF)
        }
        return value
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
