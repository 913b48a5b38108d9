public import HomeFeeds

/// Why one fetch produced no document (style.md §3.1).
///
/// A struct with a `kind` plus the context needed to act on it: the URL, the last HTTP status,
/// the redirects followed, the bytes received against the cap, and a `Retry-After` when the
/// server sent one. `description` is one line, safe to log: it never includes a body.
/// `304 Not Modified` is not an error but `FetchOutcome.notModified`.
public struct FetchError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// The URL is not `http:`, `https:` or `file:`, or cannot be read as a URL.
        case unsupportedURL
        /// The server answered with a status other than 2xx or 304.
        case httpStatus(Int)
        /// `URLSession` failed; the payload is the `URLError` code (e.g. -1004, cannot connect).
        case transport(code: Int)
        /// The total deadline (`FetchLimits.totalTimeout`) passed.
        case timedOut
        /// The body passed `FetchLimits.maxBodyBytes` after decompression.
        case bodyTooLarge
        /// More than `FetchLimits.maxRedirects` redirects (or a loop).
        case tooManyRedirects
        /// A redirect to a scheme other than `http:`/`https:` was refused.
        case redirectRefused(to: String)
        /// A local file could not be read; the payload says why.
        case file(String)
        /// The body is not a feed HomeFeeds can read, or broke a parse limit.
        case parse(FeedParseError)
        /// A sources list was expected, but the document is a feed.
        case notOPML
        /// The fetch was cancelled (shutdown); never counted as a source failure.
        case cancelled
    }

    /// The URL that was requested.
    public var url: String
    public var kind: Kind
    /// The status of the last HTTP response seen, if any.
    public var status: Int?
    /// Redirects followed before the failure.
    public var redirects: Int
    /// Body bytes received (after decompression) when the fetch stopped.
    public var bytesReceived: Int
    /// The body cap in force, for `bodyTooLarge`.
    public var byteCap: Int?
    /// The server's `Retry-After` (with `429` or `503`).
    public var retryAfter: RetryAfter?

    public init(
        url: String,
        kind: Kind,
        status: Int? = nil,
        redirects: Int = 0,
        bytesReceived: Int = 0,
        byteCap: Int? = nil,
        retryAfter: RetryAfter? = nil
    ) {
        self.url = url
        self.kind = kind
        self.status = status
        self.redirects = redirects
        self.bytesReceived = bytesReceived
        self.byteCap = byteCap
        self.retryAfter = retryAfter
    }

    /// True for `410 Gone`: the scheduler stops polling the source.
    public var isGone: Bool { kind == .httpStatus(410) }

    public var description: String {
        var text = "\(url): "
        switch kind {
        case .unsupportedURL:
            text += "unsupported URL (only http, https and file)"
        case .httpStatus(let code):
            text += "HTTP \(code)"
            if let reason = Self.reasons[code] { text += " \(reason)" }
        case .transport(let code):
            text += "URLError \(code)"
            if let name = Self.urlErrorNames[code] { text += " (\(name))" }
        case .timedOut:
            text += "timed out"
        case .bodyTooLarge:
            text += "body too large (\(bytesReceived) bytes received, cap \(byteCap ?? 0))"
        case .tooManyRedirects:
            text += "too many redirects"
        case .redirectRefused(let target):
            text += "redirect to \(target) refused"
        case .file(let reason):
            text += reason
        case .parse(let error):
            text += "not a readable feed: \(error.message)"
            if let line = error.line { text += " (line \(line))" }
        case .notOPML:
            text += "not an OPML document"
        case .cancelled:
            text += "cancelled"
        }
        if redirects > 0 { text += " after \(redirects) redirect\(redirects == 1 ? "" : "s")" }
        switch kind {
        case .timedOut, .transport, .parse:
            if bytesReceived > 0 { text += " (\(bytesReceived) bytes received)" }
        default:
            break
        }
        if let retryAfter { text += ", retry after \(retryAfter)" }
        return text
    }

    private static let reasons: [Int: String] = [
        400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 410: "Gone",
        429: "Too Many Requests", 500: "Internal Server Error", 502: "Bad Gateway",
        503: "Service Unavailable", 504: "Gateway Timeout",
    ]

    private static let urlErrorNames: [Int: String] = [
        -999: "cancelled", -1000: "bad URL", -1001: "timed out", -1002: "unsupported URL",
        -1003: "cannot find host", -1004: "cannot connect to host", -1005: "connection lost",
        -1007: "too many redirects", -1009: "not connected", -1011: "bad server response",
        -1017: "cannot parse response", -1200: "TLS failed", -1202: "untrusted server certificate",
    ]
}

/// A `Retry-After` header value (RFC 9110 §10.2.3): a delay in seconds or an HTTP date.
public enum RetryAfter: Sendable, Equatable, CustomStringConvertible {
    case seconds(Int)
    /// An instant, as seconds since 1970 (UTC).
    case date(secondsSince1970: Int64)

    /// The delay from `now` (seconds since 1970), never negative.
    public func delay(fromSecondsSince1970 now: Double) -> Double {
        switch self {
        case .seconds(let seconds): return Double(max(0, seconds))
        case .date(let instant): return max(0, Double(instant) - now)
        }
    }

    public var description: String {
        switch self {
        case .seconds(let seconds): return "\(seconds) s"
        case .date(let instant): return FeedTimestamp(secondsSince1970: instant).rfc3339
        }
    }
}
