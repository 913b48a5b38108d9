import Testing

@testable import HomeFetch

/// The schedule arithmetic and header parsing, as plain values.
@Suite struct SchedulePolicyTests {
    private let policy = SchedulePolicy(
        configuration: FetchSchedulerConfiguration(
            defaultInterval: 1800,
            minimumInterval: 300,
            maximumInterval: 86_400,
            jitter: 0.1,
            backoffBase: 60,
            backoffCap: 3600
        )
    )

    @Test("backoff doubles per failure up to the cap")
    func backoff() {
        #expect((1...8).map { policy.backoff(failures: $0) } == [60, 120, 240, 480, 960, 1920, 3600, 3600])
        #expect(policy.backoff(failures: 10_000) == 3600)
        #expect(policy.backoff(failures: 0) == 60)
    }

    @Test("a source's own interval is bounded too")
    func ownInterval() {
        let fast = FeedSource(url: "https://example.test/", kind: .notices, interval: 10)
        let slow = FeedSource(url: "https://example.test/", kind: .notices, interval: 7200)
        #expect(policy.interval(for: fast, maxAge: nil, ttl: nil) == 300)
        #expect(policy.interval(for: slow, maxAge: 600, ttl: nil) == 7200)
    }

    @Test("the longest wait without hints is the source's interval, within bounds, with the most jitter")
    func longestWait() {
        let plain = FeedSource(url: "https://example.test/", kind: .notices)
        let fast = FeedSource(url: "https://example.test/", kind: .notices, interval: 10)
        #expect(policy.longestWaitWithoutHints(for: plain) == 1800 * 1.1)
        #expect(policy.longestWaitWithoutHints(for: fast) == 300 * 1.1)
    }

    @Test("jitter stays within ±jitter and repeats for a seed")
    func jitter() {
        var first = SplitMix64(seed: 7)
        var second = SplitMix64(seed: 7)
        let a = (0..<100).map { _ in policy.jittered(1000, using: &first) }
        let b = (0..<100).map { _ in policy.jittered(1000, using: &second) }
        #expect(a == b)
        #expect(a.allSatisfy { $0 >= 900 && $0 <= 1100 })
        #expect(Set(a).count > 90)
    }

    @Test("the horizon is the longest interval, backoff or Retry-After, with the most jitter")
    func horizon() {
        #expect(policy.horizon == 86_400 * 1.1)
        var longBackoff = policy
        longBackoff.configuration.backoffCap = 200_000
        #expect(longBackoff.horizon == 200_000 * 1.1)
        longBackoff.configuration.jitter = 0
        #expect(longBackoff.horizon == 200_000)
    }

    @Test("Retry-After is capped and never negative")
    func retryAfter() {
        #expect(policy.retryDelay(.seconds(120), nowSecondsSince1970: 0) == 120)
        #expect(policy.retryDelay(.seconds(10_000_000), nowSecondsSince1970: 0) == 86_400)
        #expect(policy.retryDelay(.date(secondsSince1970: 100), nowSecondsSince1970: 1000) == 0)
    }

    @Test(
        "Cache-Control max-age",
        arguments: [
            ("max-age=600", 600.0), ("public, max-age=\"60\"", 60), ("MAX-AGE=5, must-revalidate", 5),
            ("no-cache, max-age=600", nil), ("max-age=600, no-store", nil), ("max-age=-1", nil), ("private", nil),
        ] as [(String, Double?)]
    )
    func maxAge(_ header: String, _ expected: Double?) {
        #expect(HTTPHeaderValues.maxAge(cacheControl: header) == expected)
    }

    @Test(
        "Retry-After values",
        arguments: [
            ("120", RetryAfter.seconds(120)), (" 0 ", .seconds(0)),
            ("Wed, 21 Oct 2037 07:28:00 GMT", .date(secondsSince1970: 2_139_722_880)),
            ("Wednesday, 21-Oct-37 07:28:00 GMT", nil), ("soon", nil), ("", nil),
        ] as [(String, RetryAfter?)]
    )
    func retryAfterValues(_ header: String, _ expected: RetryAfter?) {
        let parsed = HTTPHeaderValues.retryAfter(header)
        if header.hasPrefix("Wednesday") {
            // The obsolete RFC 850 form: accepted or refused, but never a wrong instant.
            #expect(parsed == nil || parsed == .date(secondsSince1970: 2_139_722_880))
        } else {
            #expect(parsed == expected)
        }
    }

    @Test("the ttl sniffer reads the channel ttl only")
    func ttlSniffer() {
        func ttl(_ text: String) -> Double? {
            var sniffer = ChannelTTLSniffer()
            Array(text.utf8).withUnsafeBytes { sniffer.append($0) }
            return sniffer.ttlSeconds
        }
        #expect(ttl("<rss><channel><ttl>60</ttl><item></item></channel></rss>") == 3600)
        #expect(ttl("<rss><channel><ttl> 15\n</ttl>") == 900)
        #expect(ttl("<rss><channel><item><ttl>60</ttl></item>") == nil)
        #expect(ttl("<rss><channel><ttl>soon</ttl>") == nil)
        #expect(ttl("<rss><channel><ttl>0</ttl>") == nil)
        #expect(ttl("<rss><channel><title>no ttl</title>") == nil)
    }
}
