internal import CSystem
internal import SystemCalls

#if canImport(Glibc)
    internal import Glibc
#endif

/// Thin wrappers over the socket calls, in one place (style.md, after swift-nio's): each
/// retries `EINTR` (SystemCalls' `retryingEINTR`), reports "would block" as a result rather than
/// an error, and throws ``SystemError`` naming the call. They never log and never keep state.
enum Socket {
    /// `SOCK_NONBLOCK`, `SOCK_CLOEXEC` and `MSG_NOSIGNAL`, read from C so that the values come
    /// from the same headers glibc was built with.
    static let nonBlock = csystem_sock_nonblock()
    static let closeOnExec = csystem_sock_cloexec()
    static let noSignal = csystem_msg_nosignal()

    /// Result of a non-blocking transfer.
    enum Transfer: Equatable {
        /// This many bytes moved (more than 0).
        case done(Int)
        /// Nothing moved; wait until the fd is ready again.
        case wouldBlock
        /// Receive only: the peer closed its sending side.
        case endOfFile
        /// A real error; the connection is finished.
        case failed(Int32)
    }

    /// A new `AF_UNIX` stream socket, close-on-exec, optionally non-blocking.
    static func makeStream(nonBlocking: Bool, address: UnixAddress) throws(SystemError) -> Int32 {
        let type = Int32(SOCK_STREAM.rawValue) | closeOnExec | (nonBlocking ? nonBlock : 0)
        let fd = socket(AF_UNIX, type, 0)
        if fd < 0 { throw SystemError(call: "socket", errno: errno, path: address.displayPath) }
        return fd
    }

    /// `connect`, retrying `EINTR`. Returns errno, or 0 on success.
    ///
    /// On a blocking socket Linux completes a Unix connect at once or fails, except when the
    /// listener's backlog is full, where it waits for up to `SO_SNDTIMEO`.
    static func connect(_ fd: Int32, to address: UnixAddress) -> Int32 {
        let result = retryingEINTR { address.withSockaddr { Glibc.connect(fd, $0, $1) } }
        return result == 0 ? 0 : errno
    }

    /// `send` with `MSG_NOSIGNAL`, so a closed peer is `EPIPE` instead of a process-killing
    /// SIGPIPE (swift-on-linux.md §6; the application also ignores SIGPIPE).
    static func send(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Transfer {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return .done(0) }
        let n = retryingEINTR { Glibc.send(fd, base, bytes.count, noSignal) }
        if n >= 0 { return .done(n) }
        switch errno {
        case EAGAIN, EWOULDBLOCK: return .wouldBlock
        default: return .failed(errno)
        }
    }

    /// `recv` into `buffer`.
    static func receive(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Transfer {
        guard let base = buffer.baseAddress else { return .failed(EINVAL) }
        let n = retryingEINTR { recv(fd, base, buffer.count, 0) }
        if n > 0 { return .done(n) }
        if n == 0 { return .endOfFile }
        switch errno {
        case EAGAIN, EWOULDBLOCK: return .wouldBlock
        default: return .failed(errno)
        }
    }

    /// True when both directions are shut (`POLLHUP`): the peer has closed the socket, not just
    /// its sending side (`shutdown(SHUT_WR)` gives EOF on read but no `POLLHUP`).
    static func isHungUp(_ fd: Int32) -> Bool {
        var descriptor = pollfd(fd: fd, events: 0, revents: 0)
        return poll(&descriptor, 1, 0) > 0 && descriptor.revents & Int16(POLLHUP) != 0
    }

    /// Sets `O_NONBLOCK`; an adopted (socket-activated) fd arrives blocking unless the unit says
    /// `NonBlocking=yes` (swift-on-linux.md §5.1).
    static func setNonBlocking(_ fd: Int32) throws(SystemError) {
        let flags = fcntl(fd, F_GETFL)
        if flags < 0 { throw SystemError(call: "fcntl(F_GETFL)", errno: errno) }
        if flags & O_NONBLOCK == 0, fcntl(fd, F_SETFL, flags | O_NONBLOCK) < 0 {
            throw SystemError(call: "fcntl(F_SETFL)", errno: errno)
        }
    }

    /// Sets `SO_RCVTIMEO` and `SO_SNDTIMEO` (used by the blocking client; also bounds `connect`).
    static func setTimeouts(_ fd: Int32, _ timeout: Duration) {
        let (seconds, attoseconds) = timeout.components
        var value = timeval(tv_sec: Int(max(0, seconds)), tv_usec: Int(max(0, attoseconds) / 1_000_000_000_000))
        if value.tv_sec == 0, value.tv_usec == 0 { value.tv_usec = 1 }  // 0 would mean "forever"
        let size = socklen_t(MemoryLayout<timeval>.size)
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &value, size)
        _ = setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &value, size)
    }

    /// `close`, ignoring `EINTR`: retrying could close an fd another thread has just been
    /// given (swift-on-linux.md §6).
    static func close(_ fd: Int32) {
        _ = Glibc.close(fd)
    }

    /// The peer's pid, uid and gid (`SO_PEERCRED`) and supplementary groups (`SO_PEERGROUPS`),
    /// or nil if the kernel cannot say. Groups it cannot report are left empty (fail closed).
    static func peerCredentials(_ fd: Int32) -> VarlinkPeer? {
        var pid: pid_t = 0
        var uid: uid_t = 0
        var gid: gid_t = 0
        guard csystem_peercred(fd, &pid, &uid, &gid) == 0 else { return nil }
        return VarlinkPeer(pid: pid, uid: uid, gid: gid, groups: peerGroups(fd))
    }

    /// `SO_PEERGROUPS`: up to 64 groups at the first try, else as many as the kernel says
    /// (`NGROUPS_MAX` is 65 536, the bound of the retry).
    static func peerGroups(_ fd: Int32) -> [UInt32] {
        var capacity: Int32 = 64
        while true {
            var needed: Int32 = 0
            var groups = [gid_t](repeating: 0, count: Int(capacity))
            let count = csystem_peergroups(fd, &groups, capacity, &needed)
            if count >= 0 { return Array(groups.prefix(Int(count))) }
            guard errno == ERANGE, needed > capacity, needed <= 65_536 else { return [] }
            capacity = needed
        }
    }
}
