// `struct timespec` (st_mtim) reaches this module through both Glibc and CCurl; see
// LocalFileReader.swift.
import CCurl
import Dispatch
import FoundationEssentials
import Glibc
public import HomeFeeds
import SystemCalls

/// A fetched image, stored as a new file in the image cache directory.
///
/// Sendable: an immutable value.
public struct DownloadedFile: Sendable, Equatable {
    /// The `.incoming-` file; the caller moves it into place or removes it.
    public var path: String
    /// SHA-256 of the bytes, lowercase hex: the name the cache stores them under.
    public var sha256: String
    public var bytes: Int

    public init(path: String, sha256: String, bytes: Int) {
        self.path = path
        self.sha256 = sha256
        self.bytes = bytes
    }
}

/// The result of an image fetch that did not fail.
public enum ImageDownload: Sendable, Equatable {
    case fetched(DownloadedFile, FetchResponseInfo)
    /// `304 Not Modified` (or an unchanged local file): the stored copy stays valid.
    case notModified(FetchResponseInfo)

    public var response: FetchResponseInfo {
        switch self {
        case .fetched(_, let response), .notModified(let response): response
        }
    }
}

extension FeedFetcher {
    /// What image fetches accept: the formats `homefeed-thumbnail` decodes.
    public static let imageAccept = "image/webp, image/png, image/jpeg, image/gif, image/x-icon;q=0.8, */*;q=0.1"
    /// What a service-page fetch accepts.
    public static let pageAccept = "text/html, application/xhtml+xml;q=0.9, */*;q=0.1"

    /// Fetches an image into a new file of `directory`, through the same loop, limits, redirect
    /// rules and conditional GET as feeds. The body is refused as soon as its first bytes show
    /// no image signature (HTML, SVG, anything else: `FetchError.Kind.notAnImage`).
    ///
    /// `file:` URLs are copied (size and modification time as validators), so a local
    /// configuration's icons work offline.
    public func fetchImage(_ request: FetchRequest, into directory: String) async throws(FetchError) -> ImageDownload {
        var request = request
        request.accept = request.accept ?? Self.imageAccept
        switch URLScheme(request.url) {
        case .file?:
            return try await LocalImageReader.read(request, into: directory)
        case .http?, .https?:
            let body = ImageFileBody(directory: directory)
            let captured = request
            return try await perform(request, body: body) { exchange -> Result<ImageDownload, FetchError> in
                let head: HTTPResponseHead
                switch Self.head(of: exchange, request: captured) {
                case .failure(let error):
                    body.discard()
                    return .failure(error)
                case .success(let value): head = value
                }
                var info = exchange.responseInfo(head: head)
                if head.status == 304 {
                    body.discard()
                    // Without validators sent there is no stored copy it could be about.
                    guard !captured.validators.isEmpty else {
                        return .failure(Self.error(.httpStatus(304), exchange, captured))
                    }
                    if info.validators.isEmpty { info.validators = captured.validators }
                    return .success(.notModified(info))
                }
                switch body.take() {
                case .file(let file): return .success(.fetched(file, info))
                case .refused(let kind):
                    body.discard()
                    return .failure(Self.error(kind, exchange, captured))
                }
            }.get()
        case nil:
            throw FetchError(url: request.url, kind: .unsupportedURL)
        }
    }

    /// Fetches a service page and reads the icons its `<head>` declares; the transfer ends at
    /// the end of the head, or after `request.limits.maxBodyBytes` bytes of a head that does
    /// not end (the icons read so far count). Only `http:` and `https:` pages are read.
    public func fetchPageIcons(_ request: FetchRequest) async throws(FetchError) -> PageIcons {
        var request = request
        request.accept = request.accept ?? Self.pageAccept
        guard URLScheme(request.url) == .http || URLScheme(request.url) == .https else {
            throw FetchError(url: request.url, kind: .unsupportedURL)
        }
        let body = PageHeadBody(maxBytes: request.limits.maxBodyBytes)
        // The page's own cap ends the transfer as satisfied; the transfer's cap sits one chunk
        // above it so it never fires first.
        request.limits.maxBodyBytes += 64 << 10
        let captured = request
        return try await perform(request, body: body) { exchange -> Result<PageIcons, FetchError> in
            switch Self.head(of: exchange, request: captured) {
            case .failure(let error): return .failure(error)
            case .success(let head):
                guard head.status != 304, let icons = body.finish() else {
                    return .failure(Self.error(.httpStatus(head.status), exchange, captured))
                }
                return .success(icons)
            }
        }.get()
    }

    /// Fetches a web app manifest and returns its icons.
    public func fetchManifestIcons(_ request: FetchRequest) async throws(FetchError) -> [PageIcons.Icon] {
        var request = request
        request.accept = request.accept ?? "application/manifest+json, application/json;q=0.9, */*;q=0.1"
        request.limits.maxBodyBytes = min(request.limits.maxBodyBytes, WebAppManifest.maxBytes)
        guard URLScheme(request.url) == .http || URLScheme(request.url) == .https else {
            throw FetchError(url: request.url, kind: .unsupportedURL)
        }
        let body = BufferBody()
        let captured = request
        return try await perform(request, body: body) { exchange -> Result<[PageIcons.Icon], FetchError> in
            switch Self.head(of: exchange, request: captured) {
            case .failure(let error): return .failure(error)
            case .success(let head):
                guard head.status != 304 else { return .failure(Self.error(.httpStatus(304), exchange, captured)) }
                do throws(FeedParseError) {
                    return .success(try WebAppManifest.icons(body.bytes, manifestURL: exchange.finalURL))
                } catch {
                    return .failure(Self.error(.parse(error), exchange, captured))
                }
            }
        }.get()
    }

    // MARK: Exchanges

    /// The final response's head when the exchange ended with a `2xx` or `304`, else its error.
    private static func head(of exchange: HTTPExchange, request: FetchRequest) -> Result<HTTPResponseHead, FetchError> {
        if let failure = exchange.failure { return .failure(error(failure, exchange, request)) }
        guard let head = exchange.head else {
            return .failure(error(.transport(code: FetchError.noResponseCode), exchange, request))
        }
        guard head.status == 304 || (200..<300).contains(head.status) else {
            let retryAfter =
                head.status == 429 || head.status == 503
                ? HTTPHeaderValues.retryAfter(head.header("Retry-After")) : nil
            var failure = error(.httpStatus(head.status), exchange, request)
            failure.retryAfter = retryAfter
            return .failure(failure)
        }
        return .success(head)
    }

    private static func error(_ kind: FetchError.Kind, _ exchange: HTTPExchange, _ request: FetchRequest) -> FetchError
    {
        FetchError(
            url: request.url,
            kind: kind,
            status: exchange.head?.status,
            redirects: exchange.redirects,
            afterTemporaryRedirect: !exchange.isPermanentChain,
            bytesReceived: exchange.bodyBytes,
            byteCap: request.limits.maxBodyBytes,
            detail: exchange.detail
        )
    }
}

/// Copies a local image into the cache directory, off the cooperative pool, with the same
/// signature check, cap and hashing as a fetched one.
enum LocalImageReader {
    static func read(_ request: FetchRequest, into directory: String) async throws(FetchError) -> ImageDownload {
        guard let url = URL(string: request.url), url.isFileURL else {
            throw FetchError(url: request.url, kind: .unsupportedURL)
        }
        let path = url.path
        let result = await withCheckedContinuation {
            (continuation: CheckedContinuation<Result<ImageDownload, FetchError>, Never>) in
            DispatchQueue.global(qos: .utility).async {
                continuation.resume(returning: readBlocking(path: path, request: request, directory: directory))
            }
        }
        return try result.get()
    }

    private static func readBlocking(path: String, request: FetchRequest, directory: String) -> Result<
        ImageDownload, FetchError
    > {
        let cap = request.limits.maxBodyBytes
        func failure(_ kind: FetchError.Kind, bytes: Int = 0) -> Result<ImageDownload, FetchError> {
            .failure(FetchError(url: request.url, kind: kind, bytesReceived: bytes, byteCap: cap))
        }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return failure(.file("cannot open: \(String(cString: strerror(errno)))")) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            return failure(.file("not a regular file"))
        }
        let nanoseconds = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        let validators = HTTPValidators(etag: "\"\(info.st_size)-\(nanoseconds)\"")
        var response = FetchResponseInfo(requestedURL: request.url, finalURL: request.url, validators: validators)
        if request.validators == validators { return .success(.notModified(response)) }
        if Int64(info.st_size) > Int64(cap) { return failure(.bodyTooLarge, bytes: Int(info.st_size)) }
        let body = ImageFileBody(directory: directory)
        if let refusal = body.open() { return failure(refusal) }
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        var total = 0
        while true {
            let count = retryingEINTR { buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) } }
            if count < 0 { return failure(.file("read failed: \(String(cString: strerror(errno)))"), bytes: total) }
            if count == 0 { break }
            total += count
            if total > cap {
                body.discard()
                return failure(.bodyTooLarge, bytes: total)
            }
            let refusal = buffer.withUnsafeBytes { body.consume(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
            if let refusal {
                body.discard()
                return failure(refusal, bytes: total)
            }
        }
        response.bodyBytes = total
        switch body.take() {
        case .file(let file): return .success(.fetched(file, response))
        case .refused(let kind): return failure(kind, bytes: total)
        }
    }
}
