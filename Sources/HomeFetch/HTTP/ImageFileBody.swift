import Glibc
import HomeFeeds
import SystemCalls

/// The body consumer of an image fetch: the bytes go straight to a new file in the image cache
/// directory as they arrive, hashed on the way (SHA-256, the file's future name), after the
/// first bytes have shown an image signature. Nothing is held in memory but the chunk at hand.
///
/// The file is created `0600` with a `.incoming-` name and removed again unless the fetch
/// completes and the caller takes it (`take()`); the cache moves it into place.
///
/// Confined to the fetch loop's thread (`HTTPBodyConsumer`), or to the one thread that reads
/// a local file.
final class ImageFileBody: HTTPBodyConsumer {
    private let directory: String
    private var fd: Int32 = -1
    private var path: String?
    private var hasher = SHA256()
    private var prefix: [UInt8] = []
    private var isChecked = false
    private var isTaken = false
    private(set) var byteCount = 0
    private(set) var contentType: String?

    init(directory: String) {
        self.directory = directory
    }

    deinit {
        discard()
    }

    /// Closes and removes the file unless it was taken; called as soon as a fetch fails, so no
    /// `.incoming-` file outlives the failure (the consumer itself may live on a little while
    /// the loop lets go of the transfer).
    func discard() {
        if fd >= 0 { close(fd) }
        fd = -1
        if !isTaken, let path { unlink(path) }
        path = nil
    }

    func begin(_ head: HTTPResponseHead, url: String) -> FetchError.Kind? {
        contentType = head.header("Content-Type")
        return open()
    }

    /// Creates the `.incoming-` file (also for local files, which have no HTTP head).
    func open() -> FetchError.Kind? {
        guard fd < 0 else { return nil }
        for _ in 0..<4 {
            let candidate = "\(directory)/.incoming-\(String(UInt64.random(in: 0...UInt64.max), radix: 16))"
            let opened = Glibc.open(candidate, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            if opened >= 0 {
                fd = opened
                path = candidate
                return nil
            }
            if errno != EEXIST {
                return .file("cannot create a file in \(directory): \(String(cString: strerror(errno)))")
            }
        }
        return .file("cannot create a file in \(directory)")
    }

    func consume(_ bytes: UnsafeRawBufferPointer) -> FetchError.Kind? {
        if !isChecked {
            prefix.append(contentsOf: bytes.prefix(ImageSignature.length - prefix.count))
            if prefix.count >= ImageSignature.length {
                isChecked = true
                if let refusal = ImageSignature.refusal(prefix, contentType: contentType) {
                    return .notAnImage(refusal)
                }
            }
        }
        hasher.update(bytes)
        byteCount += bytes.count
        var offset = 0
        while offset < bytes.count {
            guard let base = bytes.baseAddress else { break }
            let written = retryingEINTR { write(fd, base + offset, bytes.count - offset) }
            guard written > 0 else { return .file("cannot write the image: \(String(cString: strerror(errno)))") }
            offset += written
        }
        return nil
    }

    /// The complete file: closed, its digest and size; the caller now owns (and must move or
    /// remove) it.
    func take() -> Taken {
        if !isChecked, let refusal = ImageSignature.refusal(prefix, contentType: contentType) {
            return .refused(.notAnImage(refusal))
        }
        guard let path, fd >= 0 else { return .refused(.notAnImage("not an image: the body is empty")) }
        let status = fsync(fd)
        close(fd)
        fd = -1
        guard status == 0 else { return .refused(.file("cannot write the image: \(String(cString: strerror(errno)))")) }
        isTaken = true
        return .file(DownloadedFile(path: path, sha256: hasher.finalizeHex(), bytes: byteCount))
    }

    enum Taken {
        case file(DownloadedFile)
        case refused(FetchError.Kind)
    }
}

/// A first look at an image body, to refuse what is plainly no image before it is stored:
/// HTML (an error page, a polyglot served as `image/png`), SVG (never rendered), and bodies
/// without the signature of PNG, JPEG, GIF, WebP or ICO. `homefeed-thumbnail` checks again,
/// and more closely, before decoding.
enum ImageSignature {
    static let length = 12

    static func refusal(_ prefix: [UInt8], contentType: String?) -> String? {
        func starts(_ signature: [UInt8], at offset: Int = 0) -> Bool {
            prefix.count >= offset + signature.count && Array(prefix[offset..<(offset + signature.count)]) == signature
        }
        if starts([0x89, 0x50, 0x4E, 0x47]) || starts([0xFF, 0xD8, 0xFF]) || starts(Array("GIF8".utf8))
            || (starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8)) || starts([0, 0, 1, 0])
        {
            return nil
        }
        let served = contentType.map { " (served as \($0.split(separator: ";").first.map(String.init) ?? $0))" } ?? ""
        guard !prefix.isEmpty else { return "not an image: the body is empty" }
        let text = String(
            decoding: prefix.drop { [0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) },
            as: UTF8.self
        )
        .lowercased()
        if text.hasPrefix("<svg") || contentType?.lowercased().contains("svg") == true {
            return "SVG is not rendered" + served
        }
        if text.hasPrefix("<") { return "not an image: the body is HTML or XML" + served }
        return "not an image of a supported format (PNG, JPEG, GIF, WebP, ICO)" + served
    }
}
