internal import CSystem
import Synchronization
internal import SystemCalls

#if canImport(Glibc)
    internal import Glibc
#endif

/// Writes a ``PipedReply`` into a socket by reference: `tee` duplicates the reply's pipe into a
/// scratch pipe, and `splice` moves the scratch pipe's pages into the socket. The bytes are
/// never copied (issue 17).
///
/// One per ``EventLoop``, used on its thread only: that thread blocks SIGPIPE (``adopt()``),
/// because splice has no `MSG_NOSIGNAL`. On any other thread, ``send(_:from:to:)`` and
/// ``fanOut(_:from:to:)`` answer ``Outcome/unavailable`` and the caller copies as usual.
///
/// The scratch pipe is empty between sends. Whatever a socket did not take is spliced out of it
/// into `/dev/null` at once (read out, where that fails), and a scratch pipe that cannot be
/// emptied is closed and replaced. Bytes for one connection can never reach another.
///
/// Not thread-safe: the loop thread's, but for ``splicedReplies``.
final class Splicer {
    enum Outcome: Equatable {
        /// This many bytes went into the socket: all of them, or the part the socket took.
        case sent(Int)
        /// The socket is full; nothing went.
        case wouldBlock
        /// The socket failed with this errno; the connection is finished.
        case failed(Int32)
        /// Splicing is not possible here: copy the bytes instead.
        case unavailable

        /// What the socket took, as a copying send would say; nil for ``unavailable``.
        var transfer: Socket.Transfer? {
            switch self {
            case .sent(let count): .done(count)
            case .wouldBlock: .wouldBlock
            case .failed(let code): .failed(code)
            case .unavailable: nil
            }
        }
    }

    /// Replies written whole by splicing (``VarlinkServerStatistics/splicedReplies``); read
    /// from any thread.
    let splicedReplies = Atomic<Int>(0)

    // Release builds do not check the next fields' exclusive access at run time
    // (`@exclusivity(unchecked)`, SE-0176; a check a field and delivery, issue 17): only the
    // loop thread touches them (or, once the loop has stopped, its serial fallback queue,
    // ordered after it by the inbox lock), in accesses that call nothing back. Debug builds
    // still check.

    /// The scratch pipe: read end, write end and capacity in bytes (nil until first asked).
    #if !DEBUG
        @exclusivity(unchecked)
    #endif
    private var scratch: (read: Int32, write: Int32, capacity: Int)?
    /// The kernel refused `tee` or `splice` for these fds: stop trying.
    #if !DEBUG
        @exclusivity(unchecked)
    #endif
    private var isDisabled = false
    /// The thread that blocked SIGPIPE and may splice.
    #if !DEBUG
        @exclusivity(unchecked)
    #endif
    private var owner: pthread_t?
    /// `/dev/null`, opened for writing on the first discard: where the pages a socket did not
    /// take go without being copied. Nil until then, and while it cannot be opened.
    #if !DEBUG
        @exclusivity(unchecked)
    #endif
    private var devNull: Int32?
    /// Bytes moved into sockets by `splice`, whole replies and parts (tests read it).
    #if !DEBUG
        @exclusivity(unchecked)
    #endif
    private(set) var splicedBytes = 0
    /// Where the bytes a socket did not take are read to when they cannot go to `/dev/null`
    /// (the loop's receive buffer).
    private let discardBuffer: UnsafeMutableRawBufferPointer

    init(discardBuffer: UnsafeMutableRawBufferPointer) {
        self.discardBuffer = discardBuffer
    }

    deinit {
        closeScratch()
        if let devNull { Socket.close(devNull) }
    }

    /// Makes the calling thread the one that splices, blocking SIGPIPE on it. The loop thread
    /// calls this first thing.
    func adopt() {
        owner = csystem_block_sigpipe() == 0 ? pthread_self() : nil
    }

    /// The loop thread is ending: no thread splices from now on (a later thread may be given
    /// the same `pthread_t`, without SIGPIPE blocked).
    func disown() {
        owner = nil
    }

    /// Whether ``send(_:from:to:)`` may splice `count` bytes now: on the adopting thread, unless
    /// the kernel refused, with a scratch pipe that holds them.
    func isReady(for count: Int) -> Bool {
        guard !isDisabled, let owner, pthread_equal(owner, pthread_self()) != 0 else { return false }
        return scratchPipe(holding: count) != nil
    }

    /// Writes the `count` bytes held by the pipe `source` into the socket `fd`.
    ///
    /// - Parameter source: asked for only once splicing is ready (``isReady(for:)``), so a
    ///   push's pipe is never made, and charged to its budget, for nothing; nil is
    ///   ``Outcome/unavailable``.
    func send(_ count: Int, from source: @autoclosure () -> PipedReply.Source?, to fd: Int32) -> Outcome {
        guard isReady(for: count), let pipe = scratch, let source = source() else { return .unavailable }
        let teed = retryingEINTR { csystem_tee(source.fd, pipe.write, UInt(count)) }
        guard teed == count else {
            if teed > 0 { discard(teed) }
            isDisabled = true
            return .unavailable
        }
        let moved = retryingEINTR { csystem_splice(pipe.read, fd, UInt(count)) }
        if moved > 0 { splicedBytes += moved }
        if moved == count {
            splicedReplies.add(1, ordering: .relaxed)
            return .sent(count)
        }
        let code = errno
        discard(count - max(moved, 0))
        return outcome(moved: moved, error: code)
    }

    /// How a fan-out went: `written` sockets, from the first, took the reply whole; `stop` is
    /// how the next one went, nil when every socket did.
    struct FanOut: Equatable {
        var written: Int
        var stop: Outcome?
    }

    /// Writes the `count` bytes held by `source` into each socket of `fds`, in order, stopping
    /// at the first that does not take them whole: what ``send(_:from:to:)`` does for each, with
    /// one `tee` per group of `source.copies` sockets instead of one per socket, and the calls
    /// back to back in C (`csystem_splice_fanout`). The stopping socket's outcome is as
    /// ``send(_:from:to:)`` would answer; ``Outcome/unavailable`` means the caller copies it and
    /// the rest.
    func fanOut(_ count: Int, from source: PipedReply.Source, to fds: UnsafeBufferPointer<Int32>) -> FanOut {
        guard let first = fds.baseAddress else { return FanOut(written: 0, stop: nil) }
        guard count > 0 else { return FanOut(written: 0, stop: .unavailable) }
        // The scratch pipe holds a group of copies, or else one.
        let copies = source.copies > 1 && isReady(for: source.copies * count) ? source.copies : 1
        guard copies > 1 || isReady(for: count), let pipe = scratch else {
            return FanOut(written: 0, stop: .unavailable)
        }
        var result = csystem_fanout()
        csystem_splice_fanout(source.fd, pipe.read, pipe.write, UInt(count), copies, first, fds.count, &result)
        let written = result.written
        splicedReplies.add(written, ordering: .relaxed)
        splicedBytes += written * count + max(result.moved, 0)
        if result.leftover > 0 { discard(Int(result.leftover)) }
        if written == fds.count { return FanOut(written: written, stop: nil) }
        guard result.tee_failed == 0 else {
            isDisabled = true
            return FanOut(written: written, stop: .unavailable)
        }
        return FanOut(written: written, stop: outcome(moved: result.moved, error: result.error))
    }

    /// The outcome of a splice of a reply that moved `moved` bytes, fewer than all (-1: failed
    /// with `code`).
    private func outcome(moved: Int, error code: Int32) -> Outcome {
        if moved > 0 { return .sent(moved) }
        // Nothing moved of a non-empty reply without an error: the peer is gone, as with sendmsg.
        if moved == 0 { return .failed(EPIPE) }
        switch code {
        case EAGAIN, EWOULDBLOCK:
            return .wouldBlock
        case EINVAL, ENOSYS, EOPNOTSUPP, EPERM:
            // No splice into this kind of socket, or a system call filter forbids it.
            isDisabled = true
            return .unavailable
        default:
            return .failed(code)
        }
    }

    /// The empty scratch pipe, able to take `count` bytes; nil when splicing is off or no pipe
    /// that size can be had.
    private func scratchPipe(holding count: Int) -> (read: Int32, write: Int32)? {
        if scratch == nil {
            var fds: [Int32] = [-1, -1]
            guard csystem_pipe_nonblock(&fds) == 0 else { return nil }
            scratch = (fds[0], fds[1], 0)
        }
        guard var pipe = scratch else { return nil }
        if pipe.capacity < count {
            guard let capacity = pipeCapacity(pipe.write, holding: count) else { return nil }
            pipe.capacity = capacity
            scratch = pipe
        }
        return (pipe.read, pipe.write)
    }

    /// Takes `count` bytes out of the scratch pipe, so the next send starts empty: spliced into
    /// `/dev/null`, else read out; a pipe that will not give them up is closed (the next send
    /// makes a new one).
    private func discard(_ count: Int) {
        guard let pipe = scratch, let base = discardBuffer.baseAddress else { return }
        var left = count
        if let sink = openDevNull() {
            while left > 0 {
                let n = retryingEINTR { csystem_splice(pipe.read, sink, UInt(left)) }
                guard n > 0 else { break }
                left -= n
            }
        }
        while left > 0 {
            let n = retryingEINTR { Glibc.read(pipe.read, base, min(left, discardBuffer.count)) }
            guard n > 0 else {
                closeScratch()
                return
            }
            left -= n
        }
    }

    /// `/dev/null` for writing, opened once it can be (a failure, say out of fds, is retried at
    /// the next discard).
    private func openDevNull() -> Int32? {
        if let devNull { return devNull }
        let fd = Glibc.open("/dev/null", O_WRONLY | O_CLOEXEC)
        if fd >= 0 { devNull = fd }
        return devNull
    }

    private func closeScratch() {
        guard let pipe = scratch else { return }
        Socket.close(pipe.read)
        Socket.close(pipe.write)
        scratch = nil
    }
}

/// The capacity in bytes of the pipe `fd`, grown when it is smaller than `count`; nil when the
/// pipe cannot hold `count` bytes (the user's pipe limits). A pipe is never shrunk here (the
/// splicer's scratch pipe keeps its largest size).
func pipeCapacity(_ fd: Int32, holding count: Int) -> Int? {
    let current = Int(csystem_pipe_capacity(fd, 0))
    if current >= count { return current }
    let grown = Int(csystem_pipe_capacity(fd, Int32(count)))
    return grown >= count ? grown : nil
}
