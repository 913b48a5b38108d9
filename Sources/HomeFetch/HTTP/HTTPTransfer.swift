import CCurl
import Synchronization

/// One HTTP exchange on a libcurl easy handle: a GET with the stored validators, its redirects
/// followed by this code one hop at a time, and the body of the final `2xx` response handed to
/// an `HTTPBodyConsumer` as it arrives.
///
/// Every bound holds where the bytes arrive: the header callback counts header bytes against
/// `maxHeaderBytes`, the write callback counts decompressed body bytes against `maxBodyBytes`
/// (the bodies of redirects and error statuses against `discardedBodyBytes`), and either
/// returns short to abort the transfer the moment a bound is crossed. libcurl enforces the
/// connect timeout and the low-speed limit; `CurlMultiLoop` enforces the total deadline.
///
/// Redirects are followed here rather than by libcurl (`CURLOPT_FOLLOWLOCATION` stays off):
/// libcurl resolves the `Location` (`CURLINFO_REDIRECT_URL`), and `RedirectChain` refuses
/// schemes other than `http`/`https`, stops loops and counts the limit, and records where the
/// stored URL may move: the target of the `301`/`308` hops before the first temporary one. No
/// URL this transfer reports carries a user name or password from a `Location`.
///
/// `@unchecked Sendable`: created on the caller's thread, then confined to the loop's thread
/// from `CurlMultiLoop.submit` on (the loop's command mutex orders the hand-over); only
/// `isCancelRequested` is touched from other threads, and it is atomic.
final class HTTPTransfer: @unchecked Sendable {
    /// How many bytes of a body nobody reads (a redirect's, an error page's) are taken before
    /// the transfer of that hop is cut short.
    static let discardedBodyBytes = 64 << 10

    let request: FetchRequest
    let userAgent: String
    /// Set by a canceller before it wakes the loop; the loop checks it before starting.
    let isCancelRequested = Atomic<Bool>(false)
    /// Called once, on the loop's thread, when the exchange is over.
    var completion: ((HTTPExchange) -> Void)?
    /// The monotonic instant (`CurlMultiLoop.now()`, ms) after which the loop ends the transfer.
    let deadline: Int64

    private(set) var easy: UnsafeMutableRawPointer?
    private let body: any HTTPBodyConsumer
    private var headers: UnsafeMutablePointer<curl_slist>?
    private let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE))

    private var chain: RedirectChain

    // The hop in progress.
    private var head = HTTPResponseHead()
    private var headerBytes = 0
    private var headIsComplete = false
    private var consumesBody = false
    private var bodyBytes = 0
    private var discardedBytes = 0
    private var failure: FetchError.Kind?
    /// The consumer had all it wanted (a page's `<head>`) and the transfer was cut short on
    /// purpose: a complete exchange, not a failure.
    private var isSatisfied = false

    init(request: FetchRequest, userAgent: String, body: any HTTPBodyConsumer, now: Int64) {
        self.request = request
        self.userAgent = userAgent
        self.body = body
        chain = RedirectChain(requestedURL: request.url)
        deadline = now + Int64(max(0.001, request.limits.totalTimeout) * 1000)
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
    }

    deinit {
        releaseHandle()
        errorBuffer.deallocate()
    }

    /// Frees the easy handle and the header list; the loop calls it once the handle left the
    /// multi handle for good, so libcurl state is only ever touched on the loop's thread.
    func releaseHandle() {
        if let easy { curl_easy_cleanup(easy) }
        easy = nil
        curl_slist_free_all(headers)
        headers = nil
    }

    // MARK: - Setting up

    /// Creates the easy handle with every option of the first hop.
    ///
    /// - Returns: nil, or the failure that keeps the transfer from starting.
    func makeHandle() -> FetchError.Kind? {
        guard let easy = curl_easy_init() else { return .transport(code: Int(CURLE_FAILED_INIT.rawValue)) }
        self.easy = easy
        headers = Self.requestHeaders(
            validators: request.validators,
            accept: request.accept,
            authorization: request.credential?.authorization
        )
        let limits = request.limits
        let context = Unmanaged.passUnretained(self).toOpaque()
        var codes: [CURLcode] = [
            ccurl_easy_setopt_long(easy, CURLOPT_NOSIGNAL, 1),
            ccurl_easy_setopt_string(easy, CURLOPT_PROTOCOLS_STR, "http,https"),
            ccurl_easy_setopt_string(easy, CURLOPT_REDIR_PROTOCOLS_STR, "http,https"),
            ccurl_easy_setopt_long(easy, CURLOPT_FOLLOWLOCATION, 0),
            // "": every encoding this libcurl can decode (gzip, deflate, br, zstd on Debian 12).
            ccurl_easy_setopt_string(easy, CURLOPT_ACCEPT_ENCODING, ""),
            ccurl_easy_setopt_string(easy, CURLOPT_USERAGENT, userAgent),
            ccurl_easy_setopt_slist(easy, CURLOPT_HTTPHEADER, headers),
            ccurl_easy_setopt_long(easy, CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_2TLS)),
            ccurl_easy_setopt_long(easy, CURLOPT_SUPPRESS_CONNECT_HEADERS, 1),
            ccurl_easy_setopt_long(easy, CURLOPT_TCP_KEEPALIVE, 1),
            ccurl_easy_setopt_long(easy, CURLOPT_SSL_VERIFYPEER, 1),
            ccurl_easy_setopt_long(easy, CURLOPT_SSL_VERIFYHOST, 2),
            ccurl_easy_setopt_long(easy, CURLOPT_CONNECTTIMEOUT_MS, Self.milliseconds(limits.connectTimeout)),
            ccurl_easy_setopt_long(easy, CURLOPT_LOW_SPEED_LIMIT, max(1, limits.lowSpeedLimit)),
            ccurl_easy_setopt_long(easy, CURLOPT_LOW_SPEED_TIME, max(1, Int(limits.lowSpeedTime.rounded(.up)))),
            ccurl_easy_setopt_pointer(easy, CURLOPT_ERRORBUFFER, errorBuffer),
            ccurl_easy_setopt_data_callback(easy, CURLOPT_HEADERFUNCTION, headerCallback),
            ccurl_easy_setopt_pointer(easy, CURLOPT_HEADERDATA, context),
            ccurl_easy_setopt_data_callback(easy, CURLOPT_WRITEFUNCTION, writeCallback),
            ccurl_easy_setopt_pointer(easy, CURLOPT_WRITEDATA, context),
        ]
        codes.append(ccurl_easy_setopt_string(easy, CURLOPT_URL, chain.currentURL))
        if let failed = codes.first(where: { $0 != CURLE_OK }) {
            return failed == CURLE_UNSUPPORTED_PROTOCOL || failed == CURLE_URL_MALFORMAT
                ? .unsupportedURL : .transport(code: Int(failed.rawValue))
        }
        return nil
    }

    /// `Accept` and the conditional-GET validators, sent on every hop, and `Authorization`
    /// while the hop stays on the origin of the requested URL.
    private static func requestHeaders(
        validators: HTTPValidators,
        accept: String?,
        authorization: String?
    ) -> UnsafeMutablePointer<curl_slist>? {
        let feedTypes =
            "application/rss+xml, application/atom+xml, application/feed+json, text/x-opml, "
            + "application/xml;q=0.9, text/xml;q=0.9, application/json;q=0.8, */*;q=0.5"
        var lines = [
            "Accept: " + (accept.flatMap { $0.utf8.contains { $0 == 10 || $0 == 13 } ? nil : $0 } ?? feedTypes)
        ]
        // A header value is one line: a validator with CR or LF (from a hostile server's earlier
        // answer) is not sent rather than let it add headers of its own.
        func safe(_ value: String) -> Bool { !value.utf8.contains { $0 == 10 || $0 == 13 } }
        if let etag = validators.etag, safe(etag) { lines.append("If-None-Match: \(etag)") }
        if let lastModified = validators.lastModified, safe(lastModified) {
            lines.append("If-Modified-Since: \(lastModified)")
        }
        if let authorization, safe(authorization) { lines.append("Authorization: \(authorization)") }
        var list: UnsafeMutablePointer<curl_slist>?
        for line in lines {
            guard let longer = curl_slist_append(list, line) else { break }
            list = longer
        }
        return list
    }

    private static func milliseconds(_ seconds: Double) -> Int {
        Int(min(max(seconds, 0.001), 86_400) * 1000)
    }

    // MARK: - Bytes arriving (loop thread, inside curl_multi_perform)

    /// One header line; false aborts the transfer.
    fileprivate func receiveHeader(_ line: UnsafeRawBufferPointer) -> Bool {
        headerBytes += line.count
        guard headerBytes <= request.limits.maxHeaderBytes else {
            failure = .headersTooLarge
            return false
        }
        guard head.read(line: line), !head.isInterim else { return true }
        // The head of a final response is complete.
        headIsComplete = true
        guard (200..<300).contains(head.status) else { return true }
        consumesBody = true
        if let refusal = body.begin(head, url: chain.shownURL) {
            failure = refusal
            return false
        }
        return true
    }

    /// The next decompressed body bytes; false aborts the transfer.
    fileprivate func receiveBody(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard failure == nil else { return false }
        guard consumesBody else {
            discardedBytes += bytes.count
            return discardedBytes <= Self.discardedBodyBytes
        }
        bodyBytes += bytes.count
        guard bodyBytes <= request.limits.maxBodyBytes else {
            failure = .bodyTooLarge
            return false
        }
        if let failure = body.consume(bytes) {
            self.failure = failure
            return false
        }
        if body.isSatisfied {
            isSatisfied = true
            return false
        }
        return true
    }

    // MARK: - A hop ended (loop thread)

    /// What the loop does after libcurl finished the current hop.
    enum Next {
        /// Re-add the handle: it now points at the redirect's target.
        case follow
        /// The exchange is over.
        case complete(HTTPExchange)
    }

    /// Decides what follows a hop that libcurl finished with `code`.
    func hopEnded(_ code: CURLcode) -> Next {
        // A hop whose unread body was cut short (a redirect's, an error page's) still has its
        // whole head: that is all this code reads of it.
        let cutDiscardedBody = code == CURLE_WRITE_ERROR && failure == nil && !consumesBody
        if let failure { return .complete(exchange(failure: failure)) }
        if isSatisfied, code == CURLE_WRITE_ERROR || code == CURLE_OK { return .complete(exchange(failure: nil)) }
        guard code == CURLE_OK || cutDiscardedBody else { return .complete(exchange(failure: transportFailure(code))) }
        guard head.isRedirect, let target = redirectTarget() else { return .complete(exchange(failure: nil)) }
        if let refusal = follow(to: target) { return .complete(exchange(failure: refusal)) }
        return .follow
    }

    /// The absolute `Location` of the current redirect, as libcurl resolved it.
    private func redirectTarget() -> String? {
        guard let easy else { return nil }
        var pointer: UnsafeMutablePointer<CChar>?
        guard ccurl_easy_getinfo_string(easy, CURLINFO_REDIRECT_URL, &pointer) == CURLE_OK, let pointer else {
            return nil
        }
        return String(cString: pointer)
    }

    /// Points the handle at `target`, or says why not.
    private func follow(to target: String) -> FetchError.Kind? {
        let limit = request.limits.maxRedirects
        if let refusal = chain.follow(to: target, isPermanentHop: head.isPermanentRedirect, maxRedirects: limit) {
            return refusal
        }
        if request.credential != nil, !Self.sameOrigin(target, request.url) {
            // The secret belongs to the source's origin: a hop elsewhere goes without it.
            curl_slist_free_all(headers)
            headers = Self.requestHeaders(validators: request.validators, accept: request.accept, authorization: nil)
            if let easy { _ = ccurl_easy_setopt_slist(easy, CURLOPT_HTTPHEADER, headers) }
        }
        head = HTTPResponseHead()
        headerBytes = 0
        headIsComplete = false
        discardedBytes = 0
        errorBuffer[0] = 0
        guard let easy, ccurl_easy_setopt_string(easy, CURLOPT_URL, target) == CURLE_OK else {
            return .redirectRefused(to: chain.shownURL)
        }
        return nil
    }

    /// Whether two absolute http(s) URLs share scheme, host and port (RFC 6454), compared as
    /// libcurl parses them; an unparsable URL is another origin.
    static func sameOrigin(_ a: String, _ b: String) -> Bool {
        guard let first = origin(a), let second = origin(b) else { return false }
        return first == second
    }

    private static func origin(_ url: String) -> String? {
        guard let handle = curl_url() else { return nil }
        defer { curl_url_cleanup(handle) }
        guard curl_url_set(handle, CURLUPART_URL, url, 0) == CURLUE_OK else { return nil }
        func part(_ which: CURLUPart, _ flags: UInt32 = 0) -> String? {
            var value: UnsafeMutablePointer<CChar>?
            guard curl_url_get(handle, which, &value, flags) == CURLUE_OK, let value else { return nil }
            defer { curl_free(value) }
            return String(cString: value).lowercased()
        }
        guard let scheme = part(CURLUPART_SCHEME), let host = part(CURLUPART_HOST),
            let port = part(CURLUPART_PORT, UInt32(CURLU_DEFAULT_PORT))
        else { return nil }
        return "\(scheme)://\(host):\(port)"
    }

    /// The exchange as it stands, ended by `failure` (nil: a final response arrived in full).
    func exchange(failure: FetchError.Kind?) -> HTTPExchange {
        let detail = errorBuffer[0] == 0 ? nil : String(cString: errorBuffer)
        return HTTPExchange(
            requestedURL: request.url,
            finalURL: chain.shownURL,
            permanentRedirectURL: chain.permanentTarget,
            permanentRedirectHadUserinfo: chain.permanentTargetHadUserinfo,
            permanentRedirectPassedHTTP: chain.permanentPartPassedHTTP,
            redirects: chain.count,
            isPermanentChain: chain.isPermanent,
            head: head.status == 0 ? nil : head,
            bodyBytes: bodyBytes,
            failure: failure,
            detail: failure.map { if case .transport = $0 { detail } else { nil } } ?? nil
        )
    }

    /// A libcurl failure as a fetch failure. `CURLE_OPERATION_TIMEDOUT` is the connect timeout
    /// when the hop never got as far as sending its request (libcurl's pretransfer time is 0:
    /// no connection, or no TLS session yet) and no byte of a reply came, else the low-speed
    /// limit; the total deadline is the loop's. (libcurl 7.88 leaves the connect time at 0 on a
    /// reused connection, so it cannot tell.)
    /// `CURLE_UNSUPPORTED_PROTOCOL` at this point is not the URL's scheme (checked before the
    /// first hop and at every redirect) but the reply, bytes that are not HTTP ("Received
    /// HTTP/0.9 when not allowed"): a transport error, told in libcurl's words.
    private func transportFailure(_ code: CURLcode) -> FetchError.Kind {
        switch code {
        case CURLE_OPERATION_TIMEDOUT:
            var pretransfer: curl_off_t = 0
            if let easy { _ = ccurl_easy_getinfo_off(easy, CURLINFO_PRETRANSFER_TIME_T, &pretransfer) }
            return pretransfer == 0 && headerBytes == 0 ? .connectTimedOut : .stalled
        case CURLE_URL_MALFORMAT:
            return .unsupportedURL
        case CURLE_OUT_OF_MEMORY where !headIsComplete:
            // libcurl refuses one header line longer than CURL_MAX_HTTP_HEADER (100 KiB) this
            // way ("Avoided giant realloc for header"), before the callback sees the line.
            return .headersTooLarge
        default:
            return .transport(code: Int(code.rawValue))
        }
    }
}

/// libcurl's header callback: `userdata` is the unretained `HTTPTransfer`, which the loop
/// keeps alive while its handle is in the multi handle.
private let headerCallback: curl_write_callback = { data, size, count, userdata in
    guard let data, let userdata else { return 0 }
    let transfer = Unmanaged<HTTPTransfer>.fromOpaque(userdata).takeUnretainedValue()
    let length = size * count
    return transfer.receiveHeader(UnsafeRawBufferPointer(start: data, count: length)) ? length : 0
}

/// libcurl's write callback, with the decompressed body bytes.
private let writeCallback: curl_write_callback = { data, size, count, userdata in
    guard let data, let userdata else { return 0 }
    let transfer = Unmanaged<HTTPTransfer>.fromOpaque(userdata).takeUnretainedValue()
    let length = size * count
    return transfer.receiveBody(UnsafeRawBufferPointer(start: data, count: length)) ? length : 0
}
