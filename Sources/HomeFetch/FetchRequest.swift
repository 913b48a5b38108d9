public import HomeFeeds

/// Bounds on one fetch (`feed-parsing.md` §6, `swift-on-linux.md` §2.1).
///
/// Sendable: an immutable value.
public struct FetchLimits: Sendable, Equatable {
    /// The body cap after decompression, counted while the body streams in; also stops gzip
    /// bombs. Miniflux uses 15 MiB.
    public var maxBodyBytes: Int
    /// Redirects followed before `FetchError.Kind.tooManyRedirects`.
    public var maxRedirects: Int
    /// Seconds without progress (connecting or between body chunks) before the transfer fails.
    ///
    /// This is `URLRequest.timeoutInterval`, which on Linux is an idle timeout truncated to
    /// whole seconds; it is rounded up here and never below 1 s, because 0 fails at once.
    public var connectTimeout: Double
    /// Seconds for the whole fetch, parse included, enforced by racing a `Task.sleep`
    /// (the resource timeout is not enforced on Linux).
    public var totalTimeout: Double
    /// Limits for HomeFeeds; its body cap and parse time follow `maxBodyBytes` and
    /// `totalTimeout`.
    public var parseLimits: FeedParseLimits

    public init(
        maxBodyBytes: Int = 15 << 20,
        maxRedirects: Int = 5,
        connectTimeout: Double = 10,
        totalTimeout: Double = 30,
        parseLimits: FeedParseLimits = .default
    ) {
        self.maxBodyBytes = maxBodyBytes
        self.maxRedirects = maxRedirects
        self.connectTimeout = connectTimeout
        self.totalTimeout = totalTimeout
        self.parseLimits = parseLimits
    }

    /// The parse limits with the body cap and parse time of these fetch limits.
    var effectiveParseLimits: FeedParseLimits {
        var limits = parseLimits
        limits.maxBodyBytes = maxBodyBytes
        limits.maxParseDuration = .milliseconds(Int64(max(1, totalTimeout) * 1000))
        return limits
    }
}

/// What to fetch: a URL, the validators stored for it, and the limits.
///
/// Sendable: an immutable value.
public struct FetchRequest: Sendable, Equatable {
    /// An absolute `http:`, `https:` or `file:` URL.
    public var url: String
    /// Sent as `If-None-Match` / `If-Modified-Since` when present.
    public var validators: HTTPValidators
    public var limits: FetchLimits

    public init(url: String, validators: HTTPValidators = HTTPValidators(), limits: FetchLimits = FetchLimits()) {
        self.url = url
        self.validators = validators
        self.limits = limits
    }
}
