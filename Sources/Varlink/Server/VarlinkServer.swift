internal import Synchronization

#if canImport(Glibc)
    internal import Glibc
#endif

/// A Varlink server on an `AF_UNIX` stream socket.
///
/// Event loop: one thread in `epoll_wait` (``EventLoop``) watches the listening socket and
/// every connection; the ``Acceptor`` admits clients, each ``Connection`` reads, runs calls and
/// writes replies with gathered `sendmsg` of the bytes the reply was encoded into. Calls run as
/// tasks (``VarlinkService/handle(_:peer:replies:)``) preferring the loop as their executor, so
/// a synchronous handler is answered inline, before the loop waits again, and a handler that
/// awaits an actor hops there and back; no thread per client, no Dispatch source, no blocking
/// call anywhere on the loop or the cooperative pool.
///
/// Two ways to get the listening socket: ``init(binding:service:configuration:privilegedPeers:logger:)``
/// binds a path itself (development, tests, standalone runs);
/// ``init(adopting:service:configuration:privilegedPeers:logger:)`` takes an fd that is already
/// listening (systemd socket activation, varlink-and-systemd.md §7).
///
/// Limits (``ConnectionAdmission``): a client refused at accept time (too many connections in
/// all, for its uid, or only the reserved slots left and `privilegedPeers` says no) is accepted
/// and closed at once, so it reads EOF (`ECONNRESET` when it had sent a call already) instead
/// of waiting in the backlog; a streaming call
/// beyond the streaming limits gets ``VarlinkServerConfiguration/streamingLimitError`` and its
/// connection is closed once the error is written.
///
/// Sendable: the start and shutdown state is behind a `Mutex`; the loop state lives on the loop
/// thread, shared tables behind `Mutex`es.
public final class VarlinkServer: Sendable {
    /// The address the server bound itself, nil for an adopted socket.
    public let boundAddress: UnixAddress?

    private let listenFD: Int32
    private let context: ServerContext
    private let loop: EventLoop
    private let lifecycle = Mutex(Lifecycle())
    /// Device and inode of the socket file we created, so that shutdown unlinks only our own.
    private let boundFileIdentity: (dev: UInt64, ino: UInt64)?

    private struct Lifecycle {
        var isStarted = false
        var isShutDown = false
        var acceptor: Acceptor?
    }

    /// Binds `address` itself: checks the length, refuses if another server answers there,
    /// removes a stale socket file, binds, sets ``VarlinkServerConfiguration/socketMode``,
    /// listens. Call ``start()`` to accept.
    ///
    /// - Throws: ``SystemError`` naming the call and the path, e.g.
    ///   `bind(/run/x.sock): EADDRINUSE (another server is listening)`.
    public init(
        binding address: UnixAddress,
        service: VarlinkService,
        configuration: VarlinkServerConfiguration = VarlinkServerConfiguration(),
        privilegedPeers: @escaping VarlinkPeerPredicate = { _ in false },
        logger: @escaping VarlinkLogger = varlinkSilentLogger
    ) throws(SystemError) {
        try address.validate()
        try Self.removeStaleSocket(at: address)
        let fd = try Socket.makeStream(nonBlocking: true, address: address)
        var identity: (dev: UInt64, ino: UInt64)?
        do throws(SystemError) {
            // Linux creates the socket file with the socket's own mode less the umask: set it
            // first, so the file never appears wider than asked for (only narrower, by the
            // umask, until the chmod below).
            if case .path = address { _ = fchmod(fd, mode_t(configuration.socketMode)) }
            if address.withSockaddr({ bind(fd, $0, $1) }) != 0 {
                throw SystemError(call: "bind", errno: errno, path: address.displayPath)
            }
            if case .path(let path) = address {
                if chmod(path, mode_t(configuration.socketMode)) != 0 {
                    let code = errno
                    unlink(path)
                    throw SystemError(call: "chmod", errno: code, path: path)
                }
                var info = stat()
                if stat(path, &info) == 0 { identity = (UInt64(info.st_dev), UInt64(info.st_ino)) }
            }
            if listen(fd, configuration.listenBacklog) != 0 {
                let code = errno
                if case .path(let path) = address { unlink(path) }
                throw SystemError(call: "listen", errno: code, path: address.displayPath)
            }
            self.loop = try EventLoop(name: "server", clock: configuration.clock)
        } catch {
            Socket.close(fd)
            if case .path(let path) = address, identity != nil { unlink(path) }
            throw error
        }
        self.boundAddress = address
        self.boundFileIdentity = identity
        self.listenFD = fd
        self.context = ServerContext(
            service: service,
            configuration: configuration,
            privilegedPeers: privilegedPeers,
            logger: logger
        )
    }

    /// Adopts a socket that is already bound and listening, e.g. fd 3 from systemd. The server
    /// owns it from now on (one owner per fd): ``shutdown()`` closes it, never unlinks or
    /// `shutdown(2)`s it, so the manager's copy keeps queueing clients for the next start.
    ///
    /// - Throws: ``SystemError`` if the fd is not an `AF_UNIX` stream socket or cannot be made
    ///   non-blocking.
    public init(
        adopting fd: Int32,
        service: VarlinkService,
        configuration: VarlinkServerConfiguration = VarlinkServerConfiguration(),
        privilegedPeers: @escaping VarlinkPeerPredicate = { _ in false },
        logger: @escaping VarlinkLogger = varlinkSilentLogger
    ) throws(SystemError) {
        var type: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        if getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &length) != 0 {
            throw SystemError(call: "getsockopt(SO_TYPE)", errno: errno, path: "fd \(fd)")
        }
        if type != Int32(SOCK_STREAM.rawValue) {
            throw SystemError(call: "adopt", errno: EPROTOTYPE, path: "fd \(fd)", reason: "not a stream socket")
        }
        try Socket.setNonBlocking(fd)
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        self.loop = try EventLoop(name: "server", clock: configuration.clock)
        self.boundAddress = nil
        self.boundFileIdentity = nil
        self.listenFD = fd
        self.context = ServerContext(
            service: service,
            configuration: configuration,
            privilegedPeers: privilegedPeers,
            logger: logger
        )
    }

    /// Starts accepting connections. Idempotent.
    public func start() {
        let acceptor = lifecycle.withLock { state -> Acceptor? in
            guard !state.isStarted, !state.isShutDown else { return nil }
            state.isStarted = true
            state.acceptor = Acceptor(fd: listenFD, context: context, loop: loop)
            return state.acceptor
        }
        guard let acceptor else { return }
        loop.start()
        loop.submit { acceptor.start() }
    }

    /// Stops accepting, closes every connection (their sinks close, so subscriptions end),
    /// closes the listening fd and removes the socket file if this server created it and it is
    /// still the same file, and stops the loop thread. Returns when every connection's fd is
    /// closed. Idempotent.
    public func shutdown() async {
        let state = lifecycle.withLock { state -> (first: Bool, acceptor: Acceptor?) in
            if state.isShutDown { return (false, nil) }
            state.isShutDown = true
            return (true, state.acceptor)
        }
        guard state.first else { return }
        if let acceptor = state.acceptor {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                loop.submit { [context, loop] in
                    acceptor.stop()
                    loop.writeWaitingPushes()
                    for connection in context.connections.withLock({ Array($0.values) }) {
                        connection.writeBeforeClose()
                        connection.close()
                    }
                    continuation.resume()
                }
            }
        } else {
            // Never started: nothing watches the fd, close it here.
            Socket.close(listenFD)
        }
        if let identity = boundFileIdentity, case .path(let path)? = boundAddress {
            var info = stat()
            if stat(path, &info) == 0, UInt64(info.st_dev) == identity.dev, UInt64(info.st_ino) == identity.ino {
                unlink(path)
            }
        }
        await loop.stop()
    }

    /// Returns once the event loop thread has run a job submitted now: how a watchdog sees that
    /// the one thread serving every connection still turns. A health check that never touches
    /// it would go on pinging while every client hangs. Returns at once after ``shutdown()``.
    public func eventLoopTurned() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            loop.submit { continuation.resume() }
        }
    }

    /// A snapshot of the counters.
    public var statistics: VarlinkServerStatistics {
        var statistics = context.statistics.withLock { $0 }
        (statistics.openConnections, statistics.openStreamingCalls) = context.admission.withLock {
            ($0.connections, $0.streamingCalls)
        }
        statistics.splicedReplies = loop.splicer.splicedReplies.load(ordering: .relaxed)
        return statistics
    }

    // MARK: - Stale sockets

    /// Makes room for binding `address`: if something listens there, refuse; if a socket file
    /// is left from a dead server (connect gives `ECONNREFUSED`), remove it. Never removes a
    /// file that is not a socket.
    private static func removeStaleSocket(at address: UnixAddress) throws(SystemError) {
        let probe = try Socket.makeStream(nonBlocking: true, address: address)
        let result = Socket.connect(probe, to: address)
        Socket.close(probe)
        switch result {
        case 0, EAGAIN:
            // EAGAIN: a live listener whose backlog is full is still a live listener.
            throw SystemError(
                call: "bind",
                errno: EADDRINUSE,
                path: address.displayPath,
                reason: "another server is listening"
            )
        case ECONNREFUSED:
            guard case .path(let path) = address else { return }
            var info = stat()
            guard lstat(path, &info) == 0 else { return }
            guard info.st_mode & S_IFMT == S_IFSOCK else {
                throw SystemError(call: "bind", errno: EADDRINUSE, path: path, reason: "exists and is not a socket")
            }
            if unlink(path) != 0, errno != ENOENT {
                throw SystemError(call: "unlink", errno: errno, path: path)
            }
        default:
            // ENOENT (nothing there) and anything else: let bind report what is wrong.
            return
        }
    }
}
