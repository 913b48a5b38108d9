import HomeFeeds

/// Parsers for the few response header values the scheduler acts on.
enum HTTPHeaderValues {
    /// `max-age` from a `Cache-Control` value (RFC 9111 §5.2.2.1), in seconds.
    ///
    /// Nil when the header has no usable `max-age`, or says `no-store` or `no-cache`: then the
    /// response gives no hint and the configured interval applies.
    static func maxAge(cacheControl: String?) -> Double? {
        guard let cacheControl else { return nil }
        var result: Double?
        for directive in cacheControl.split(separator: ",") {
            let parts = directive.split(separator: "=", maxSplits: 1)
            guard let rawName = parts.first else { continue }
            let name = trim(rawName).lowercased()
            if name == "no-store" || name == "no-cache" { return nil }
            guard name == "max-age", parts.count == 2 else { continue }
            var value = trim(parts[1])
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
                value = String(value.dropFirst().dropLast())
            }
            if let seconds = Int(value), seconds >= 0 { result = Double(seconds) }
        }
        return result
    }

    /// A `Retry-After` value (RFC 9110 §10.2.3): delay-seconds or an HTTP date.
    static func retryAfter(_ value: String?) -> RetryAfter? {
        guard let value else { return nil }
        let text = trim(Substring(value))
        guard !text.isEmpty else { return nil }
        if text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
            return Int(text).map { .seconds($0) } ?? .seconds(Int.max)
        }
        // IMF-fixdate and the obsolete RFC 850 form are RFC 822 dates as far as HomeFeeds'
        // forgiving date reader is concerned.
        guard let timestamp = FeedTimestamp(parsing: text) else { return nil }
        return .date(secondsSince1970: timestamp.secondsSince1970)
    }

    private static func trim(_ text: Substring) -> String {
        String(
            text.drop(while: { $0 == " " || $0 == "\t" }).reversed().drop(while: { $0 == " " || $0 == "\t" }).reversed()
        )
    }
}
