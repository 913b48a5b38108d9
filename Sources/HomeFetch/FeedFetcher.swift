import FoundationEssentials
import Synchronization

/// Something that turns a `FetchRequest` into a parsed document: `FeedFetcher`, or a stand-in
/// in tests.
public protocol SourceFetching: Sendable {
    /// Fetches and parses one document.
    ///
    /// - Returns: `.fetched` with the parsed document, or `.notModified`.
    /// - Throws: `FetchError` for everything else, `410 Gone` and timeouts included.
    func fetch(_ request: FetchRequest) async throws(FetchError) -> FetchOutcome
}

/// Fetches `file:` and `http(s):` sources and parses them as they stream in.
///
/// HTTP runs on libcurl's multi interface, on one thread for the whole fetcher
/// (`CurlMultiLoop`): connections, DNS answers and TLS sessions are reused across fetches,
/// HTTP/2 is used where the server offers it, and at most `maxConnectionsPerHost` /
/// `maxTotalConnections` connections are open. Each body is capped after decompression
/// where the bytes arrive and fed to HomeFeeds chunk by chunk (`HTTPTransfer`).
///
/// Per fetch: conditional GET with the stored validators, `304` as `.notModified` (an error
/// when no validators were sent: there is nothing it could leave unmodified), at most
/// `maxRedirects` redirects (followed by `HTTPTransfer`, `301`/`308` chains reported as
/// permanent, loops and non-HTTP targets refused), a connect timeout, a low-speed limit and a
/// total deadline (`FetchLimits`). TLS certificates are verified against the system's CA store
/// (libcurl's default, `/etc/ssl/certs` on Debian). Proxies come from the standard environment
/// variables, as libcurl reads them: `http_proxy`, `https_proxy` / `HTTPS_PROXY`, `all_proxy`,
/// `no_proxy` (`docs/configuration.md`).
///
/// Create one fetcher for the process and call `shutdown()` when stopping: it cancels the
/// transfers in flight and ends the loop's thread.
///
/// Sendable: the loop is thread-safe and made once, under a `Mutex`; nothing else is mutable.
public final class FeedFetcher: SourceFetching, Sendable {
    /// Fetcher-wide settings; per-fetch limits travel in `FetchRequest`.
    public struct Configuration: Sendable, Equatable {
        /// Sent on every request, redirects included.
        public var userAgent: String
        /// Connections open to one host (`host:port`) at once; transfers beyond wait in libcurl.
        /// The scheduler fetches one source per host at a time anyway.
        public var maxConnectionsPerHost: Int
        /// Connections open at once over all hosts, and kept for reuse.
        public var maxTotalConnections: Int

        public init(
            userAgent: String = UserAgent.homefeed,
            maxConnectionsPerHost: Int = 2,
            maxTotalConnections: Int = 16
        ) {
            self.userAgent = userAgent
            self.maxConnectionsPerHost = maxConnectionsPerHost
            self.maxTotalConnections = maxTotalConnections
        }
    }

    public let configuration: Configuration
    /// The fetch loop, started by the first HTTP fetch, and whether ``shutdown()`` came: a
    /// daemon whose sources are all `file:`, or that does not fetch, never initialises libcurl
    /// and OpenSSL, nor starts the thread (about 3 MB of resident pages, issue 17).
    private let loopState = Mutex<(loop: CurlMultiLoop?, isShutDown: Bool)>((nil, false))

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    deinit {
        loopState.withLock { $0.loop }?.requestStop()
    }

    /// Cancels every transfer in flight and ends the fetch thread; later HTTP fetches fail as
    /// cancelled. Returns once the thread has released libcurl's handles.
    public func shutdown() async {
        let loop = loopState.withLock { state in
            state.isShutDown = true
            return state.loop
        }
        await loop?.stop()
    }

    /// The fetch loop, started now if this is the first HTTP fetch; nil after ``shutdown()``.
    private func startedLoop() -> CurlMultiLoop? {
        loopState.withLock { state in
            if state.loop == nil, !state.isShutDown {
                state.loop = CurlMultiLoop(
                    configuration: CurlMultiLoop.Configuration(
                        maxConnectionsPerHost: configuration.maxConnectionsPerHost,
                        maxTotalConnections: configuration.maxTotalConnections
                    )
                )
            }
            return state.loop
        }
    }

    /// The libcurl in use and its features (for logs).
    public static var libraryVersion: String { CurlRuntime.summary }

    /// CPU time of the fetch thread so far; a stalled transfer must cost none (tests).
    package var _threadCPUTime: Duration { loopState.withLock { $0.loop }?.threadCPUTime ?? .zero }

    /// Whether an HTTP fetch has started libcurl's loop (tests).
    package var _hasStartedLoop: Bool { loopState.withLock { $0.loop != nil } }

    public func fetch(_ request: FetchRequest) async throws(FetchError) -> FetchOutcome {
        switch URLScheme(request.url) {
        case .file?:
            return try await LocalFileReader.read(request)
        case .http?, .https?:
            return try await fetchHTTP(request).get()
        case nil:
            throw FetchError(url: request.url, kind: .unsupportedURL)
        }
    }

    private func fetchHTTP(_ request: FetchRequest) async -> Result<FetchOutcome, FetchError> {
        let body = FeedBody(limits: request.limits.effectiveParseLimits, knownDigest: request.validators.contentDigest)
        return await perform(request, body: body) { exchange in Self.outcome(of: exchange, body: body, request: request)
        }
    }

    /// Runs one exchange on the fetch loop; `conclude` reads the result on the loop's thread,
    /// where the body consumer lives.
    func perform<Result: Sendable>(
        _ request: FetchRequest,
        body: some HTTPBodyConsumer,
        conclude: @escaping (HTTPExchange) -> Result
    ) async -> Result {
        let transfer = HTTPTransfer(
            request: request,
            userAgent: configuration.userAgent,
            body: body,
            now: CurlMultiLoop.now()
        )
        guard let loop = startedLoop() else { return conclude(transfer.exchange(failure: .cancelled)) }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                transfer.completion = { exchange in continuation.resume(returning: conclude(exchange)) }
                loop.submit(transfer)
            }
        } onCancel: {
            loop.cancel(transfer)
        }
    }

    /// The fetch's result from the exchange; runs on the loop's thread, where the parser lives.
    private static func outcome(
        of exchange: HTTPExchange,
        body: FeedBody,
        request: FetchRequest
    ) -> Result<FetchOutcome, FetchError> {
        let status = exchange.head?.status
        func fail(_ kind: FetchError.Kind, retryAfter: RetryAfter? = nil) -> Result<FetchOutcome, FetchError> {
            .failure(
                FetchError(
                    url: request.url,
                    kind: kind,
                    status: status,
                    redirects: exchange.redirects,
                    afterTemporaryRedirect: !exchange.isPermanentChain,
                    bytesReceived: exchange.bodyBytes,
                    byteCap: request.limits.maxBodyBytes,
                    retryAfter: retryAfter,
                    detail: exchange.detail
                )
            )
        }
        if let failure = exchange.failure { return fail(failure) }
        guard let head = exchange.head else { return fail(.transport(code: FetchError.noResponseCode)) }
        var info = exchange.responseInfo(head: head)
        switch head.status {
        case 304 where request.validators.isEmpty:
            // Not modified since nothing: without validators there is no stored document it
            // could be about.
            return fail(.httpStatus(304))
        case 304:
            // A 304 without validators keeps the stored pair; with any, the new pair replaces it.
            // The body is the one already stored either way, so its digest stays.
            if info.validators.isEmpty { info.validators = request.validators }
            info.validators.contentDigest = request.validators.contentDigest
            return .success(.notModified(info))
        case 200..<300:
            info.validators.contentDigest = body.digest.value
            switch body.finish() {
            case .parsed(let document):
                let ttl = LocalFileReader.ttl(document, body.sniffer)
                return .success(.fetched(FetchedDocument(response: info, document: document, ttl: ttl)))
            case .unchanged:
                return .success(.notModified(info))
            case .failed(let error):
                return fail(.parse(error))
            }
        case let code:
            let retryAfter =
                code == 429 || code == 503 ? HTTPHeaderValues.retryAfter(head.header("Retry-After")) : nil
            return fail(.httpStatus(code), retryAfter: retryAfter)
        }
    }
}
