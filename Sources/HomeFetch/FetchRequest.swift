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
    /// Seconds to resolve the host and connect (TLS handshake included), per hop
    /// (`CURLOPT_CONNECTTIMEOUT_MS`): 10 s.
    public var connectTimeout: Double
    /// Seconds for the whole fetch, redirects and parse included, enforced by the fetch loop:
    /// 30 s.
    public var totalTimeout: Double
    /// Bytes per second below which a transfer counts as stalled
    /// (`CURLOPT_LOW_SPEED_LIMIT`): 256 B/s. Waiting for the first byte counts too.
    public var lowSpeedLimit: Int
    /// Seconds a transfer may stay below `lowSpeedLimit` before it ends as stalled
    /// (`CURLOPT_LOW_SPEED_TIME`, whole seconds, at least 1): 15 s.
    public var lowSpeedTime: Double
    /// Bytes of response head (status line and header lines, interim responses included) per
    /// hop: 64 KiB. Real feed servers send a few hundred.
    public var maxHeaderBytes: Int
    /// Limits for HomeFeeds; its body cap and parse time follow `maxBodyBytes` and
    /// `totalTimeout`.
    public var parseLimits: FeedParseLimits

    public init(
        maxBodyBytes: Int = 15 << 20,
        maxRedirects: Int = 5,
        connectTimeout: Double = 10,
        totalTimeout: Double = 30,
        lowSpeedLimit: Int = 256,
        lowSpeedTime: Double = 15,
        maxHeaderBytes: Int = 64 << 10,
        parseLimits: FeedParseLimits = .default
    ) {
        self.maxBodyBytes = maxBodyBytes
        self.maxRedirects = maxRedirects
        self.connectTimeout = connectTimeout
        self.totalTimeout = totalTimeout
        self.lowSpeedLimit = lowSpeedLimit
        self.lowSpeedTime = lowSpeedTime
        self.maxHeaderBytes = maxHeaderBytes
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
    /// Sent as `Authorization` to the origin of `url` only (never after a redirect to another
    /// origin, never to `file:`).
    public var credential: FetchCredential?
    public var limits: FetchLimits
    /// The `Accept` header; nil for a feed's (RSS, Atom, JSON Feed, OPML).
    public var accept: String?

    public init(
        url: String,
        validators: HTTPValidators = HTTPValidators(),
        credential: FetchCredential? = nil,
        limits: FetchLimits = FetchLimits(),
        accept: String? = nil
    ) {
        self.url = url
        self.validators = validators
        self.credential = credential
        self.limits = limits
        self.accept = accept
    }
}
