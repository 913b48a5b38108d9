import CCurl
public import HomeFeeds

/// Why one fetch produced no document (style.md §3.1).
///
/// A struct with a `kind` plus the context needed to act on it: the URL, the last HTTP status,
/// the redirects followed, the bytes received against the cap, and a `Retry-After` when the
/// server sent one. `description` is one line, safe to log: it never includes a body.
/// `304 Not Modified` is not an error but `FetchOutcome.notModified`, unless the request sent
/// no validators.
public struct FetchError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// The URL is not `http:`, `https:` or `file:`, or cannot be read as a URL.
        case unsupportedURL
        /// The server answered with a status other than 2xx or 304, or with 304 to a request
        /// that sent no validators.
        case httpStatus(Int)
        /// libcurl failed; the payload is its `CURLcode` (e.g. 7, could not connect; 60, the
        /// certificate did not verify; 18, the body ended before its `Content-Length`).
        case transport(code: Int)
        /// The total deadline (`FetchLimits.totalTimeout`) passed.
        case timedOut
        /// No connection within `FetchLimits.connectTimeout`.
        case connectTimedOut
        /// The server sent less than `FetchLimits.lowSpeedLimit` bytes per second for
        /// `FetchLimits.lowSpeedTime` seconds (a trickle, or nothing at all).
        case stalled
        /// The response head passed `FetchLimits.maxHeaderBytes`.
        case headersTooLarge
        /// The body passed `FetchLimits.maxBodyBytes` after decompression.
        case bodyTooLarge
        /// More than `FetchLimits.maxRedirects` redirects.
        case tooManyRedirects
        /// A redirect to a URL the chain had already visited; the payload is that URL.
        case redirectLoop(to: String)
        /// A redirect to a scheme other than `http:`/`https:` was refused.
        case redirectRefused(to: String)
        /// A local file could not be read; the payload says why.
        case file(String)
        /// The body is not a feed HomeFeeds can read, or broke a parse limit.
        case parse(FeedParseError)
        /// A sources list was expected, but the document is a feed.
        case notOPML
        /// An image was expected, but the body is something else (HTML, an unsupported format);
        /// the payload says what.
        case notAnImage(String)
        /// The fetch was cancelled (shutdown, a reload that dropped the source); not counted as
        /// a source failure. The scheduler counts it as one when its attempt was not cancelled:
        /// the fetcher refused the transfer because its loop is gone.
        case cancelled
    }

    /// The URL that was requested.
    public var url: String
    public var kind: Kind
    /// The status of the last HTTP response seen, if any.
    public var status: Int?
    /// Redirects followed before the failure.
    public var redirects: Int
    /// True when a temporary redirect (`302`, `303`, `307`) came before the last response: its
    /// status is about where that redirect led, not about the source.
    public var afterTemporaryRedirect: Bool
    /// Body bytes received (after decompression) when the fetch stopped.
    public var bytesReceived: Int
    /// The body cap in force, for `bodyTooLarge`.
    public var byteCap: Int?
    /// The server's `Retry-After` (with `429` or `503`).
    public var retryAfter: RetryAfter?
    /// libcurl's own words about a transport failure (e.g. "Failed to connect to 127.0.0.1
    /// port 9: Connection refused"); never a body or a credential.
    public var detail: String?

    public init(
        url: String,
        kind: Kind,
        status: Int? = nil,
        redirects: Int = 0,
        afterTemporaryRedirect: Bool = false,
        bytesReceived: Int = 0,
        byteCap: Int? = nil,
        retryAfter: RetryAfter? = nil,
        detail: String? = nil
    ) {
        self.url = url
        self.kind = kind
        self.status = status
        self.redirects = redirects
        self.afterTemporaryRedirect = afterTemporaryRedirect
        self.bytesReceived = bytesReceived
        self.byteCap = byteCap
        self.retryAfter = retryAfter
        self.detail = detail
    }

    /// The `CURLcode` reported when a transfer ended without any response
    /// (`CURLE_GOT_NOTHING`).
    static let noResponseCode = Int(CURLE_GOT_NOTHING.rawValue)

    /// True for `410 Gone` reached directly or through permanent redirects only: the
    /// scheduler stops polling the source. A `410` behind a temporary redirect is an ordinary
    /// failure: the source itself still answers with a redirect.
    public var isGone: Bool { kind == .httpStatus(410) && !afterTemporaryRedirect }

    public var description: String {
        var text = "\(url): "
        switch kind {
        case .unsupportedURL:
            text += "unsupported URL (only http, https and file)"
        case .httpStatus(let code):
            text += "HTTP \(code)"
            if let reason = Self.reasons[code] { text += " \(reason)" }
        case .transport(let code):
            text += "network error: " + (detail ?? Self.curlMessage(code)) + " (curl \(code))"
        case .timedOut:
            text += "timed out"
        case .connectTimedOut:
            text += "connect timed out"
        case .stalled:
            text += "stalled (too slow for too long)"
        case .headersTooLarge:
            text += "response headers too large"
        case .bodyTooLarge:
            text += "body too large (\(bytesReceived) bytes received, cap \(byteCap ?? 0))"
        case .tooManyRedirects:
            text += "too many redirects"
        case .redirectLoop(let target):
            text += "redirect loop back to \(target)"
        case .redirectRefused(let target):
            text += "redirect to \(target) refused"
        case .file(let reason):
            text += reason
        case .parse(let error):
            text += "not a readable feed: \(error.message)"
            if let line = error.line { text += " (line \(line))" }
        case .notOPML:
            text += "not an OPML document"
        case .notAnImage(let reason):
            text += reason
        case .cancelled:
            text += "cancelled"
        }
        if redirects > 0 { text += " after \(redirects) redirect\(redirects == 1 ? "" : "s")" }
        switch kind {
        case .timedOut, .stalled, .transport, .parse:
            if bytesReceived > 0 { text += " (\(bytesReceived) bytes received)" }
        default:
            break
        }
        if let retryAfter { text += ", retry after \(retryAfter)" }
        return text
    }

    private static let reasons: [Int: String] = [
        304: "Not Modified", 400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 410: "Gone",
        429: "Too Many Requests", 500: "Internal Server Error", 502: "Bad Gateway",
        503: "Service Unavailable", 504: "Gateway Timeout",
    ]

    /// libcurl's one-line description of a `CURLcode`.
    private static func curlMessage(_ code: Int) -> String {
        guard let text = curl_easy_strerror(CURLcode(UInt32(clamping: max(0, code)))) else { return "unknown error" }
        return String(cString: text)
    }
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
