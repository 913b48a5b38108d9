#if canImport(Glibc)
    internal import Glibc
#endif

/// A connection's last call answered inline with a repeatable reply
/// (``VarlinkOutcome/repeatable(_:while:)``): the call's exact bytes, the reply and how long it
/// holds. A later call of the same bytes is answered with the same reply while it holds, before
/// it is decoded: no envelope, route, parameters, handler or sink.
///
/// Why: a client polling `GetManifest` with its `ifNoneMatch` sends the same bytes until the
/// version changes. Decoding and handling that call took the loop thread 1–3 µs between its
/// read and its write, and on this machine a reply later than about half a microsecond after
/// the read costs the waiting client about 5 µs more to wake (`docs/varlink.md`, issue 17).
/// A repeat costs a length compare, an atomic load and a `memcmp`.
///
/// Bounded: calls of at most ``maxCallLength`` bytes and replies of at most ``maxReplyLength``
/// are remembered (a poll and a "not modified" answer are far smaller), so a connection keeps
/// at most a few kilobytes; a reply found stale by the next call is let go.
///
/// Not thread-safe: part of ``ConnectionState``, on its loop thread.
struct RepeatedCall {
    /// The longest call remembered, in bytes without its NUL.
    static let maxCallLength = 1024
    /// The longest reply remembered, in framed bytes.
    static let maxReplyLength = 4096

    /// The bytes of the call being run, when short enough, until its reply says whether to keep them.
    private var pending: [UInt8] = []
    private var hasPending = false
    private var call: [UInt8] = []
    /// The remembered reply's framed bytes (empty: none). Only the bytes: a remembered reply is
    /// a final one, never piped, so the bytes are all there is to answer with.
    private(set) var replyBytes: [UInt8] = []
    private var validity: VarlinkReplyValidity?

    init() {}

    /// True when `message` repeats the remembered call's bytes and that reply still holds
    /// (``replyBytes``); a reply found stale is forgotten.
    mutating func answers(_ message: UnsafeBufferPointer<UInt8>) -> Bool {
        // Read in place, not bound: a bound copy of the validity retains its generation.
        guard let current = validity?.isCurrent else { return false }
        guard current else {
            forget()
            return false
        }
        guard message.count == call.count, let base = message.baseAddress else { return false }
        return call.withUnsafeBufferPointer { call in
            call.baseAddress.map { memcmp(base, $0, call.count) == 0 } ?? false
        }
    }

    /// Sends the remembered reply's bytes with one `send`, from where they are kept (no copy,
    /// no reference taken).
    ///
    /// - Returns: nil when all of it went out (or nothing is remembered); else what happened,
    ///   for the caller to queue the rest of ``replyBytes``.
    mutating func send(to fd: Int32) -> Socket.Transfer? {
        replyBytes.withUnsafeBytes { bytes in
            guard !bytes.isEmpty else { return nil }
            let sent = Socket.send(fd, bytes)
            return sent == .done(bytes.count) ? nil : sent
        }
    }

    /// Notes the bytes of the call about to be decoded, for ``remember(_:while:)``.
    mutating func note(_ message: UnsafeBufferPointer<UInt8>) {
        hasPending = message.count <= Self.maxCallLength
        guard hasPending else { return }
        pending.removeAll(keepingCapacity: true)
        pending.append(contentsOf: message)
    }

    /// Remembers the call last noted as answered by `reply` while `validity` holds, if both are
    /// short enough.
    mutating func remember(_ reply: VarlinkEncodedReply, while validity: VarlinkReplyValidity) {
        guard hasPending, reply.piped == nil, reply.framedBytes.count <= Self.maxReplyLength else { return }
        hasPending = false
        swap(&pending, &call)
        replyBytes = reply.framedBytes
        self.validity = validity
    }

    private mutating func forget() {
        replyBytes = []
        validity = nil
        call.removeAll(keepingCapacity: true)
    }
}
