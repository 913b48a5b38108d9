public import HomeFeeds

/// What the server (or file) said about one fetch, apart from the body.
///
/// Sendable: an immutable value.
public struct FetchResponseInfo: Sendable, Equatable {
    /// The URL that was requested.
    public var requestedURL: String
    /// The URL the document came from after redirects; the base of its relative links. Never
    /// with a user name or password a redirect's `Location` had.
    public var finalURL: String
    /// The target of the `301`/`308` redirects at the start of the chain, up to the first
    /// temporary one; nil when the chain started with a temporary redirect or there was none.
    /// Shown without a user name or password (`permanentRedirectHadUserinfo` says it had one).
    public var permanentRedirectURL: String?
    /// True when the permanent target carried a user name or password: it must not be saved,
    /// since the URL without them is not where the chain led and the URL with them is a
    /// secret.
    public var permanentRedirectHadUserinfo: Bool
    /// True when a hop of the `301`/`308` part of the chain, its target included, was plain
    /// `http:`: whoever was on that hop's path could have chosen where the move led, so a
    /// source fetched over `https:` does not save it.
    public var permanentRedirectPassedHTTP: Bool
    public var redirects: Int
    /// The final HTTP status; nil for `file:`.
    public var status: Int?
    /// The validator pair to store after this response (for `file:`, size and modification
    /// time as an `ETag`).
    public var validators: HTTPValidators
    /// `Cache-Control: max-age` in seconds, when sent and caching is not refused.
    public var maxAge: Double?
    public var contentType: String?
    /// Body bytes after decompression.
    public var bodyBytes: Int

    public init(
        requestedURL: String,
        finalURL: String,
        permanentRedirectURL: String? = nil,
        permanentRedirectHadUserinfo: Bool = false,
        permanentRedirectPassedHTTP: Bool = false,
        redirects: Int = 0,
        status: Int? = nil,
        validators: HTTPValidators = HTTPValidators(),
        maxAge: Double? = nil,
        contentType: String? = nil,
        bodyBytes: Int = 0
    ) {
        self.requestedURL = requestedURL
        self.finalURL = finalURL
        self.permanentRedirectURL = permanentRedirectURL
        self.permanentRedirectHadUserinfo = permanentRedirectHadUserinfo
        self.permanentRedirectPassedHTTP = permanentRedirectPassedHTTP
        self.redirects = redirects
        self.status = status
        self.validators = validators
        self.maxAge = maxAge
        self.contentType = contentType
        self.bodyBytes = bodyBytes
    }
}

/// A fetched and parsed document, ready for the store.
///
/// Sendable: an immutable value.
public struct FetchedDocument: Sendable, Equatable {
    public var response: FetchResponseInfo
    /// The feed or OPML document, parsed with `response.finalURL` as its base.
    public var document: FeedDocument
    /// The RSS channel's `<ttl>`, in seconds, when the document has one.
    public var ttl: Double?

    public init(response: FetchResponseInfo, document: FeedDocument, ttl: Double? = nil) {
        self.response = response
        self.document = document
        self.ttl = ttl
    }
}

/// The result of a fetch that did not fail.
public enum FetchOutcome: Sendable, Equatable {
    /// A new document (HTTP 2xx, or a file that changed).
    case fetched(FetchedDocument)
    /// `304 Not Modified`, a file with the same size and modification time, or a `200` whose
    /// body has the digest of the body last ingested (`HTTPValidators.contentDigest`; `status`
    /// then says 200): keep what is stored.
    case notModified(FetchResponseInfo)

    public var response: FetchResponseInfo {
        switch self {
        case .fetched(let document): return document.response
        case .notModified(let response): return response
        }
    }
}
