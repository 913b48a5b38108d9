internal import CSystem
internal import Dispatch
internal import Synchronization

#if canImport(Glibc)
    internal import Glibc
#endif

/// A Varlink server on an `AF_UNIX` stream socket.
///
/// Event loop (swift-on-linux.md §5.1): one Dispatch read source on the listening fd, on a
/// serial accept queue, accepts until `EAGAIN` with `accept4(SOCK_NONBLOCK | SOCK_CLOEXEC)`.
/// Each client gets a ``Connection`` with its own serial queue, a read source, a write source
/// only while output is pending, and one timer for the idle and stall timeouts. Calls run as
/// tasks (``VarlinkService/handle(_:peer:replies:)``) preferring the connection's queue; no
/// thread per client, no blocking call anywhere on the loop or the cooperative pool.
///
/// Two ways to get the listening socket: ``init(binding:service:configuration:privilegedPeers:logger:)``
/// binds a path itself (development, tests, standalone runs);
/// ``init(adopting:service:configuration:privilegedPeers:logger:)`` takes an fd that is already
/// listening (systemd socket activation, varlink-and-systemd.md §7).
///
/// Limits (``ConnectionAdmission``): a client refused at accept time (too many connections in
/// all, for its uid, or only the reserved slots left and `privilegedPeers` says no) is accepted
/// and closed at once, so it reads EOF instead of waiting in the backlog; a streaming call
/// beyond the streaming limits gets ``VarlinkServerConfiguration/streamingLimitError`` and its
/// connection is closed once the error is written.
///
/// Sendable: the accept state lives on the accept queue, shared tables behind `Mutex`es.
public final class VarlinkServer: Sendable {
    /// The address the server bound itself, nil for an adopted socket.
    public let boundAddress: UnixAddress?

    private let listenFD: Int32
    private let context: ServerContext
    private let acceptQueue = DispatchQueue(label: "varlink.accept")
    private let acceptState: Mutex<AcceptState>
    /// Device and inode of the socket file we created, so that shutdown unlinks only our own.
    private let boundFileIdentity: (dev: UInt64, ino: UInt64)?

    private struct AcceptState: ~Copyable {
        var source: (any DispatchSourceRead)?
        var isStarted = false
        var isShutDown = false
        var isSuspended = false
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
        } catch {
            Socket.close(fd)
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
        self.acceptState = Mutex(AcceptState())
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
        self.boundAddress = nil
        self.boundFileIdentity = nil
        self.listenFD = fd
        self.context = ServerContext(
            service: service,
            configuration: configuration,
            privilegedPeers: privilegedPeers,
            logger: logger
        )
        self.acceptState = Mutex(AcceptState())
    }

    /// Starts accepting connections. Idempotent.
    public func start() {
        acceptState.withLock { state in
            guard !state.isStarted, !state.isShutDown else { return }
            state.isStarted = true
            let source = DispatchSource.makeReadSource(fileDescriptor: listenFD, queue: acceptQueue)
            source.setEventHandler { [self] in acceptAll() }
            let fd = listenFD
            source.setCancelHandler { Socket.close(fd) }
            state.source = source
            source.resume()
        }
    }

    /// Stops accepting, closes every connection (their sinks close, so subscriptions end),
    /// closes the listening fd and removes the socket file if this server created it and it is
    /// still the same file. Returns when every connection's fd is closed. Idempotent.
    public func shutdown() async {
        let source: (any DispatchSourceRead)? = acceptState.withLock { state in
            if state.isShutDown { return nil }
            state.isShutDown = true
            if state.isSuspended, let source = state.source {
                source.resume()
                state.isSuspended = false
            }
            if state.source == nil {
                // Never started: nothing watches the fd, close it here.
                Socket.close(listenFD)
            }
            return state.source
        }
        source?.cancel()
        if let identity = boundFileIdentity, case .path(let path)? = boundAddress {
            var info = stat()
            if stat(path, &info) == 0, UInt64(info.st_dev) == identity.dev, UInt64(info.st_ino) == identity.ino {
                unlink(path)
            }
        }
        for connection in context.connections.withLock({ Array($0.values) }) {
            connection.closeSoon()
        }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            context.group.notify(queue: acceptQueue) { continuation.resume() }
        }
    }

    /// A snapshot of the counters.
    public var statistics: VarlinkServerStatistics {
        var statistics = context.statistics.withLock { $0 }
        (statistics.openConnections, statistics.openStreamingCalls) = context.admission.withLock {
            ($0.connections, $0.streamingCalls)
        }
        return statistics
    }

    // MARK: - Accepting

    private func acceptAll() {
        while true {
            let fd = csystem_accept4(listenFD, Socket.nonBlock | Socket.closeOnExec)
            if fd >= 0 {
                register(fd)
                continue
            }
            let code = errno
            switch code {
            case EINTR, ECONNABORTED:
                continue
            case EAGAIN, EWOULDBLOCK:
                return
            case EMFILE, ENFILE, ENOBUFS, ENOMEM:
                // Out of fds or memory: the pending client stays queued and the source would
                // fire again at once. Pause accepting briefly instead of spinning.
                context.log(.warning) { "accept: \(SystemError.name(of: code)); pausing for 100 ms" }
                pauseAccepting()
                return
            default:
                context.log(.error) { "accept: \(SystemError.name(of: code))" }
                return
            }
        }
    }

    private func pauseAccepting() {
        let paused = acceptState.withLock { state -> Bool in
            guard let source = state.source, !state.isSuspended, !state.isShutDown else { return false }
            source.suspend()
            state.isSuspended = true
            return true
        }
        guard paused else { return }
        acceptQueue.asyncAfter(deadline: .now() + .milliseconds(100)) { [self] in
            acceptState.withLock { state in
                guard state.isSuspended, let source = state.source else { return }
                state.isSuspended = false
                source.resume()
            }
        }
    }

    /// Admits a new client or closes it at once (it reads EOF, never waits on a full backlog).
    private func register(_ fd: Int32) {
        let peer = Socket.peerCredentials(fd) ?? .unknown
        context.count { $0.acceptedConnections += 1 }
        let isPrivileged = context.privilegedPeers
        let refusal = context.admission.withLock { admission in
            admission.admitConnection(uid: peer.uid) { isPrivileged(peer) }
        }
        if let refusal {
            // Counted before the close, so a client that sees EOF sees the count too.
            context.count { $0.rejectedConnections += 1 }
            Socket.close(fd)
            context.logRefusal(refusal, peer: peer)
            return
        }
        let connection = Connection(fd: fd, peer: peer, context: context)
        // Registered under the accept lock, so shutdown() either sees it or it is refused.
        let registered = acceptState.withLock { state -> Bool in
            if state.isShutDown { return false }
            context.group.enter()
            context.connections.withLock { $0[ObjectIdentifier(connection)] = connection }
            return true
        }
        guard registered else {
            Socket.close(fd)
            context.admission.withLock { $0.releaseConnection(uid: peer.uid) }
            return
        }
        context.log(.debug) { "client connected: \(peer)" }
        connection.start()
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
