import CSystem
import SystemCalls

#if canImport(Glibc)
    import Glibc
#endif

/// How the epoll echo floor reads: a non-blocking socket in an epoll set, `epoll_wait` then
/// `recv`, as the Varlink server's event loop does (``VarlinkBenchmark/measureFloor(requestSize:replySize:path:calls:epoll:work:)``).
///
/// The blocking echo sleeps in `recv` and is woken there: two system calls a round trip. An
/// event loop serving many sockets cannot block in one socket's `recv`; it pays a third, the
/// `epoll_wait` that says which socket is ready, plus the epoll bookkeeping in the kernel. This
/// floor measures that structural cost with no protocol at all, so the served figure can be
/// read against both.
final class EpollReadiness {
    private let epoll: Int32
    private var event = csystem_event()

    /// - Returns: nil if the fd cannot be made non-blocking or watched.
    init?(_ fd: Int32) {
        epoll = csystem_epoll_create()
        guard epoll >= 0 else { return nil }
        let flags = fcntl(fd, F_GETFL)
        guard flags >= 0, fcntl(fd, F_SETFL, flags | O_NONBLOCK) == 0,
            csystem_epoll_ctl(epoll, csystem_epoll_ctl_add(), fd, csystem_epollin(), 0) == 0
        else {
            close(epoll)
            return nil
        }
    }

    deinit { close(epoll) }

    /// Waits for input, then reads until `buffer` is full, waiting again whenever the socket is
    /// empty. False on EOF or an error.
    func readFully(_ fd: Int32, _ buffer: inout [UInt8]) -> Bool {
        var offset = 0
        let count = buffer.count
        while offset < count {
            guard retryingEINTR({ csystem_epoll_wait(epoll, &event, 1, -1) }) >= 0 else { return false }
            while offset < count {
                let n = retryingEINTR {
                    buffer.withUnsafeMutableBytes { raw in
                        recv(fd, raw.baseAddress.map { $0 + offset }, count - offset, 0)
                    }
                }
                if n > 0 {
                    offset += n
                    continue
                }
                if n < 0, errno == EAGAIN || errno == EWOULDBLOCK { break }
                return false
            }
        }
        return true
    }
}
