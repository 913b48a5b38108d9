internal import Dispatch
internal import Synchronization
internal import SystemCalls

#if canImport(Glibc)
    internal import Glibc
#endif

/// A Varlink client: one connection to a server.
///
/// Blocking methods (for a CLI on its own thread, `VarlinkClient+Blocking.swift`) and async ones
/// (for everyone else, `VarlinkClient+Async.swift`). The async methods run the same blocking code on the client's private serial Dispatch queue, never on
/// the cooperative pool (swift-on-linux.md §5.3); cancelling the task shuts the socket down, so
/// a waiting call ends promptly. A connection carries one call at a time (varlink-and-systemd.md
/// §1.1); callers that need concurrency open several clients (and a subscriber keeps one
/// dedicated to its `more` call, §3).
///
/// Sendable: the channel (fd, input buffer) is behind a `Mutex` held for the duration of each
/// operation.
public final class VarlinkClient: Sendable {
    /// The server address.
    public let address: UnixAddress
    private let fd: Int32
    let channel: Mutex<Channel>
    /// Whether `fd` is closed; guards `shutdown` against a reused fd number.
    private let fdClosed = Mutex(false)
    private let receivedBytes = Atomic(false)
    let queue = DispatchQueue(label: "varlink.client")

    struct Channel: ~Copyable {
        var input: VarlinkFrameSplitter
        /// Set after a timeout or protocol error: the stream position is unknown.
        var isBroken = false
    }

    /// Connects, blocking for at most `timeout`.
    ///
    /// - Parameter maxMessageSize: the longest reply accepted (sd-varlink: 16 MiB).
    /// - Throws: ``VarlinkClientError/system(_:)`` from `connect`; see
    ///   ``VarlinkClientError/isUnreachable``.
    public init(
        connectingTo address: UnixAddress,
        timeout: Duration = .seconds(5),
        maxMessageSize: Int = 16 << 20
    ) throws(VarlinkClientError) {
        do throws(SystemError) {
            try address.validate()
            let fd = try Socket.makeStream(nonBlocking: false, address: address)
            // SO_SNDTIMEO bounds a connect that waits for a full backlog.
            Socket.setTimeouts(fd, timeout)
            let result = Socket.connect(fd, to: address)
            if result != 0 {
                Socket.close(fd)
                let code = result == EAGAIN || result == EINPROGRESS ? ETIMEDOUT : result
                throw SystemError(call: "connect", errno: code, path: address.displayPath)
            }
            try Socket.setNonBlocking(fd)
            self.fd = fd
        } catch {
            throw .system(error)
        }
        self.address = address
        self.channel = Mutex(Channel(input: VarlinkFrameSplitter(maxMessageSize: maxMessageSize)))
    }

    /// Connects to an address string: `unix:/path`, `unix:@abstract`, `/path` or `@abstract`.
    public convenience init(
        connectingTo address: String,
        timeout: Duration = .seconds(5),
        maxMessageSize: Int = 16 << 20
    ) throws(VarlinkClientError) {
        let parsed: UnixAddress
        do throws(SystemError) {
            parsed = try UnixAddress(parsing: address)
        } catch {
            throw .system(error)
        }
        try self.init(connectingTo: parsed, timeout: timeout, maxMessageSize: maxMessageSize)
    }

    /// Connects without blocking the calling task.
    public static func connect(
        to address: UnixAddress,
        timeout: Duration = .seconds(5),
        maxMessageSize: Int = 16 << 20
    ) async throws(VarlinkClientError) -> VarlinkClient {
        let result: Result<VarlinkClient, VarlinkClientError> = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                do throws(VarlinkClientError) {
                    let client = try VarlinkClient(
                        connectingTo: address,
                        timeout: timeout,
                        maxMessageSize: maxMessageSize
                    )
                    continuation.resume(returning: .success(client))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
        }
        return try result.get()
    }

    deinit {
        closeDescriptor()
    }

    /// Closes the connection; an operation blocked in another thread ends with
    /// ``VarlinkClientError/connectionClosed``. Idempotent; later calls fail the same way.
    public func close() {
        // Closing an fd does not wake a thread blocked in poll on it, and the number could be
        // reused under that thread's feet: shut the socket down, wait for the operation to
        // notice, then close.
        abort()
        channel.withLock { _ in closeDescriptor() }
    }

    private func closeDescriptor() {
        fdClosed.withLock { closed in
            guard !closed else { return }
            closed = true
            Socket.close(fd)
        }
    }

    /// Shuts the socket down in both directions, waking any blocked operation (cancellation).
    func abort() {
        fdClosed.withLock { closed in
            if !closed { _ = Glibc.shutdown(fd, Int32(SHUT_RDWR)) }
        }
    }

    /// Whether any byte has come from the server on this connection. A server at its connection
    /// limit accepts a client and closes it at once: ``VarlinkClientError/connectionClosed``
    /// before any byte is that refusal, where one after a byte is a server that gave up on a reply.
    public var hasReceivedBytes: Bool { receivedBytes.load(ordering: .relaxed) }

    // MARK: - I/O

    func send(
        _ bytes: [UInt8],
        channel: inout Channel,
        method: String,
        deadline: Deadline
    ) throws(VarlinkClientError) {
        guard !channel.isBroken, !fdClosed.withLock({ $0 }) else { throw .connectionClosed }
        var offset = 0
        while offset < bytes.count {
            let result = bytes.withUnsafeBytes { raw in
                Socket.send(fd, UnsafeRawBufferPointer(rebasing: raw[offset...]))
            }
            switch result {
            case .done(let n): offset += n
            case .wouldBlock: try wait(for: Int16(POLLOUT), channel: &channel, method: method, deadline: deadline)
            case .endOfFile: throw .connectionClosed
            case .failed(let code):
                channel.isBroken = true
                if code == EPIPE || code == ECONNRESET { throw .connectionClosed }
                throw .system(SystemError(call: "send", errno: code, path: address.displayPath))
            }
        }
    }

    func receive(
        channel: inout Channel,
        method: String,
        deadline: Deadline
    ) throws(VarlinkClientError) -> VarlinkReply {
        while true {
            let decoded: VarlinkReply?
            do throws(VarlinkProtocolError) {
                decoded = try channel.input.next().map { (message) throws(VarlinkProtocolError) in
                    try VarlinkReply(decoding: message)
                }
            } catch {
                channel.isBroken = true
                throw .protocolViolation(error)
            }
            if let reply = decoded {
                if let error = reply.varlinkError { throw .errorReply(error) }
                return reply
            }
            guard !channel.isBroken else { throw .connectionClosed }
            try wait(for: Int16(POLLIN), channel: &channel, method: method, deadline: deadline)
            let result = withUnsafeTemporaryAllocation(byteCount: 64 * 1024, alignment: 1) { buffer in
                let result = Socket.receive(fd, into: buffer)
                if case .done(let n) = result {
                    channel.input.append(UnsafeRawBufferPointer(rebasing: buffer[..<n]))
                    receivedBytes.store(true, ordering: .relaxed)
                }
                return result
            }
            switch result {
            case .done, .wouldBlock: continue
            case .endOfFile:
                channel.isBroken = true
                throw .connectionClosed
            case .failed(let code):
                channel.isBroken = true
                if code == ECONNRESET { throw .connectionClosed }
                throw .system(SystemError(call: "recv", errno: code, path: address.displayPath))
            }
        }
    }

    /// Waits with `poll` until the fd is ready for `events` or the deadline passes.
    private func wait(
        for events: Int16,
        channel: inout Channel,
        method: String,
        deadline: Deadline
    ) throws(VarlinkClientError) {
        var descriptor = pollfd(fd: fd, events: events, revents: 0)
        // The timeout is measured again on each try, so a signal does not extend it.
        let result = retryingEINTR { poll(&descriptor, 1, deadline.remainingMilliseconds()) }
        if result > 0 { return }  // ready, or an error/hang-up the next call reports
        let code = errno
        channel.isBroken = true
        if result == 0 { throw .timedOut(method: method) }
        throw .system(SystemError(call: "poll", errno: code, path: address.displayPath))
    }
}

/// A point in time for `poll` timeouts, or none (wait for ever).
struct Deadline {
    private let end: UInt64?

    init(_ timeout: Duration?) {
        end = timeout.map { DispatchTime.now().uptimeNanoseconds &+ $0.nanoseconds }
    }

    /// Milliseconds left, rounded up, for `poll`; -1 for no deadline, 0 once passed.
    func remainingMilliseconds() -> Int32 {
        guard let end else { return -1 }
        let now = DispatchTime.now().uptimeNanoseconds
        guard end > now else { return 0 }
        return Int32(clamping: (end - now + 999_999) / 1_000_000)
    }
}
