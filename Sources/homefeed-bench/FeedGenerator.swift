/// Deterministic RSS 2.0 and Atom documents for `ParseBenchmark`: Hangul titles and bodies,
/// predefined and HTML entities, CDATA, escaped HTML, enclosures, RFC 822 and RFC 3339 dates.
/// About 550 bytes per item, so 20 000 items make about 11 MB.
struct FeedGenerator {
    /// SplitMix64: tiny, seedable, identical on every platform.
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    private mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    private mutating func below(_ bound: Int) -> Int {
        Int(next() % UInt64(bound))
    }

    /// `count` random Hangul syllables (U+AC00…U+D7A3) in words of 2–4.
    private mutating func hangul(_ count: Int) -> String {
        var out = ""
        var inWord = 0
        for _ in 0..<count {
            if inWord >= 2 + below(3) {
                out += " "
                inWord = 0
            }
            out.unicodeScalars.append(Unicode.Scalar(UInt32(0xAC00 + below(11_172))) ?? "가")
            inWord += 1
        }
        return out
    }

    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    private static let weekdays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]

    private func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

    /// `Tue, 01 Dec 2026 15:04:05 +0000` (civil-from-days: Howard Hinnant's algorithm).
    private func rfc822(secondsSince1970 seconds: Int) -> String {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let time = seconds - days * 86_400
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        // 1970-01-01 was a Thursday (index 3 from Monday).
        let weekday = ((days % 7) + 7 + 3) % 7
        return "\(Self.weekdays[weekday]), \(two(day)) \(Self.months[month - 1]) \(year) "
            + "\(two(time / 3600)):\(two(time / 60 % 60)):\(two(time % 60)) +0000"
    }

    /// - Parameter newest: when given, item `i` is dated `newest` minus `i` minutes (UTC) instead
    ///   of a random day of 2026, so that a store's age limit keeps every item; the rest of the
    ///   document is the same either way.
    mutating func rss(items: Int, newest: Int? = nil) -> [UInt8] {
        var out = """
            <?xml version="1.0" encoding="UTF-8"?>
            <rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:media="http://search.yahoo.com/mrss/">
            <channel><title>벤치마크 피드 &amp; Benchmark</title><link>https://example.test/</link>
            <description>Generated</description>

            """
        out.reserveCapacity(items * 600)
        for index in 0..<items {
            let day = 1 + below(28)
            out += "<item>\n"
            out += "  <title>\(hangul(7 + below(5))) &amp; News&nbsp;#\(index)</title>\n"
            out += "  <link>https://example.test/posts/\(index)?ref=rss&amp;lang=ko</link>\n"
            out += "  <guid isPermaLink=\"false\">post-\(index)-\(String(next() & 0xFFFF_FFFF, radix: 16))</guid>\n"
            out += "  <description><![CDATA[<p>\(hangul(16 + below(10)))</p><p><b>\(hangul(4))</b> &amp; "
            out += "<a href=\"https://example.test/x?a=1&b=2\">링크</a> \(hangul(6))</p>]]></description>\n"
            let random =
                "\(Self.weekdays[below(7)]), \(two(day)) \(Self.months[below(12)]) 2026 "
                + "\(two(below(24))):\(two(below(60))):\(two(below(60))) +0900"
            out += "  <pubDate>\(newest.map { rfc822(secondsSince1970: $0 - 60 * index) } ?? random)</pubDate>\n"
            out +=
                "  <enclosure url=\"https://example.test/media/\(index).mp3\" type=\"audio/mpeg\" length=\"\(below(90_000_000))\"/>\n"
            out += "</item>\n"
        }
        out += "</channel></rss>\n"
        return Array(out.utf8)
    }

    mutating func atom(entries: Int) -> [UInt8] {
        var out = """
            <?xml version="1.0" encoding="utf-8"?>
            <feed xmlns="http://www.w3.org/2005/Atom" xml:base="https://example.test/">
            <title type="html">벤치마크 &lt;b&gt;Atom&lt;/b&gt;</title><link href="/"/><link rel="self" href="/feed.atom"/>
            <id>urn:uuid:bench</id><updated>2026-11-29T00:00:00Z</updated>

            """
        out.reserveCapacity(entries * 600)
        for index in 0..<entries {
            let stamp =
                "2026-\(two(1 + below(12)))-\(two(1 + below(28)))T\(two(below(24))):\(two(below(60))):\(two(below(60)))+09:00"
            out += "<entry>\n"
            out += "  <id>urn:uuid:\(String(next(), radix: 16))-\(index)</id>\n"
            out +=
                "  <title type=\"html\">\(hangul(6 + below(4))) &amp;amp; &lt;b&gt;News&lt;/b&gt;&nbsp;#\(index)</title>\n"
            out += "  <link rel=\"alternate\" type=\"text/html\" href=\"posts/\(index)?ref=atom&amp;lang=ko\"/>\n"
            out +=
                "  <link rel=\"enclosure\" type=\"audio/mpeg\" length=\"\(below(90_000_000))\" href=\"media/\(index).mp3\"/>\n"
            out += "  <published>\(stamp)</published><updated>\(stamp)</updated>\n"
            out += "  <summary type=\"html\">&lt;p&gt;\(hangul(12 + below(8)))&lt;/p&gt;&lt;p&gt;&lt;b&gt;\(hangul(4))"
            out += "&lt;/b&gt; &amp;amp; \(hangul(4))&lt;/p&gt;</summary>\n"
            out += "</entry>\n"
        }
        out += "</feed>\n"
        return Array(out.utf8)
    }
}
