/// The scheduler's settings; every default is written next to its field.
///
/// Intervals are seconds. Sendable: an immutable value.
public struct FetchSchedulerConfiguration: Sendable, Equatable {
    /// The poll interval of a source without its own (`FeedSource.interval`): 30 minutes.
    public var defaultInterval: Double
    /// The shortest interval any source, hint or override gets: 5 minutes.
    public var minimumInterval: Double
    /// The longest interval an RSS `ttl` or `Cache-Control: max-age` can stretch to: 1 day.
    public var maximumInterval: Double
    /// Each interval and backoff is multiplied by a random factor in `1 ± jitter`: ±10 %, so
    /// sources configured together drift apart instead of hitting servers in step.
    public var jitter: Double
    /// The first retry after an error comes after this many seconds: 1 minute.
    public var backoffBase: Double
    /// Backoff doubles per consecutive failure up to this cap: 6 hours.
    public var backoffCap: Double
    /// The longest `Retry-After` honoured as given; longer ones are cut to this: 1 day.
    public var maximumRetryAfter: Double
    /// Fetches running at once over all hosts (per host it is always one): 4.
    public var maxConcurrentFetches: Int
    /// Limits of every fetch.
    public var limits: FetchLimits

    public init(
        defaultInterval: Double = 1800,
        minimumInterval: Double = 300,
        maximumInterval: Double = 86_400,
        jitter: Double = 0.1,
        backoffBase: Double = 60,
        backoffCap: Double = 21_600,
        maximumRetryAfter: Double = 86_400,
        maxConcurrentFetches: Int = 4,
        limits: FetchLimits = FetchLimits()
    ) {
        self.defaultInterval = defaultInterval
        self.minimumInterval = minimumInterval
        self.maximumInterval = maximumInterval
        self.jitter = jitter
        self.backoffBase = backoffBase
        self.backoffCap = backoffCap
        self.maximumRetryAfter = maximumRetryAfter
        self.maxConcurrentFetches = maxConcurrentFetches
        self.limits = limits
    }
}

/// The arithmetic of the schedule, apart from the actor so it can be tested as plain values.
struct SchedulePolicy {
    var configuration: FetchSchedulerConfiguration

    /// The interval after a success: the source's own or the default, stretched (never
    /// shortened) by the server's hints, `Cache-Control: max-age` and RSS `ttl`, all within
    /// `minimumInterval...maximumInterval`. A hint shorter than the configured interval is
    /// not a reason to poll more often.
    func interval(for source: FeedSource, maxAge: Double?, ttl: Double?) -> Double {
        let base = clamp(source.interval ?? configuration.defaultInterval)
        let hint = max(maxAge ?? 0, ttl ?? 0)
        return max(base, clamp(hint))
    }

    /// The furthest after its end that a success schedules `source`'s next attempt when its
    /// server gave no hint: the interval with the most jitter. A server's `max-age` or a feed's
    /// `ttl` may have asked for longer, but neither is stored across restarts.
    func longestWaitWithoutHints(for source: FeedSource) -> Double {
        interval(for: source, maxAge: nil, ttl: nil) * (1 + spread)
    }

    /// `backoffBase × 2^(failures − 1)`, capped at `backoffCap`.
    func backoff(failures: Int) -> Double {
        let exponent = Double(min(max(failures, 1) - 1, 62))
        return min(configuration.backoffCap, configuration.backoffBase * pow2(exponent))
    }

    /// The delay a `Retry-After` asks for, capped at `maximumRetryAfter`.
    func retryDelay(_ retryAfter: RetryAfter, nowSecondsSince1970 now: Double) -> Double {
        min(configuration.maximumRetryAfter, retryAfter.delay(fromSecondsSince1970: now))
    }

    /// `seconds × (1 + u)`, u uniform in `[−jitter, +jitter]`.
    func jittered(_ seconds: Double, using generator: inout SplitMix64) -> Double {
        guard spread > 0 else { return seconds }
        return seconds * (1 + Double.random(in: -spread...spread, using: &generator))
    }

    /// The furthest ahead this policy ever schedules an attempt: the longest of
    /// `maximumInterval`, `backoffCap` and `maximumRetryAfter`, with the most jitter. A
    /// `nextAttempt` further ahead was computed on a wall clock that was ahead, or by a
    /// configuration that allowed longer waits; the scheduler pulls it in to this.
    var horizon: Double {
        let longest = max(configuration.maximumInterval, configuration.backoffCap, configuration.maximumRetryAfter)
        return longest * (1 + spread)
    }

    /// The jitter as used: within 0...0.5.
    private var spread: Double { min(max(configuration.jitter, 0), 0.5) }

    private func clamp(_ seconds: Double) -> Double {
        min(configuration.maximumInterval, max(configuration.minimumInterval, seconds))
    }

    private func pow2(_ exponent: Double) -> Double {
        var result = 1.0
        var remaining = exponent
        while remaining > 0 {
            result *= 2
            remaining -= 1
        }
        return result
    }
}

/// A small seeded generator (Steele, Lea and Flood's SplitMix64), so the jitter of a test run
/// is reproducible.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
