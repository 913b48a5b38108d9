public import FoundationEssentials

/// The validators of the last good response, kept as one atomic pair.
///
/// They are always replaced together, from one response, so an `ETag` of one version is never
/// sent with the `Last-Modified` of another (RFC 9110 §13.1). Sendable: an immutable value.
///
/// HomeStore's `Validators` has the same shape on purpose: HomeFetch and HomeStore import
/// neither each other nor a common model, and the daemon maps one to the other where fetch
/// meets store (`StoreIngestion`, the image pipeline).
public struct HTTPValidators: Sendable, Hashable {
    /// The `ETag` header as received (quotes and a `W/` prefix included). A validator that
    /// cannot be sent back byte for byte is never kept (`HTTPResponseHead`).
    public var etag: String?
    /// The `Last-Modified` header as received, sent back verbatim in `If-Modified-Since`.
    public var lastModified: String?
    /// The `ContentDigest` of the body these validators came with; never sent, but a `200`
    /// whose body has the same digest is `notModified` without being parsed.
    public var contentDigest: String?

    public init(etag: String? = nil, lastModified: String? = nil, contentDigest: String? = nil) {
        self.etag = etag
        self.lastModified = lastModified
        self.contentDigest = contentDigest
    }

    /// True when there is nothing to send (the digest is not sent).
    public var isEmpty: Bool { etag == nil && lastModified == nil }
}

/// Everything the scheduler knows about one source between fetches: what the daemon persists
/// (with HomeStore) and hands back at start-up.
///
/// Sendable: an immutable value. Dates are wall-clock instants from the scheduler's
/// `FetchClock`.
public struct SourceFetchState: Sendable, Equatable {
    /// The configured URL (`FeedSource.url`), the key of this state.
    public var url: String
    /// The pair to send as `If-None-Match` / `If-Modified-Since` next time.
    public var validators: HTTPValidators
    public var lastAttempt: Date?
    /// The last attempt that ended in a document or `304 Not Modified`.
    public var lastSuccess: Date?
    /// When the scheduler will try next; nil for a new source (due at once) or a gone one.
    public var nextAttempt: Date?
    /// Failed attempts since the last success; drives the backoff.
    public var consecutiveFailures: Int
    /// The one-line `FetchError` (or ingest error) description of the last failure, nil after a
    /// success.
    public var lastError: String?
    /// Where the `301`/`308` redirects at the start of a chain led (up to its first temporary
    /// one): the URL fetched from now on. A chain that starts with a temporary redirect (`302`,
    /// `303`, `307`) never changes it, nor does a move from `https:` to `http:` or through an
    /// `http:` hop, or one to a URL with a user name or password.
    public var permanentRedirectURL: String?
    /// True after `410 Gone`: the source is no longer polled (an explicit refresh still tries).
    public var isGone: Bool

    public init(
        url: String,
        validators: HTTPValidators = HTTPValidators(),
        lastAttempt: Date? = nil,
        lastSuccess: Date? = nil,
        nextAttempt: Date? = nil,
        consecutiveFailures: Int = 0,
        lastError: String? = nil,
        permanentRedirectURL: String? = nil,
        isGone: Bool = false
    ) {
        self.url = url
        self.validators = validators
        self.lastAttempt = lastAttempt
        self.lastSuccess = lastSuccess
        self.nextAttempt = nextAttempt
        self.consecutiveFailures = consecutiveFailures
        self.lastError = lastError
        self.permanentRedirectURL = permanentRedirectURL
        self.isGone = isGone
    }

    /// The URL to request: the permanent redirect target when there is one.
    public var fetchURL: String { permanentRedirectURL ?? url }
}
