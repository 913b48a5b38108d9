internal import CSystem
import Synchronization
internal import SystemCalls

#if canImport(Glibc)
    internal import Glibc
#endif

/// A push's framed bytes, held a second time in a kernel pipe, so that writing them to many
/// connections passes references to the pipe's pages (``Splicer``) instead of copying the
/// bytes into each socket.
///
/// Why: in a fan-out of a 6.7 kB manifest to 1 000 Unix sockets, the kernel's copy and its
/// allocation of a buffer for every send were most of the cost. `tee` and `splice` share the
/// pipe's pages instead. A C fan-out measured in the same hour took 4.4 ms instead of 6.3–8.1 ms
/// (median of 15 rounds), and 4.5–8.8 ms instead of 14.6–17.0 ms at 60 kB (issue 17).
///
/// The pipe is made when the reply is written to a second connection: a reply that goes to
/// one connection never pays for a pipe (two system calls and an fd). Only pushes of
/// ``minimumSize`` to ``maximumSize`` bytes get one. Below a page, copying costs no more; above
/// the unprivileged pipe size limit, pipes would need privileges. The pipe is sized to its
/// copies (up to 128 KiB, or to one copy where the user's limits refuse that), not left at the
/// default 64 KiB, and the pipes alive at once are capped (``PipeBudget``). When anything fails
/// (the budget, out of fds, the pipe limits of the user), the reply is written with `sendmsg`
/// as every other one.
///
/// The pipe holds the reply several times back to back (``copies(of:)``), so that one `tee`
/// serves a group of connections (``Splicer/fanOut(_:from:to:)``).
///
/// Sendable: the state is behind a `Mutex`. The pipe is closed when the last copy of the reply
/// goes, which is after its last write: a queued chunk holds the reply.
package final class PipedReply: Sendable {
    /// Smaller replies are copied: below a page, tee and splice cost more than the copy.
    static let minimumSize = 4096
    /// Larger replies are copied: 1 MiB is Linux's default `pipe-max-size`, the largest pipe
    /// an unprivileged process may ask for.
    static let maximumSize = 1 << 20
    /// The most copies of a reply a pipe holds: one `tee` per this many connections.
    static let maximumCopies = 16
    /// The bytes of the copies in one pipe: 16 copies of a 6.7 kB manifest fit, and the budget's
    /// 8 MiB is 64 such pipes, its count of pipes.
    static let copiesBytes = 128 << 10

    /// Where a piped reply's bytes are read from: the pipe's read end, holding `copies` of
    /// them back to back.
    struct Source: Equatable {
        let fd: Int32
        let copies: Int
    }

    private enum State {
        case unwritten
        /// Written (or tried) on the connection with this fd only.
        case writtenOnce(to: Int32)
        /// The read end of the pipe holding the bytes, `copies` times (its write end is
        /// closed), and the pipe's capacity, charged to the budget.
        case piped(Source, capacity: Int)
        /// No pipe could be made; the reply is copied.
        case unavailable
    }

    /// Asks for a pipe's capacity (`F_SETPIPE_SZ`): the capacity given, or -1 when refused.
    typealias PipeSizer = @Sendable (_ fd: Int32, _ bytes: Int32) -> Int32

    private let state = Mutex(State.unwritten)
    private let budget: PipeBudget
    private let sizePipe: PipeSizer

    /// A piped reply for a push of `byteCount` bytes, or nil when it is too small or too large.
    ///
    /// - Parameter sizePipe: `F_SETPIPE_SZ`; tests pass one that refuses as the user's pipe
    ///   limits would (they do not apply to root, whom the tests run as).
    static func forPush(
        byteCount: Int,
        budget: PipeBudget = .shared,
        sizePipe: @escaping PipeSizer = { csystem_pipe_capacity($0, $1) }
    ) -> PipedReply? {
        (minimumSize...maximumSize).contains(byteCount) ? PipedReply(budget: budget, sizePipe: sizePipe) : nil
    }

    private init(budget: PipeBudget, sizePipe: @escaping PipeSizer) {
        self.budget = budget
        self.sizePipe = sizePipe
    }

    deinit {
        if case .piped(let source, let capacity) = state.withLock({ $0 }) {
            Socket.close(source.fd)
            budget.release(capacity)
        }
    }

    /// How many copies of a reply of `count` bytes a pipe holds: as many as fit in
    /// ``copiesBytes``, at least one and at most ``maximumCopies``. Package-wide for the
    /// benchmark's grouped fan-out floor, which holds as many.
    package static func copies(of count: Int) -> Int {
        max(1, min(maximumCopies, copiesBytes / max(count, 1)))
    }

    /// The pipe holding `bytes` (the reply's own bytes), for writing them to the connection
    /// `fd`. The pipe is made when a second connection asks; nil before that, and when no pipe
    /// could be made.
    func source(holding bytes: [UInt8], for fd: Int32) -> Source? {
        state.withLock { state in
            switch state {
            case .piped(let source, _):
                return source
            case .unavailable:
                return nil
            case .unwritten:
                state = .writtenOnce(to: fd)
                return nil
            case .writtenOnce(let first):
                // The same connection again (its socket was full): still one reader.
                if first == fd { return nil }
                if let (source, capacity) = makePipe(holding: bytes) {
                    state = .piped(source, capacity: capacity)
                    return source
                }
                state = .unavailable
                return nil
            }
        }
    }

    /// A pipe holding ``copies(of:)`` copies of `bytes`, sized to them and charged to the
    /// budget (one copy, in a pipe sized to it, when the user's pipe limits refuse that size):
    /// its read end and capacity, or nil.
    private func makePipe(holding bytes: [UInt8]) -> (Source, Int)? {
        var fds: [Int32] = [-1, -1]
        guard csystem_pipe_nonblock(&fds) == 0 else { return nil }
        defer { Socket.close(fds[1]) }
        // F_SETPIPE_SZ rounds up to a power of two pages, and fails outright past the user's
        // pipe limits (or `pipe-max-size`): then one copy's size is asked. Past the soft limit a
        // new pipe has two pages and may not grow: ask, and check.
        let wanted = Self.copies(of: bytes.count)
        let asked = Int(sizePipe(fds[0], Int32(wanted * bytes.count)))
        let capacity = asked >= bytes.count ? asked : Int(sizePipe(fds[0], Int32(bytes.count)))
        guard capacity >= bytes.count, budget.reserve(capacity) else {
            Socket.close(fds[0])
            return nil
        }
        let copies = Self.write(min(wanted, capacity / bytes.count), of: bytes, to: fds[1])
        guard copies > 0 else {
            Socket.close(fds[0])
            budget.release(capacity)
            return nil
        }
        return (Source(fd: fds[0], copies: copies), capacity)
    }

    /// Writes `copies` of `bytes` back to back into the empty, non-blocking pipe `fd`, in one
    /// `writev`, so that they fill its pages (a `write` per copy leaves most pages part-filled,
    /// and the copies then need more of the pipe's slots than its capacity has).
    ///
    /// - Returns: the copies written whole, 0 when none were.
    private static func write(_ copies: Int, of bytes: [UInt8], to fd: Int32) -> Int {
        bytes.withUnsafeBytes { raw in
            guard let base = raw.baseAddress, copies > 0 else { return 0 }
            let vector = iovec(iov_base: UnsafeMutableRawPointer(mutating: base), iov_len: raw.count)
            let vectors = [iovec](repeating: vector, count: copies)
            let written = retryingEINTR { Glibc.writev(fd, vectors, Int32(copies)) }
            return max(written, 0) / raw.count
        }
    }
}
