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

    private var buffer: [UInt8] = []
    /// Bytes before `start` have been handed out by `next()`.
    private var start = 0
    /// Bytes from `start` up to `start + scanned` are known to hold no NUL.
    private var scanned = 0

    public init(maxMessageSize: Int) {
        precondition(maxMessageSize > 0, "maxMessageSize must be positive")
        self.maxMessageSize = maxMessageSize
    }

    /// Bytes received and not yet returned by ``next()``.
    public var bufferedByteCount: Int { buffer.count - start }

    /// Appends received bytes.
    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        compactIfWorthIt()
        buffer.append(contentsOf: bytes)
    }

    /// Appends received bytes.
    public mutating func append(_ bytes: some Collection<UInt8>) {
        compactIfWorthIt()
        buffer.append(contentsOf: bytes)
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
        let available = buffer.count - start
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
            if start == buffer.count {
                buffer.removeAll(keepingCapacity: buffer.capacity <= 1 << 20)
                start = 0
            }
        }
        return try buffer.withUnsafeBufferPointer { all throws(VarlinkProtocolError) in
            try body(UnsafeBufferPointer(rebasing: all[messageStart..<nul]))
        }
    }

    /// Drops consumed bytes once they are a good part of the buffer, so memory is reused and
    /// copying stays amortised O(1) per byte.
    private mutating func compactIfWorthIt() {
        if start > 0, start >= 4096 || start * 2 >= buffer.count {
            buffer.removeSubrange(0..<start)
            start = 0
        }
    }
}
