internal import CSystem
internal import SystemCalls

#if canImport(Glibc)
    internal import Glibc
#endif

/// A connection's unsent replies, written with one gathered `sendmsg` (`writev` with
/// `MSG_NOSIGNAL`) per attempt, or, for a push the loop writes to many connections, spliced
/// from the push's pipe (``PipedReply``, ``Splicer``).
///
/// Chunks are the framed replies themselves, never copied: a push queued on a thousand
/// connections is one array referenced a thousand times, and the kernel reads it from there,
/// or from the pipe's pages.
///
/// Not thread-safe: a value owned by one ``Connection`` on its loop thread.
struct OutputQueue {
    /// A framed reply, and its pipe when it is a push that can be spliced.
    private struct Chunk {
        var bytes: [UInt8]
        var piped: PipedReply?
    }

    /// Unsent chunks, oldest first; `chunks[start]` is sent up to `offset`.
    private var chunks: [Chunk] = []
    private var start = 0
    private var offset = 0
    /// Unsent bytes in all.
    private(set) var byteCount = 0

    /// At most this many chunks go into one `sendmsg` (the kernel's `UIO_MAXIOV` is 1024).
    static let maxVectors = 16

    var isEmpty: Bool { byteCount == 0 }

    /// - Returns: the unsent bytes now (``byteCount``), so a caller that checks a limit after
    ///   appending need not read the queue again.
    @discardableResult
    mutating func append(_ bytes: [UInt8]) -> Int {
        append(Chunk(bytes: bytes, piped: nil))
    }

    /// Queues a framed reply, with its pipe when it has one.
    @discardableResult
    mutating func append(_ reply: VarlinkEncodedReply) -> Int {
        append(Chunk(bytes: reply.framedBytes, piped: reply.piped))
    }

    /// Queues the rest of framed bytes whose first `sent` were written straight to the socket
    /// (``ConnectionState/finishRepeated(context:fd:now:splicer:)``,
    /// ``ConnectionState/finishPush(_:after:now:)``). Only on an empty queue:
    /// nothing may go before those bytes.
    mutating func append(_ bytes: [UInt8], sent: Int) {
        precondition(isEmpty && sent < bytes.count, "a partly sent reply goes first, unfinished")
        append(bytes)
        consume(sent)
    }

    private mutating func append(_ chunk: Chunk) -> Int {
        guard !chunk.bytes.isEmpty else { return byteCount }
        chunks.append(chunk)
        byteCount += chunk.bytes.count
        return byteCount
    }

    mutating func removeAll() {
        chunks = []
        start = 0
        offset = 0
        byteCount = 0
    }

    enum WriteResult: Equatable {
        /// Everything was written.
        case done
        /// The socket is full; wait for `EPOLLOUT`. `progressed` says whether anything was
        /// written first.
        case wouldBlock(progressed: Bool)
        /// `sendmsg` failed with this errno; the connection is finished.
        case failed(Int32)
    }

    /// Writes as much as the socket takes.
    ///
    /// - Parameter splicer: the loop's, to splice a piped push that is next and unsent; nil
    ///   copies everything.
    mutating func write(to fd: Int32, splicer: Splicer?) -> WriteResult {
        var progressed = false
        while !isEmpty {
            if offset == 0, let splicer, let piped = chunks[start].piped {
                let bytes = chunks[start].bytes
                switch splicer.send(bytes.count, from: piped.source(holding: bytes, for: fd), to: fd) {
                case .sent(let count):
                    progressed = true
                    consume(count)
                    continue
                case .wouldBlock:
                    return .wouldBlock(progressed: progressed)
                case .failed(let code):
                    return .failed(code)
                case .unavailable:
                    break
                }
            }
            let sent = retryingEINTR { withVectors { vectors, count in csystem_sendv(fd, vectors, count) } }
            if sent > 0 {
                progressed = true
                consume(sent)
                continue
            }
            // Nothing sent of a non-empty queue without an error: treat the peer as gone.
            if sent == 0 { return .failed(EPIPE) }
            switch errno {
            case EAGAIN, EWOULDBLOCK: return .wouldBlock(progressed: progressed)
            default: return .failed(errno)
            }
        }
        return .done
    }

    /// Writes one framed reply straight to `fd`, queuing nothing: spliced from its pipe when it
    /// has one and `splicer` can, else with one `send`.
    static func send(_ reply: VarlinkEncodedReply, to fd: Int32, splicer: Splicer?) -> Socket.Transfer {
        if let splicer, let piped = reply.piped {
            let count = reply.framedBytes.count
            let outcome = splicer.send(count, from: piped.source(holding: reply.framedBytes, for: fd), to: fd)
            if let sent = outcome.transfer { return sent }
        }
        return reply.framedBytes.withUnsafeBytes { Socket.send(fd, $0) }
    }

    /// Calls `body` with iovecs for up to ``maxVectors`` unsent chunks, each pinned for the call.
    private func withVectors(_ body: (UnsafePointer<iovec>, Int32) -> Int) -> Int {
        withUnsafeTemporaryAllocation(of: iovec.self, capacity: Self.maxVectors) { vectors in
            guard let base = vectors.baseAddress else { return 0 }
            let end = min(chunks.count, start + Self.maxVectors)
            return pin(from: start, to: end, skipping: offset, into: base) { body(base, Int32(end - start)) }
        }
    }

    /// Fills `vectors[index - start]` from `chunks[index]` inside its `withUnsafeBytes`, then
    /// recurses, so every pointer is valid while `body` runs (at most ``maxVectors`` deep).
    private func pin(
        from index: Int,
        to end: Int,
        skipping skip: Int,
        into vectors: UnsafeMutablePointer<iovec>,
        _ body: () -> Int
    ) -> Int {
        guard index < end else { return body() }
        return chunks[index].bytes.withUnsafeBytes { raw in
            let base = raw.baseAddress.map { UnsafeMutableRawPointer(mutating: $0) + skip }
            vectors[index - start] = iovec(iov_base: base, iov_len: raw.count - skip)
            return pin(from: index + 1, to: end, skipping: 0, into: vectors, body)
        }
    }

    /// Marks `count` bytes as sent, dropping finished chunks.
    private mutating func consume(_ count: Int) {
        offset += count
        byteCount -= count
        while start < chunks.count, offset >= chunks[start].bytes.count {
            offset -= chunks[start].bytes.count
            start += 1
        }
        if start == chunks.count {
            if chunks.capacity > 64 {
                chunks = []
            } else {
                // Usually one chunk: popping keeps the capacity without the generic
                // `removeAll(keepingCapacity:)` (160 instructions a call, callgrind).
                while chunks.popLast() != nil {}
            }
            start = 0
        } else if start >= 64, start * 2 >= chunks.count {
            chunks.removeSubrange(0..<start)
            start = 0
        }
    }
}
