import Testing

@testable import HomeFeeds

/// The fixed-offset readers of the canonical RSS and Atom date shapes
/// (`FeedTimestamp+Canonical.swift`): they read what they claim to, and they agree with the
/// tolerant scanners on everything, falling through on anything unusual.
@Suite struct CanonicalDateTests {
    /// The tolerant scanners alone, as `FeedTimestamp(utf8:)` ran them before the fast path.
    static func tolerant(_ text: String) -> FeedTimestamp? {
        var text = text
        return text.withUTF8 { bytes in
            var scanner = DateScanner(bytes)
            scanner.skipSpaces()
            return scanner.looksLikeISO8601 ? scanner.parseISO8601() : scanner.parseRFC822()
        }
    }

    /// nil when the text is not a canonical shape; .some(result) when the fast path decides.
    static func canonical(_ text: String) -> FeedTimestamp?? {
        var text = text
        return text.withUTF8 { FeedTimestamp.canonical($0) }
    }

    @Test(
        "the canonical shapes are read at fixed offsets",
        arguments: [
            // 15:04:05 at +09:00 is 06:04:05 UTC.
            ("Tue, 01 Dec 2026 15:04:05 +0900", "2026-12-01T06:04:05Z"),
            ("Sun, 29 Nov 2026 12:34:56 GMT", "2026-11-29T12:34:56Z"),
            // 23:00 at −02:00 is 01:00 the next day, the next year.
            ("Thu, 31 Dec 2026 23:00:00 -0200", "2027-01-01T01:00:00Z"),
            ("2026-03-04T05:06:07+09:00", "2026-03-03T20:06:07Z"),
            ("2026-03-04T05:06:07Z", "2026-03-04T05:06:07Z"),
            ("1969-12-31T23:59:59-00:30", "1970-01-01T00:29:59Z"),
        ]
    )
    func readsCanonicalShapes(_ text: String, _ expected: String) {
        #expect(Self.canonical(text)??.rfc3339 == expected)
        #expect(FeedTimestamp(parsing: text)?.rfc3339 == expected)
    }

    @Test(
        "impossible canonical dates are decided there, as nil",
        arguments: [
            "Sun, 29 Feb 2026 00:00:00 +0000", "Mon, 31 Apr 2026 00:00:00 GMT", "Mon, 00 Apr 2026 00:00:00 GMT",
            "Mon, 01 Apr 2026 24:00:00 GMT", "Mon, 01 Apr 0000 00:00:00 GMT", "2026-13-01T00:00:00Z",
            "2026-02-29T00:00:00Z", "2026-01-01T00:60:00Z",
        ]
    )
    func impossibleDates(_ text: String) {
        #expect(Self.canonical(text).map { $0 == nil } == true)
        #expect(Self.tolerant(text) == nil)
    }

    @Test(
        "anything else falls through to the tolerant scanner",
        arguments: [
            ("tue, 01 Dec 2026 15:04:05 +0900", "2026-12-01T06:04:05Z"),  // lower case
            ("Tue, 01 DEC 2026 15:04:05 +0900", "2026-12-01T06:04:05Z"),
            ("Tue, 01 Dec 2026 15:04:05 +09:0", nil),
            ("Tue, 01 Dec 2026 15:04:05 EST", "2026-12-01T20:04:05Z"),  // 29 bytes, not GMT
            ("Tue, 01 Dec 2026 15:04:05 +2500", nil),  // the offset is checked by the scanner
            ("Tue  01 Dec 2026 15:04:05 +0900", "2026-12-01T06:04:05Z"),  // no comma
            ("Tue, 1 Dec 2026 15:04:05 +0900 ", "2026-12-01T06:04:05Z"),  // 31 bytes, other spacing
            ("Mar, 01 Dec 2026 15:04:05 +0900", nil),  // a month where the weekday goes
            ("Tue, 01 Dec 2026 15:04:05 +09 0", nil),
            ("2026-03-04t05:06:07z", "2026-03-04T05:06:07Z"),
            ("2026-03-04 05:06:07Z", "2026-03-04T05:06:07Z"),
            ("2026-03-04T05:06:07.5Z", "2026-03-04T05:06:07Z"),
            ("2026-03-04T05:06:07+0900", "2026-03-03T20:06:07Z"),
            ("2026-03-04T05:06:07+24:00", nil),
            ("2026-03-04T05:06:07 +09:00", "2026-03-03T20:06:07Z"),
        ] as [(String, String?)]
    )
    func fallsThrough(_ text: String, _ expected: String?) {
        #expect(Self.canonical(text) == nil)
        #expect(FeedTimestamp(parsing: text)?.rfc3339 == expected)
        #expect(Self.tolerant(text)?.rfc3339 == expected)
    }

    @Test("the fast path and the tolerant scanner agree on every field of both shapes")
    func agreesWithTolerantScanner() {
        // Each list starts with the parts the fast path takes (`canonical` of them), then
        // parts only the tolerant scanner reads or refuses.
        let weekdays = (["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun", "Mar", "mon", "Xyz"], canonical: 7)
        let months = (
            ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec", "Foo", "jan"],
            canonical: 12
        )
        let days = (["00", "01", "09", "28", "29", "30", "31", "32", "1 ", "a1"], canonical: 8)
        let times = (["00:00:00", "23:59:59", "23:59:60", "24:00:00", "12:60:00", "9:05:00 "], canonical: 5)
        // An offset beyond ±23:59 is not taken either: the scanner refuses it.
        let rfc822Zones = (
            ["+0000", "+0900", "-0130", "+2359", "GMT", "+2400", "-0060", "UTC", "gmt", "+09:0"], canonical: 5
        )
        let years = ["2026", "2024", "1900", "0001", "9999", "0000"]
        var texts: [(text: String, isCanonical: Bool)] = []
        for (w, weekday) in weekdays.0.enumerated() {
            for (m, month) in months.0.enumerated() {
                for (d, day) in days.0.enumerated() {
                    let t = (w + d) % times.0.count
                    for (y, year) in years.enumerated() {
                        let z = (w + m + y) % rfc822Zones.0.count
                        texts.append(
                            (
                                "\(weekday), \(day) \(month) \(year) \(times.0[t]) \(rfc822Zones.0[z])",
                                w < weekdays.canonical && m < months.canonical && d < days.canonical
                                    && t < times.canonical && z < rfc822Zones.canonical
                            )
                        )
                    }
                }
            }
        }
        let isoTimes = ["00:00:00", "23:59:59", "23:59:60", "24:00:00", "00:60:00"]
        let isoZones = (["Z", "+09:00", "-00:30", "+23:59", "+24:00", "-05:60", "z", "+0900"], canonical: 4)
        for year in years {
            for month in ["00", "01", "02", "12", "13"] {
                for (d, day) in ["00", "01", "28", "29", "30", "31", "32"].enumerated() {
                    for (t, time) in isoTimes.enumerated() {
                        for separator in ["T", "t"] {
                            let z = (t + d) % isoZones.0.count
                            texts.append(
                                (
                                    "\(year)-\(month)-\(day)\(separator)\(time)\(isoZones.0[z])",
                                    separator == "T" && z < isoZones.canonical
                                )
                            )
                        }
                    }
                }
            }
        }
        for (text, isCanonical) in texts {
            #expect((Self.canonical(text) != nil) == isCanonical, "\(text)")
            #expect(FeedTimestamp(parsing: text) == Self.tolerant(text), "\(text)")
        }
    }

    @Test(
        "a date the fast path decides after any one byte is changed is what the tolerant scanner reads",
        arguments: [
            "Tue, 01 Dec 2026 15:04:05 +0900", "Sun, 29 Nov 2026 12:34:56 GMT", "2026-03-04T05:06:07+09:00",
            "2026-03-04T05:06:07Z",
        ]
    )
    func everyOneByteChange(_ text: String) {
        // Each position, each printable ASCII byte (0x20…0x7E): separators, digits, letters.
        let original = Array(text.utf8)
        for position in original.indices {
            for byte in UInt8(0x20)...UInt8(0x7E) {
                var changed = original
                changed[position] = byte
                let changedText = String(decoding: changed, as: UTF8.self)
                guard case .some(let decided) = Self.canonical(changedText) else { continue }
                #expect(decided == Self.tolerant(changedText), "\(changedText)")
            }
        }
    }
}
