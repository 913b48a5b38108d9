// `struct timespec` (st_mtim) reaches this module through both Glibc and CCurl's <sys/time.h>;
// Clang merges the two definitions and Swift may credit either module with its members, so
// MemberImportVisibility needs both imported.
import CCurl
import Dispatch
import FoundationEssentials
import Glibc
import HomeFeeds
import SystemCalls

/// Reads `file:` sources (libcurl could, but a local file needs no transfer machinery, and its
/// size and modification time make a better validator than anything HTTP sends).
///
/// The read runs on a global dispatch queue, never on the cooperative pool (`swift-on-linux.md`
/// §5.3), in chunks
/// of the parser's chunk size, each fed to HomeFeeds as it is read, with the body cap checked
/// before every chunk. The file's size and modification time (nanoseconds) form its `ETag`,
/// so an unchanged file is `notModified` without being read.
enum LocalFileReader {
    static func read(_ request: FetchRequest) async throws(FetchError) -> FetchOutcome {
        guard let url = URL(string: request.url), url.isFileURL else {
            throw FetchError(url: request.url, kind: .unsupportedURL)
        }
        let path = url.path
        let result = await withCheckedContinuation {
            (continuation: CheckedContinuation<Result<FetchOutcome, FetchError>, Never>) in
            DispatchQueue.global(qos: .utility).async {
                continuation.resume(returning: readBlocking(path: path, request: request))
            }
        }
        return try result.get()
    }

    private static func readBlocking(path: String, request: FetchRequest) -> Result<FetchOutcome, FetchError> {
        let cap = request.limits.maxBodyBytes
        func failure(_ kind: FetchError.Kind, bytes: Int = 0) -> Result<FetchOutcome, FetchError> {
            .failure(FetchError(url: request.url, kind: kind, bytesReceived: bytes, byteCap: cap))
        }
        var info = stat()
        guard stat(path, &info) == 0 else {
            return failure(.file("cannot read: \(String(cString: strerror(errno)))"))
        }
        guard info.st_mode & S_IFMT == S_IFREG else { return failure(.file("not a regular file")) }
        let nanoseconds = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        let validators = HTTPValidators(etag: "\"\(info.st_size)-\(nanoseconds)\"")
        var response = FetchResponseInfo(requestedURL: request.url, finalURL: request.url, validators: validators)
        if request.validators == validators { return .success(.notModified(response)) }
        if Int64(info.st_size) > Int64(cap) { return failure(.bodyTooLarge, bytes: Int(info.st_size)) }

        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return failure(.file("cannot open: \(String(cString: strerror(errno)))")) }
        defer { close(fd) }
        let parser = FeedDocumentParser(url: request.url, limits: request.limits.effectiveParseLimits)
        var sniffer = ChannelTTLSniffer()
        let chunkSize = request.limits.effectiveParseLimits.chunkSize
        var buffer = [UInt8](repeating: 0, count: chunkSize)
        var total = 0
        while true {
            let count = retryingEINTR {
                buffer.withUnsafeMutableBytes { raw in Glibc.read(fd, raw.baseAddress, raw.count) }
            }
            if count < 0 {
                return failure(.file("read failed: \(String(cString: strerror(errno)))"), bytes: total)
            }
            if count == 0 { break }
            total += count
            // The file may have grown since stat: the cap holds for what is actually read.
            if total > cap { return failure(.bodyTooLarge, bytes: total) }
            var parseError: FeedParseError?
            buffer.withUnsafeBytes { raw in
                let chunk = UnsafeRawBufferPointer(rebasing: raw[0..<count])
                sniffer.append(chunk)
                do throws(FeedParseError) { try parser.append(chunk) } catch { parseError = error }
            }
            if let parseError { return failure(.parse(parseError), bytes: total) }
        }
        response.bodyBytes = total
        do {
            let document = try parser.finish()
            return .success(
                .fetched(FetchedDocument(response: response, document: document, ttl: ttl(document, sniffer)))
            )
        } catch {
            return failure(.parse(error), bytes: total)
        }
    }

    /// The sniffed `<ttl>`, for RSS documents only.
    static func ttl(_ document: FeedDocument, _ sniffer: ChannelTTLSniffer) -> Double? {
        guard case .feed(let feed) = document else { return nil }
        switch feed.format {
        case .rss20, .rss091, .rss092, .rss10: return sniffer.ttlSeconds
        case .atom10, .jsonFeed11: return nil
        }
    }
}
