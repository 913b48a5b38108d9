import HomeFeeds

/// The body consumer of a service page fetched for its icons: the bytes go to HomeFeeds'
/// `HTMLHeadParser`, and the transfer ends as soon as the parser has seen the end of the
/// `<head>` (`isSatisfied`), so the page itself is never downloaded. A head that has not
/// ended within `maxBytes` ends the transfer too: what it declared so far is used, marked
/// incomplete (`PageIcons.isHeadComplete`).
///
/// Confined to the fetch loop's thread (`HTTPBodyConsumer`).
final class PageHeadBody: HTTPBodyConsumer {
    private var parser: HTMLHeadParser?
    private let maxBytes: Int
    private var byteCount = 0

    init(maxBytes: Int) {
        self.maxBytes = maxBytes
    }

    func begin(_ head: HTTPResponseHead, url: String) -> FetchError.Kind? {
        parser = HTMLHeadParser(url: url)
        return nil
    }

    func consume(_ bytes: UnsafeRawBufferPointer) -> FetchError.Kind? {
        let room = max(0, maxBytes - byteCount)
        byteCount += bytes.count
        parser?.append(UnsafeRawBufferPointer(rebasing: bytes.prefix(room)))
        return nil
    }

    var isSatisfied: Bool { byteCount >= maxBytes || (parser?.isFinished ?? false) }

    /// What the head declared; nil when no `2xx` body came.
    func finish() -> PageIcons? {
        defer { parser = nil }
        return parser?.finish()
    }
}

/// The body consumer of a small document read whole (a web app manifest): the bytes are kept,
/// up to the request's body cap, which the transfer enforces.
///
/// Confined to the fetch loop's thread (`HTTPBodyConsumer`).
final class BufferBody: HTTPBodyConsumer {
    private(set) var bytes: [UInt8] = []

    func begin(_ head: HTTPResponseHead, url: String) -> FetchError.Kind? { nil }

    func consume(_ chunk: UnsafeRawBufferPointer) -> FetchError.Kind? {
        bytes.append(contentsOf: chunk)
        return nil
    }
}
