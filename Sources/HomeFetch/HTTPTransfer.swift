import Foundation
import HomeFeeds
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The state of one HTTP fetch while `URLSession` runs it.
///
/// Confinement: every field except `timedOut` is touched only on the session's serial
/// delegate queue, after `continuation` was set before the task was resumed; `timedOut` is
/// an atomic the deadline task sets. That is what `@unchecked Sendable` relies on.
///
/// The body is counted as it arrives, after libcurl decompressed it (`Content-Length` gives
/// the compressed size and is never used), and fed to HomeFeeds' push parser chunk by chunk;
/// a chunk past the cap, or a parse error, cancels the transfer at once.
final class HTTPTransfer: @unchecked Sendable {
    typealias Completion = CheckedContinuation<Result<FetchOutcome, FetchError>, Never>

    let request: FetchRequest
    var continuation: Completion?
    let timedOut = Atomic<Bool>(false)
    /// Set on the delegate queue just before the task is cancelled; a redirect that arrives
    /// afterwards is refused instead of followed.
    var isCancelRequested = false

    private var redirects = 0
    private var permanentRedirectURL: String?
    private var chainIsPermanent = true
    private var response: HTTPURLResponse?
    private var parser: FeedDocumentParser?
    private var sniffer = ChannelTTLSniffer()
    private var bytes = 0
    private var failure: FetchError.Kind?

    init(request: FetchRequest) {
        self.request = request
    }

    /// Decides on a redirect: the new request, or nil to stop (the 3xx then completes the task).
    func redirect(_ response: HTTPURLResponse, to next: URLRequest) -> URLRequest? {
        guard failure == nil, !isCancelRequested else { return nil }
        guard redirects < request.limits.maxRedirects else {
            failure = .tooManyRedirects
            return nil
        }
        redirects += 1
        guard let target = next.url, target.scheme == "http" || target.scheme == "https" else {
            failure = .redirectRefused(to: next.url?.absoluteString ?? "?")
            return nil
        }
        // Only a chain of permanent redirects from the start moves the source (RFC 9110
        // §15.4.2, §15.4.9); one temporary hop makes everything after it temporary too.
        if chainIsPermanent, response.statusCode == 301 || response.statusCode == 308 {
            permanentRedirectURL = target.absoluteString
        } else {
            chainIsPermanent = false
        }
        var request = next
        FeedFetcher.applyHeaders(to: &request, validators: self.request.validators)
        return request
    }

    /// Starts a parser for a 2xx response; other statuses keep their (capped) body unread.
    func receive(_ response: URLResponse) {
        guard let http = response as? HTTPURLResponse else { return }
        self.response = http
        guard (200..<300).contains(http.statusCode) else { return }
        parser = FeedDocumentParser(
            url: http.url?.absoluteString ?? request.url,
            contentType: Self.header("Content-Type", in: http),
            limits: request.limits.effectiveParseLimits
        )
    }

    /// Counts and parses the next decompressed bytes. Returns false to cancel the transfer.
    ///
    /// Once a failure is recorded the bytes are ignored: the transfer was already cancelled,
    /// or (after a refused redirect) it is completing with the 3xx body and must not be
    /// cancelled again.
    func receive(_ data: Data) -> Bool {
        guard failure == nil else { return true }
        bytes += data.count
        guard bytes <= request.limits.maxBodyBytes else {
            failure = .bodyTooLarge
            return false
        }
        guard let parser else { return true }
        var parseError: FeedParseError?
        data.withUnsafeBytes { raw in
            sniffer.append(raw)
            do throws(FeedParseError) { try parser.append(raw) } catch { parseError = error }
        }
        if let parseError {
            failure = .parse(parseError)
            return false
        }
        return true
    }

    /// Turns what happened into the fetch's result and resumes the waiting fetch; later calls
    /// do nothing.
    func complete(error: (any Error)?) {
        guard let continuation else { return }
        self.continuation = nil
        let result = outcome(error: error)
        parser = nil
        failure = failure ?? .cancelled
        continuation.resume(returning: result)
    }

    private func outcome(error: (any Error)?) -> Result<FetchOutcome, FetchError> {
        let status = response?.statusCode
        func fail(_ kind: FetchError.Kind, retryAfter: RetryAfter? = nil) -> Result<FetchOutcome, FetchError> {
            .failure(
                FetchError(
                    url: request.url,
                    kind: kind,
                    status: status,
                    redirects: redirects,
                    bytesReceived: bytes,
                    byteCap: request.limits.maxBodyBytes,
                    retryAfter: retryAfter
                )
            )
        }
        if timedOut.load(ordering: .acquiring) { return fail(.timedOut) }
        if let failure { return fail(failure) }
        if let error {
            let code = (error as? URLError)?.errorCode ?? (error as NSError).code
            return fail(code == URLError.cancelled.rawValue ? .cancelled : .transport(code: code))
        }
        guard let response else { return fail(.transport(code: URLError.badServerResponse.rawValue)) }
        var info = FetchResponseInfo(
            requestedURL: request.url,
            finalURL: response.url?.absoluteString ?? request.url,
            permanentRedirectURL: permanentRedirectURL,
            redirects: redirects,
            status: response.statusCode,
            validators: HTTPValidators(
                etag: Self.header("ETag", in: response),
                lastModified: Self.header("Last-Modified", in: response)
            ),
            maxAge: HTTPHeaderValues.maxAge(cacheControl: Self.header("Cache-Control", in: response)),
            contentType: Self.header("Content-Type", in: response),
            bodyBytes: bytes
        )
        switch response.statusCode {
        case 304:
            // A 304 without validators keeps the stored pair; with any, the new pair replaces it.
            if info.validators.isEmpty { info.validators = request.validators }
            return .success(.notModified(info))
        case 200..<300:
            guard let parser else { return fail(.transport(code: URLError.badServerResponse.rawValue)) }
            do {
                let document = try parser.finish()
                let ttl = LocalFileReader.ttl(document, sniffer)
                return .success(.fetched(FetchedDocument(response: info, document: document, ttl: ttl)))
            } catch {
                return fail(.parse(error))
            }
        case let code:
            let retryAfter =
                code == 429 || code == 503 ? HTTPHeaderValues.retryAfter(Self.header("Retry-After", in: response)) : nil
            return fail(.httpStatus(code), retryAfter: retryAfter)
        }
    }

    /// A response header by case-insensitive name.
    static func header(_ name: String, in response: HTTPURLResponse) -> String? {
        for (key, value) in response.allHeaderFields {
            guard let key = key as? String, key.caseInsensitiveCompare(name) == .orderedSame else { continue }
            return value as? String
        }
        return nil
    }
}

/// The session delegate: routes each callback to its task's `HTTPTransfer`.
///
/// `@unchecked Sendable` because `NSObject` is not Sendable; its only state is the transfer
/// table behind a `Mutex`, and the callbacks arrive on the session's serial delegate queue.
final class SessionDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let transfers = Mutex<[Int: HTTPTransfer]>([:])

    func register(_ transfer: HTTPTransfer, for task: URLSessionTask) {
        transfers.withLock { $0[task.taskIdentifier] = transfer }
    }

    private func transfer(for task: URLSessionTask) -> HTTPTransfer? {
        transfers.withLock { $0[task.taskIdentifier] }
    }

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest,
        completionHandler: @escaping (URLRequest?) -> Void
    ) {
        completionHandler(transfer(for: task)?.redirect(response, to: request))
    }

    func urlSession(
        _ session: URLSession,
        dataTask: URLSessionDataTask,
        didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        transfer(for: dataTask)?.receive(response)
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        guard let transfer = transfer(for: dataTask) else { return }
        if !transfer.receive(data) { dataTask.cancel() }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let transfer = transfers.withLock { $0.removeValue(forKey: task.taskIdentifier) }
        transfer?.complete(error: error)
    }
}
