/// What one HTTP exchange came to, redirects followed: the final response's head, or the
/// failure that ended it. Built on the fetch loop's thread when the transfer completes.
///
/// Sendable: an immutable value.
struct HTTPExchange: Sendable {
    /// The URL that was requested.
    var requestedURL: String
    /// The URL of the last hop, without a user name or password: the base of the document's
    /// relative links.
    var finalURL: String
    /// The target of the `301`/`308` redirects at the start of the chain, up to the first
    /// temporary one, without a user name or password.
    var permanentRedirectURL: String?
    /// The permanent target had a user name or password (`RedirectChain`).
    var permanentRedirectHadUserinfo = false
    /// A hop of the permanent part of the chain was plain `http:` (`RedirectChain`).
    var permanentRedirectPassedHTTP = false
    var redirects: Int
    /// True when every redirect was a `301` or `308`, or there was none: what the last
    /// response says, it says about the requested URL.
    var isPermanentChain: Bool
    /// The last response's head; nil when no status line arrived.
    var head: HTTPResponseHead?
    /// Body bytes of the final response after decompression.
    var bodyBytes: Int
    /// Why the exchange ended early; nil when a final response arrived in full.
    var failure: FetchError.Kind?
    /// libcurl's own words about a transport failure (its error buffer), for the log.
    var detail: String?
}

extension HTTPExchange {
    /// What a fetch reports about the exchange whose final response had `head`.
    func responseInfo(head: HTTPResponseHead) -> FetchResponseInfo {
        FetchResponseInfo(
            requestedURL: requestedURL,
            finalURL: finalURL,
            permanentRedirectURL: permanentRedirectURL,
            permanentRedirectHadUserinfo: permanentRedirectHadUserinfo,
            permanentRedirectPassedHTTP: permanentRedirectPassedHTTP,
            redirects: redirects,
            status: head.status,
            validators: HTTPValidators(etag: head.header("ETag"), lastModified: head.header("Last-Modified")),
            maxAge: HTTPHeaderValues.maxAge(cacheControl: head.header("Cache-Control")),
            contentType: head.header("Content-Type"),
            bodyBytes: bodyBytes
        )
    }
}
