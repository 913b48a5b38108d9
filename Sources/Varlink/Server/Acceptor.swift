internal import CSystem
internal import LogCore
internal import Synchronization
internal import SystemCalls

#if canImport(Glibc)
    internal import Glibc
#endif

/// The listening socket on the server's ``EventLoop``: accepts clients, asks
/// ``ConnectionAdmission`` about each, and starts a ``Connection`` for those it admits.
///
/// Accepts until `EAGAIN` with `accept4(SOCK_NONBLOCK | SOCK_CLOEXEC)`, retrying `EINTR` and
/// `ECONNABORTED`; out of fds or memory it stops watching the socket for 100 ms instead of
/// spinning on a client it cannot take. A client the limits refuse is accepted and closed at
/// once, so it reads EOF (or, when its first call was already sent and is left unread,
/// `ECONNRESET`) instead of waiting in the backlog.
///
/// Concurrency: `@unchecked Sendable` so the server can hand it to its loop; every mutable
/// field is touched only on the loop thread (``start()``, ``stop()`` and the events run there).
final class Acceptor: EventLoopHandler, @unchecked Sendable {
    private let fd: Int32
    private let context: ServerContext
    private let loop: EventLoop
    private var token: UInt64 = 0
    private var isWatching = false
    private var isStopped = false

    static let pauseAfterExhaustion: UInt64 = 100_000_000

    init(fd: Int32, context: ServerContext, loop: EventLoop) {
        self.fd = fd
        self.context = context
        self.loop = loop
    }

    /// Starts watching the listening socket.
    func start() {
        token = loop.register(self)
        watch(true)
    }

    /// Stops accepting and closes the listening socket (the server owns it, adopted or not).
    func stop() {
        guard !isStopped else { return }
        isStopped = true
        watch(false)
        loop.unregister(token)
        Socket.close(fd)
    }

    private func watch(_ on: Bool) {
        guard on != isWatching, !isStopped || !on else { return }
        let code = loop.setInterest(
            fd,
            token: token,
            from: isWatching ? EventLoop.readable : 0,
            to: on ? EventLoop.readable : 0
        )
        if code != 0 {
            context.log(.error) { "listening socket: epoll_ctl: \(SystemError.name(of: code))" }
            return
        }
        isWatching = on
    }

    func handleEvents(_ events: UInt32) {
        while !isStopped {
            let client = retryingEINTR { csystem_accept4(fd, Socket.nonBlock | Socket.closeOnExec) }
            if client >= 0 {
                admit(client)
                continue
            }
            let code = errno
            switch code {
            case ECONNABORTED:
                continue
            case EAGAIN, EWOULDBLOCK:
                return
            case EMFILE, ENFILE, ENOBUFS, ENOMEM:
                // The pending client stays queued and the socket stays readable: stop watching
                // it briefly instead of spinning.
                context.log(.warning) { "accept: \(SystemError.name(of: code)); pausing for 100 ms" }
                watch(false)
                loop.schedule(at: loop.now() &+ Self.pauseAfterExhaustion) { [weak self] in self?.watch(true) }
                return
            default:
                context.log(.error) { "accept: \(SystemError.name(of: code))" }
                return
            }
        }
    }

    /// Admits a new client or closes it at once (it reads EOF or `ECONNRESET`, never waits on
    /// a full backlog).
    private func admit(_ client: Int32) {
        let peer = Socket.peerCredentials(client) ?? .unknown
        context.count { $0.acceptedConnections += 1 }
        let isPrivileged = context.privilegedPeers
        let refusal = context.admission.withLock { admission in
            admission.admitConnection(uid: peer.uid) { isPrivileged(peer) }
        }
        if let refusal {
            // Counted before the close, so a client that sees EOF sees the count too.
            context.count { $0.rejectedConnections += 1 }
            Socket.close(client)
            context.logRefusal(refusal, peer: peer)
            return
        }
        let connection = Connection(fd: client, peer: peer, context: context, loop: loop)
        context.connections.withLock { $0[ObjectIdentifier(connection)] = connection }
        context.log(.debug) { "client connected: \(peer)" }
        connection.start()
    }
}
