#if canImport(Glibc)
    internal import Glibc
#endif

/// Splits a Varlink byte stream into messages: each is JSON text ended by one NUL byte
/// (varlink-and-systemd.md §1.1). JSON text never contains a raw NUL, so no escaping exists.
///
/// Incremental: feed bytes as they arrive with ``append(_:)`` and take complete messages with
/// ``next()``. A message longer than ``maxMessageSize`` is an error as soon as that many bytes
/// have arrived without a NUL, so a peer that never sends one cannot grow the buffer without
/// bound (sd-varlink drops such a connection too, §1.6). Buffering several complete messages is
/// not an error: that is pipelining, and the owner applies its own backpressure by reading less
/// (``bufferedByteCount``).
///
/// Not thread-safe: a value owned by one connection.
public struct VarlinkFrameSplitter: Sendable {
    /// The longest message accepted, in bytes, without its NUL.
    public let maxMessageSize: Int

    /// Received bytes live in `buffer[start..<end]`; the rest of `buffer` is room, written over
    /// with `memcpy` (the array's count is its usable size, not what it holds). A read index and
    /// plain copies, not `append(contentsOf:)` and `removeSubrange`, whose generic paths took
    /// about 140 instructions of each call on the server's loop thread (issue 17, callgrind).
    private var buffer: [UInt8] = []
    /// Bytes before `start` have been handed out by `next()`.
    private var start = 0
    /// Bytes from `end` on are room.
    private var end = 0
    /// Bytes from `start` up to `start + scanned` are known to hold no NUL.
    private var scanned = 0

    /// An emptied buffer larger than this is let go rather than kept for reuse.
    private static let retainedCapacity = 1 << 20

    public init(maxMessageSize: Int) {
        precondition(maxMessageSize > 0, "maxMessageSize must be positive")
        self.maxMessageSize = maxMessageSize
    }

    /// Bytes received and not yet returned by ``next()``.
    public var bufferedByteCount: Int { end - start }

    /// Appends received bytes.
    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        if buffer.count - end < bytes.count { makeRoom(for: bytes.count) }
        let at = end
        buffer.withUnsafeMutableBytes { room in
            room.baseAddress.map { ($0 + at).copyMemory(from: source, byteCount: bytes.count) }
        }
        end += bytes.count
    }

    /// Appends received bytes.
    public mutating func append(_ bytes: some Collection<UInt8>) {
        let copied: Bool? = bytes.withContiguousStorageIfAvailable {
            append(UnsafeRawBufferPointer($0))
            return true
        }
        if copied == nil { Array(bytes).withUnsafeBytes { append($0) } }
    }

    /// The next complete message without its NUL, or nil when none is complete yet.
    ///
    /// - Throws: ``VarlinkProtocolError/messageTooLarge(limit:)`` when the next message is (or
    ///   already has become) longer than ``maxMessageSize``. The stream cannot be resynchronised
    ///   after that; drop the connection.
    public mutating func next() throws(VarlinkProtocolError) -> [UInt8]? {
        try next { Array($0) }
    }

    /// The next complete message without its NUL, passed to `body` in place (not copied out),
    /// or nil when none is complete yet.
    ///
    /// - Throws: as ``next()``, or what `body` throws (the message is consumed then too).
    mutating func next<Result>(
        _ body: (UnsafeBufferPointer<UInt8>) throws(VarlinkProtocolError) -> Result
    ) throws(VarlinkProtocolError) -> Result? {
        let available = end - start
        guard available > scanned else {
            if scanned > maxMessageSize { throw .messageTooLarge(limit: maxMessageSize) }
            return nil
        }
        let nul: Int? = buffer.withUnsafeBufferPointer { all -> Int? in
            guard let base = all.baseAddress else { return nil }
            let from = base + start + scanned
            guard let hit = memchr(from, 0, available - scanned) else { return nil }
            return UnsafeRawPointer(hit) - UnsafeRawPointer(base)
        }
        guard let nul else {
            scanned = available
            if scanned > maxMessageSize { throw .messageTooLarge(limit: maxMessageSize) }
            return nil
        }
        let length = nul - start
        if length > maxMessageSize { throw .messageTooLarge(limit: maxMessageSize) }
        let messageStart = start
        start = nul + 1
        scanned = 0
        defer {
            if start == end {
                if buffer.count > Self.retainedCapacity { buffer = [] }
                start = 0
                end = 0
            }
        }
        return try buffer.withUnsafeBufferPointer { all throws(VarlinkProtocolError) in
            try body(UnsafeBufferPointer(rebasing: all[messageStart..<nul]))
        }
    }

    /// Makes room for `count` more bytes after `end`: moves the unconsumed bytes to the front
    /// when that frees at least half the buffer, else moves them into a buffer twice as large
    /// (or just large enough). Either way each byte is copied amortised O(1) times.
    private mutating func makeRoom(for count: Int) {
        let live = end - start
        let needed = live + count
        let from = start
        if needed <= buffer.count / 2 {
            buffer.withUnsafeMutableBytes { all in
                all.baseAddress.map { $0.copyMemory(from: $0 + from, byteCount: live) }
            }
        } else {
            let capacity = Swift.max(needed, buffer.count * 2, 256)
            let old = buffer
            buffer = [UInt8](unsafeUninitializedCapacity: capacity) { fresh, initialized in
                old.withUnsafeBufferPointer { old in
                    if let to = fresh.baseAddress, let source = old.baseAddress, live > 0 {
                        to.initialize(from: source + from, count: live)
                    }
                }
                // The room past the unconsumed bytes is never read before it is written; it is
                // zeroed once here so the array holds only initialised bytes.
                fresh.baseAddress.map { ($0 + live).initialize(repeating: 0, count: capacity - live) }
                initialized = capacity
            }
        }
        start = 0
        end = live
    }
}
