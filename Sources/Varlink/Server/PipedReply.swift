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
/// The pipe is made when the reply is written for the second time: a reply that goes to one
/// connection never pays for a pipe (two system calls and an fd). Only pushes of
/// ``minimumSize`` to ``maximumSize`` bytes get one. Below a page, copying costs no more; above
/// the unprivileged pipe size limit, pipes would need privileges. When anything fails (out of
/// fds, the pipe limits of the user), the reply is written with `sendmsg` as every other one.
///
/// Sendable: the state is behind a `Mutex`. The pipe is closed when the last copy of the reply
/// goes, which is after its last write: a queued chunk holds the reply.
final class PipedReply: Sendable {
    /// Smaller replies are copied: below a page, tee and splice cost more than the copy.
    static let minimumSize = 4096
    /// Larger replies are copied: 1 MiB is Linux's default `pipe-max-size`, the largest pipe
    /// an unprivileged process may ask for.
    static let maximumSize = 1 << 20

    private enum State {
        case unwritten
        case writtenOnce
        /// The read end of the pipe holding the bytes (its write end is closed).
        case piped(Int32)
        /// No pipe could be made; the reply is copied.
        case unavailable
    }

    private let state = Mutex(State.unwritten)

    /// A piped reply for a push of `byteCount` bytes, or nil when it is too small or too large.
    static func forPush(byteCount: Int) -> PipedReply? {
        (minimumSize...maximumSize).contains(byteCount) ? PipedReply() : nil
    }

    private init() {}

    deinit {
        if case .piped(let fd) = state.withLock({ $0 }) { Socket.close(fd) }
    }

    /// The read end of the pipe holding `bytes` (the reply's own bytes), made on this reply's
    /// second write; nil for its first write, and when no pipe could be made.
    func source(holding bytes: [UInt8]) -> Int32? {
        state.withLock { state in
            switch state {
            case .piped(let fd):
                return fd
            case .unavailable:
                return nil
            case .unwritten:
                state = .writtenOnce
                return nil
            case .writtenOnce:
                if let fd = Self.makePipe(holding: bytes) {
                    state = .piped(fd)
                    return fd
                }
                state = .unavailable
                return nil
            }
        }
    }

    /// A pipe holding all of `bytes`: its read end, or nil.
    private static func makePipe(holding bytes: [UInt8]) -> Int32? {
        var fds: [Int32] = [-1, -1]
        guard csystem_pipe_nonblock(&fds) == 0 else { return nil }
        defer { Socket.close(fds[1]) }
        // Past the user's soft pipe limit a new pipe has two pages: ask for enough, and check.
        guard pipeCapacity(fds[0], holding: bytes.count) != nil, writeAll(bytes, to: fds[1]) else {
            Socket.close(fds[0])
            return nil
        }
        return fds[0]
    }

    /// Writes every byte to the empty, non-blocking pipe `fd`; false when it would not take them.
    private static func writeAll(_ bytes: [UInt8], to fd: Int32) -> Bool {
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count, let base = raw.baseAddress {
                let n = retryingEINTR { Glibc.write(fd, base + offset, raw.count - offset) }
                guard n > 0 else { return false }
                offset += n
            }
            return true
        }
    }
}

/// The capacity in bytes of the pipe `fd`, grown when it is smaller than `count`; nil when the
/// pipe cannot hold `count` bytes (the user's pipe limits). A pipe is never shrunk.
func pipeCapacity(_ fd: Int32, holding count: Int) -> Int? {
    let current = Int(csystem_pipe_capacity(fd, 0))
    if current >= count { return current }
    let grown = Int(csystem_pipe_capacity(fd, Int32(count)))
    return grown >= count ? grown : nil
}
