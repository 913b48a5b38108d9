import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

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
/// HTTP goes through **one long-lived** `URLSession` (`swift-on-linux.md` §2.2): ephemeral,
/// no URL cache, no cookies, few connections per host, with a delegate so the body is capped
/// after decompression and fed to HomeFeeds chunk by chunk. Create one `FeedFetcher` for the
/// process and keep it: deallocating sessions crashes corelibs-foundation
/// (swift-corelibs-foundation#5469). Call `invalidate()` only at shutdown.
///
/// Per fetch: conditional GET with the stored validators, `304` as `.notModified`, at most
/// `maxRedirects` redirects with `301`/`308` reported as permanent, an idle (connect) timeout
/// through `URLRequest.timeoutInterval` and a total deadline raced against `Task.sleep`
/// (`swift-on-linux.md` §2.1).
///
/// Sendable: the session and delegate are thread-safe; the fetcher holds no other state.
public final class FeedFetcher: SourceFetching, Sendable {
    /// Session-wide settings; per-fetch limits travel in `FetchRequest`.
    public struct Configuration: Sendable, Equatable {
        /// Sent on every request, redirects included.
        public var userAgent: String
        /// `httpMaximumConnectionsPerHost`; many parallel HTTPS transfers time out on Linux
        /// (swift-corelibs-foundation#3287).
        public var maxConnectionsPerHost: Int

        public init(userAgent: String = HomeFetch.defaultUserAgent, maxConnectionsPerHost: Int = 2) {
            self.userAgent = userAgent
            self.maxConnectionsPerHost = maxConnectionsPerHost
        }
    }

    public let configuration: Configuration
    private let session: URLSession
    private let delegateQueue: OperationQueue
    private let delegate: SessionDelegate

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        let sessionConfiguration = URLSessionConfiguration.ephemeral
        sessionConfiguration.urlCache = nil
        sessionConfiguration.requestCachePolicy = .reloadIgnoringLocalCacheData
        sessionConfiguration.httpCookieStorage = nil
        sessionConfiguration.httpShouldSetCookies = false
        sessionConfiguration.httpMaximumConnectionsPerHost = max(1, configuration.maxConnectionsPerHost)
        sessionConfiguration.httpAdditionalHeaders = ["User-Agent": configuration.userAgent]
        let queue = OperationQueue()
        queue.name = "homefeed.fetch.session"
        queue.maxConcurrentOperationCount = 1
        delegateQueue = queue
        delegate = SessionDelegate()
        session = URLSession(configuration: sessionConfiguration, delegate: delegate, delegateQueue: queue)
        userAgent = configuration.userAgent
    }

    /// Cancels every transfer and releases the session; the fetcher is unusable afterwards.
    /// Call once, at shutdown.
    public func invalidate() {
        session.invalidateAndCancel()
    }

    public func fetch(_ request: FetchRequest) async throws(FetchError) -> FetchOutcome {
        switch URLScheme(request.url) {
        case .file?:
            return try await LocalFileReader.read(request)
        case .http?, .https?:
            guard let url = URL(string: request.url), url.host != nil else {
                throw FetchError(url: request.url, kind: .unsupportedURL)
            }
            return try await fetchHTTP(request, url: url).get()
        case nil:
            throw FetchError(url: request.url, kind: .unsupportedURL)
        }
    }

    private let userAgent: String

    private func fetchHTTP(_ request: FetchRequest, url: URL) async -> Result<FetchOutcome, FetchError> {
        var urlRequest = URLRequest(url: url)
        // The setter, not the initializer: only the setter is honoured on Linux (§2.1).
        urlRequest.timeoutInterval = max(1, request.limits.connectTimeout.rounded(.up))
        Self.applyHeaders(to: &urlRequest, validators: request.validators, userAgent: userAgent)
        let dataTask = session.dataTask(with: urlRequest)
        let transfer = HTTPTransfer(request: request)
        delegate.register(transfer, for: dataTask)
        let task = UncheckedTask(dataTask)
        let total = max(0.001, request.limits.totalTimeout)
        let deadline = Task {
            do {
                try await Task.sleep(for: .milliseconds(Int64(total * 1000)))
            } catch {
                return
            }
            transfer.timedOut.store(true, ordering: .releasing)
            cancel(task, of: transfer)
            // corelibs completes a cancelled task at once; should it ever not, end the fetch
            // anyway rather than wait for ever. (`complete` resumes only once.)
            do {
                try await Task.sleep(for: .seconds(5))
            } catch {
                return
            }
            delegateQueue.addOperation { transfer.complete(error: nil) }
        }
        defer { deadline.cancel() }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                transfer.continuation = continuation
                task.value.resume()
            }
        } onCancel: {
            cancel(task, of: transfer)
        }
    }

    /// Cancels a transfer from the delegate queue, so the cancellation is ordered after any
    /// delegate callback already queued.
    ///
    /// corelibs-foundation traps ("Received callback for HTTP redirection, but we're not
    /// waiting for it") when a task is cancelled between a 3xx and the redirect completion
    /// handler; hopping onto the delegate queue and refusing later redirects
    /// (`isCancelRequested`) keeps `cancel()` out of that window as far as the API allows.
    private func cancel(_ task: UncheckedTask, of transfer: HTTPTransfer) {
        delegateQueue.addOperation {
            transfer.isCancelRequested = true
            task.value.cancel()
        }
    }

    /// Sets the headers every request carries, redirects included.
    static func applyHeaders(to request: inout URLRequest, validators: HTTPValidators, userAgent: String? = nil) {
        if let userAgent { request.setValue(userAgent, forHTTPHeaderField: "User-Agent") }
        request.setValue(
            "application/rss+xml, application/atom+xml, application/feed+json, text/x-opml, "
                + "application/xml;q=0.9, text/xml;q=0.9, application/json;q=0.8, */*;q=0.5",
            forHTTPHeaderField: "Accept"
        )
        if let etag = validators.etag { request.setValue(etag, forHTTPHeaderField: "If-None-Match") }
        if let lastModified = validators.lastModified {
            request.setValue(lastModified, forHTTPHeaderField: "If-Modified-Since")
        }
    }
}

/// Carries a `URLSessionTask` into the deadline task and the cancellation handler.
///
/// `URLSessionTask.cancel()` and `resume()` are thread-safe in corelibs-foundation; the class
/// is just not annotated as Sendable.
private struct UncheckedTask: @unchecked Sendable {
    let value: URLSessionDataTask
    init(_ value: URLSessionDataTask) { self.value = value }
}
