import Testing

@testable import HomeFeeds

struct DateCase: Sendable, CustomTestStringConvertible {
    let input: String
    let expected: String?
    init(_ input: String, _ expected: String?) {
        self.input = input
        self.expected = expected
    }
    var testDescription: String { "\"\(input)\" → \(expected ?? "nil")" }
}

@Suite struct FeedTimestampTests {
    static let rfc822: [DateCase] = [
        DateCase("Sun, 29 Nov 2026 12:34:56 GMT", "2026-11-29T12:34:56Z"),
        DateCase("29 Nov 2026 12:34:56 +0000", "2026-11-29T12:34:56Z"),
        DateCase("Mon, 29 Nov 2026 12:34:56 GMT", "2026-11-29T12:34:56Z"),  // wrong weekday ignored
        DateCase("sunday, 29 november 2026 12:34:56 gmt", "2026-11-29T12:34:56Z"),
        DateCase("SUN, 29 NOV 2026 12:34:56 UT", "2026-11-29T12:34:56Z"),
        DateCase("Sun, 29 Sept 2026 12:34:56 Z", "2026-09-29T12:34:56Z"),
        DateCase("Sun, 1 Nov 2026 2:03:04 GMT", "2026-11-01T02:03:04Z"),  // 1-digit day and hour
        DateCase("Sun, 29 Nov 2026 12:34 GMT", "2026-11-29T12:34:00Z"),  // no seconds
        DateCase("Sun, 29 Nov 2026 12:34:56.789 GMT", "2026-11-29T12:34:56Z"),  // fraction truncated
        DateCase("Sun, 29 Nov 2026 12:34:56. GMT", "2026-11-29T12:34:56Z"),  // a bare point, unlike ISO 8601
        DateCase("Sun, 29 Nov 26 12:34:56 GMT", "2026-11-29T12:34:56Z"),  // 2-digit year 00-49
        DateCase("Mon, 29 Nov 99 12:34:56 GMT", "1999-11-29T12:34:56Z"),  // 50-99
        DateCase("Sat, 01 Jan 00 00:00:00 GMT", "2000-01-01T00:00:00Z"),
        DateCase("Sun, 29 Nov 2026 12:00:00 EST", "2026-11-29T17:00:00Z"),
        DateCase("Sun, 29 Nov 2026 12:00:00 EDT", "2026-11-29T16:00:00Z"),
        DateCase("Sun, 29 Nov 2026 12:00:00 CST", "2026-11-29T18:00:00Z"),
        DateCase("Sun, 29 Nov 2026 12:00:00 CDT", "2026-11-29T17:00:00Z"),
        DateCase("Sun, 29 Nov 2026 12:00:00 MST", "2026-11-29T19:00:00Z"),
        DateCase("Sun, 29 Nov 2026 12:00:00 MDT", "2026-11-29T18:00:00Z"),
        DateCase("Sun, 29 Nov 2026 12:00:00 PST", "2026-11-29T20:00:00Z"),
        DateCase("Sun, 29 Nov 2026 12:00:00 PDT", "2026-11-29T19:00:00Z"),
        DateCase("일, 29 Nov 2026 09:00:00 KST", nil),  // non-ASCII weekday is no RFC 822
        DateCase("Sun, 29 Nov 2026 09:00:00 KST", "2026-11-29T00:00:00Z"),
        DateCase("Sun, 29 Nov 2026 09:00:00 kst", "2026-11-29T00:00:00Z"),
        DateCase("Sun, 29 Nov 2026 09:00:00 +0900", "2026-11-29T00:00:00Z"),
        DateCase("Sun, 29 Nov 2026 09:00:00 +09:00", "2026-11-29T00:00:00Z"),
        DateCase("Sun, 29 Nov 2026 00:30:00 -0130", "2026-11-29T02:00:00Z"),
        DateCase("Sun, 29 Nov 2026 09:00:00 +0900 (KST)", "2026-11-29T00:00:00Z"),
        DateCase("Sun, 29 Nov 2026 12:34:56", "2026-11-29T12:34:56Z"),  // no zone → UTC
        DateCase("  Sun, 29 Nov 2026 12:34:56 GMT  ", "2026-11-29T12:34:56Z"),
        DateCase("Thu, 31 Dec 2026 23:00:00 -0200", "2027-01-01T01:00:00Z"),
        DateCase("29 Feb 2024 00:00:00 GMT", "2024-02-29T00:00:00Z"),
        DateCase("29 Feb 2026 00:00:00 GMT", nil),  // not a leap year
        DateCase("31 Apr 2026 00:00:00 GMT", nil),
        DateCase("32 Jan 2026 00:00:00 GMT", nil),
        DateCase("29 Foo 2026 00:00:00 GMT", nil),
        DateCase("29 Nov 2026 24:00:00 GMT", nil),
        DateCase("29 Nov 2026 12:60:00 GMT", nil),
        DateCase("29 Nov 2026 12:00:00 XYZ", nil),  // unknown zone
        DateCase("29 Nov 2026 12:00:00 +2500", nil),
        DateCase("29 Nov 2026 12:00:00 GMT trailing", nil),
        DateCase("29 Nov 202 12:00:00 GMT", nil),  // 3-digit year
        DateCase("Nov 29 2026", nil),
        DateCase("", nil),
        DateCase("not a date", nil),
        DateCase("yesterday", nil),
    ]

    static let iso8601: [DateCase] = [
        DateCase("2026-11-29T12:34:56Z", "2026-11-29T12:34:56Z"),
        DateCase("2026-11-29t12:34:56z", "2026-11-29T12:34:56Z"),
        DateCase("2026-11-29 12:34:56Z", "2026-11-29T12:34:56Z"),
        DateCase("2026-11-29T12:34:56.789Z", "2026-11-29T12:34:56Z"),  // fraction truncated
        DateCase("2026-11-29T12:34:56,5+01:00", "2026-11-29T11:34:56Z"),
        DateCase("2026-11-29T09:00:00+09:00", "2026-11-29T00:00:00Z"),
        DateCase("2026-11-29T09:00:00+0900", "2026-11-29T00:00:00Z"),
        DateCase("2026-11-29T09:00:00+09", "2026-11-29T00:00:00Z"),
        DateCase("2026-11-29T00:00:00-05:00", "2026-11-29T05:00:00Z"),
        DateCase("2026-11-29T12:34Z", "2026-11-29T12:34:00Z"),
        DateCase("2026-11-29T12:34:56", "2026-11-29T12:34:56Z"),  // no zone → UTC
        DateCase("2026-11-29", "2026-11-29T00:00:00Z"),  // date alone
        DateCase("2026-11-29T23:59:60Z", "2026-11-29T23:59:59Z"),  // leap second kept in its minute
        DateCase("0001-01-01T00:00:00Z", "0001-01-01T00:00:00Z"),
        DateCase("0001-01-01T00:00:00+01:00", nil),  // before year 1 in UTC
        DateCase("1970-01-01T00:00:00Z", "1970-01-01T00:00:00Z"),
        DateCase("1969-12-31T23:59:59Z", "1969-12-31T23:59:59Z"),
        DateCase("2026-13-01T00:00:00Z", nil),  // never rolls into the next year
        DateCase("2026-00-10T00:00:00Z", nil),
        DateCase("2026-02-30T00:00:00Z", nil),
        DateCase("2026-11-29T25:00:00Z", nil),
        DateCase("2026-11-29T12:34:56.Z", nil),
        DateCase("2026-11-29T12:34:56+09:00 junk", nil),
        DateCase("2026-11-29X", nil),
        DateCase("2026-1-29", nil),
    ]

    /// W3C-DTF reduced forms, asctime, JavaScript's Date.toString, RFC 822 military zones and
    /// `GMT±hh:mm`; invalid values stay nil.
    static let moreForms: [DateCase] = [
        DateCase("2003-12", "2003-12-01T00:00:00Z"),  // W3C-DTF YYYY-MM: the first day
        DateCase("2003", "2003-01-01T00:00:00Z"),  // W3C-DTF YYYY: January 1st
        DateCase(" 2003 ", "2003-01-01T00:00:00Z"),
        DateCase("2003-13", nil),
        DateCase("2003-1", nil),
        DateCase("0000", nil),  // no year 0
        DateCase("20031", nil),
        DateCase("2003-12 junk", nil),
        DateCase("Sun Jan  4 16:29:06 2004", "2004-01-04T16:29:06Z"),  // asctime
        DateCase("Jan  4 16:29:06 2004", "2004-01-04T16:29:06Z"),
        DateCase("Sun Jul 15 01:16:00 +0000 2012", "2012-07-15T01:16:00Z"),
        DateCase("Sun Jan 4 16:29:06 PST 2004", "2004-01-05T00:29:06Z"),  // 16:29 − (−8 h) = 00:29 next day
        DateCase("Sun Jan 32 16:29:06 2004", nil),
        DateCase("Sun Jan  4 2004", nil),  // no time: not guessed
        DateCase("Thu Aug 30 2012 17:26:16 +0200", "2012-08-30T15:26:16Z"),  // JavaScript
        DateCase("Thu Aug 30 2012 17:26:16 GMT+0200 (CEST)", "2012-08-30T15:26:16Z"),
        DateCase("Sun, 29 Nov 2026 12:00:00 A", "2026-11-29T13:00:00Z"),  // A = −1 h
        DateCase("Sun, 29 Nov 2026 12:00:00 M", "2026-11-30T00:00:00Z"),  // M = −12 h
        DateCase("Sun, 29 Nov 2026 12:00:00 N", "2026-11-29T11:00:00Z"),  // N = +1 h
        DateCase("Sun, 29 Nov 2026 12:00:00 Y", "2026-11-29T00:00:00Z"),  // Y = +12 h
        DateCase("Sun, 29 Nov 2026 12:00:00 z", "2026-11-29T12:00:00Z"),
        DateCase("Sun, 29 Nov 2026 12:00:00 J", nil),  // J is no zone
        DateCase("Wed, 19 Feb 2012 22:40:00 GMT-01:01", "2012-02-19T23:41:00Z"),
        DateCase("Wed, 19 Feb 2012 22:40:00 UTC+09:00", "2012-02-19T13:40:00Z"),
        DateCase("Wed, 19 Feb 2012 22:40:00 EST+01:00", nil),  // only GMT/UTC/UT take an offset
    ]

    @Test("reads the other forms feeds use", arguments: moreForms)
    func readsMoreForms(_ testCase: DateCase) {
        #expect(FeedTimestamp(parsing: testCase.input)?.rfc3339 == testCase.expected)
    }

    @Test("reads RFC 822/2822 dates tolerantly", arguments: rfc822)
    func readsRFC822(_ testCase: DateCase) {
        #expect(FeedTimestamp(parsing: testCase.input)?.rfc3339 == testCase.expected)
    }

    @Test("reads ISO 8601/RFC 3339 dates", arguments: iso8601)
    func readsISO8601(_ testCase: DateCase) {
        #expect(FeedTimestamp(parsing: testCase.input)?.rfc3339 == testCase.expected)
    }

    @Test(
        "prints every field zero-padded, at the edges of the four-digit years and past them",
        arguments: [
            (0, "1970-01-01T00:00:00Z"),
            (-1, "1969-12-31T23:59:59Z"),
            (951_782_400, "2000-02-29T00:00:00Z"),
            (1_764_468_309, "2025-11-30T02:05:09Z"),
            (-62_135_596_800, "0001-01-01T00:00:00Z"),
            (-62_135_596_801, "0000-12-31T23:59:59Z"),
            (-62_167_219_200, "0000-01-01T00:00:00Z"),
            (-30_610_224_000, "1000-01-01T00:00:00Z"),
            (-30_610_224_001, "0999-12-31T23:59:59Z"),
            (253_402_300_799, "9999-12-31T23:59:59Z"),
            (253_402_300_800, "10000-01-01T00:00:00Z"),
            (-62_167_219_201, "00-1-12-31T23:59:59Z"),
            (Int64.min, "-292277022657-01-27T08:29:52Z"),
            (Int64.max, "292277026596-12-04T15:30:07Z"),
        ] as [(Int64, String)]
    )
    func printsRFC3339(_ seconds: Int64, _ expected: String) {
        #expect(FeedTimestamp(secondsSince1970: seconds).rfc3339 == expected)
    }

    @Test("round-trips civil days across eras", arguments: [-719_162, -1, 0, 1, 59, 365, 10_957, 20_000, 2_932_896])
    func civilRoundTrip(_ days: Int64) {
        let (year, month, day) = CivilCalendar.civil(fromDays: days)
        #expect(CivilCalendar.days(fromYear: year, month: month, day: day) == days)
    }

    @Test("the first parseable RSS date wins: pubDate, then dc:date")
    func firstParseableWins() throws {
        let feed = try parseFeed(
            rss(
                """
                <item><guid>1</guid><pubDate>garbage</pubDate><dc:date>2026-01-02T03:04:05Z</dc:date></item>
                <item><guid>2</guid><dc:date>2026-01-02T03:04:05Z</dc:date><pubDate>Sun, 29 Nov 2026 00:00:00 GMT</pubDate></item>
                <item><guid>3</guid><pubDate>bad</pubDate><pubDate>Sun, 29 Nov 2026 00:00:00 GMT</pubDate></item>
                <item><guid>4</guid><pubDate>2026-02-30</pubDate></item>
                """
            )
        )
        #expect(
            feed.entries.map { $0.published?.rfc3339 } == [
                "2026-01-02T03:04:05Z", "2026-11-29T00:00:00Z", "2026-11-29T00:00:00Z", nil,
            ]
        )
    }

    @Test("Atom: published, then updated; a bad published falls through")
    func atomDates() throws {
        let feed = try parseFeed(
            atom(
                """
                <entry><id>1</id><updated>2026-01-01T00:00:00Z</updated><published>2025-01-01T00:00:00Z</published></entry>
                <entry><id>2</id><published>soon</published><updated>Sun, 29 Nov 2026 00:00:00 GMT</updated></entry>
                """
            )
        )
        #expect(feed.entries.map { $0.published?.rfc3339 } == ["2025-01-01T00:00:00Z", "2026-11-29T00:00:00Z"])
    }
}
