import Foundation
import Synchronization
import TestSupport
import Testing

@testable import Varlink

#if canImport(Glibc)
    import Glibc
#endif

extension TemporaryDirectory {
    /// A socket address inside the directory (TestSupport keeps it short, straight under /tmp:
    /// the 107-byte `sun_path` limit, swift-on-linux.md §6).
    func socket(_ name: String = "s.sock") -> UnixAddress { .path(file(name)) }
}

/// The interface the tests serve.
let testIDL = """
    # A test interface.
    interface org.example.test

    # Returns its text.
    method Echo(text: string) -> (text: string)

    # The caller's credentials as the server sees them.
    method Whoami() -> (pid: int, uid: int, gid: int, groups: []int)

    # Replies n times, with "more".
    method Count(n: int) -> (i: int)

    # A subscription: one reply now, more when the test pushes.
    method Subscribe() -> (n: int)

    # Records a oneway call.
    method Note(text: string) -> ()

    # Declared but without a handler.
    method Unimplemented() -> ()

    # Answered at once (from the immediate handler) unless text is "later", "fail" or
    # "final": "answered" names who answered and "thread" the thread it ran on. With "steps"
    # and more, a reply with continues comes first. "peek" and "keep" also give the reply
    # sink's identity in "sink"; "keep" keeps the sink (keptSinks), "watch" a weak reference
    # to it (watchedSinks).
    method Cached(text: string) -> (text: string, answered: string, thread: string, sink: ?int)

    # Answered at once with a repeatable reply: "calls" counts how often the handler ran for
    # this text; the reply holds until pollGeneration(text) advances. "pad" adds that many
    # bytes of padding to the reply.
    method Polled(text: string, pad: ?int) -> (text: string, calls: int, padding: ?string)

    # A failure with a reason.
    error Failed (reason: string)

    """

/// Subscribers and notes, shared by handlers and the test body.
actor Hub {
    private(set) var subscribers: [VarlinkReplySink] = []
    private(set) var notes: [String] = []
    private var subscriberWaiters: [(Int, CheckedContinuation<Void, Never>)] = []

    func add(_ sink: VarlinkReplySink) {
        subscribers.append(sink)
        let ready = subscriberWaiters.filter { $0.0 <= subscribers.count }
        subscriberWaiters.removeAll { $0.0 <= subscribers.count }
        for (_, waiter) in ready { waiter.resume() }
    }

    func note(_ text: String) { notes.append(text) }

    /// Returns once `count` subscribers have subscribed.
    func waitForSubscribers(_ count: Int) async {
        if subscribers.count >= count { return }
        await withCheckedContinuation { subscriberWaiters.append((count, $0)) }
    }
}

func makeTestService(hub: Hub) -> VarlinkService {
    let interface = VarlinkInterface(
        name: "org.example.test",
        description: testIDL,
        methods: [
            "Echo": VarlinkMethod { request throws(VarlinkError) in
                try request.rejectUnknownParameters(allowing: ["text"])
                guard let text = request.parameters["text"]?.stringValue else { throw .invalidParameter("text") }
                if text == "fail" { throw VarlinkError("org.example.test.Failed", parameters: ["reason": "asked to"]) }
                return .parameters(["text": .string(text)])
            },
            "Whoami": VarlinkMethod { request in
                .parameters([
                    "pid": .int(Int(request.peer.pid)),
                    "uid": .int(Int(request.peer.uid)),
                    "gid": .int(Int(request.peer.gid)),
                    "groups": .array(request.peer.groups.map { .int(Int($0)) }),
                ])
            },
            "Count": VarlinkMethod { request throws(VarlinkError) in
                guard let n = request.parameters["n"]?.intValue, n > 0 else { throw .invalidParameter("n") }
                for i in 1..<n { request.replies.send(VarlinkReply(parameters: ["i": .int(i)], continues: true)) }
                return .parameters(["i": .int(n)])
            },
            "Subscribe": VarlinkMethod(requiresMore: true) { request in
                request.replies.send(VarlinkReply(parameters: ["n": 0], continues: true))
                await hub.add(request.replies)
                return .streaming
            },
            "Cached": VarlinkMethod(
                immediate: { request throws(VarlinkError) in
                    guard let text = request.parameters["text"]?.stringValue else { throw .invalidParameter("text") }
                    switch text {
                    case "later": return nil
                    case "watch":
                        watchedSinks.withLock { $0.append(WeakSink(sink: request.replies)) }
                        return .parameters(cachedParameters(text, "immediate"))
                    case "peek", "keep":
                        if text == "keep" { keptSinks.withLock { $0.append(request.replies) } }
                        var parameters = cachedParameters(text, "immediate")
                        parameters["sink"] = .int(Int(bitPattern: ObjectIdentifier(request.replies)))
                        return .parameters(parameters)
                    case "fail": throw VarlinkError("org.example.test.Failed", parameters: ["reason": "at once"])
                    case "steps":
                        // A reply sent through the sink before the final one returned.
                        request.replies.send(VarlinkReply(parameters: ["step": 1], continues: true))
                        return .parameters(cachedParameters(text, "immediate"))
                    case "final":
                        // A pre-encoded reply that claims `continues` still ends the call.
                        let reply = VarlinkReply(parameters: cachedParameters(text, "immediate"), continues: true)
                        return .encoded(reply.framed())
                    default: return .parameters(cachedParameters(text, "immediate"))
                    }
                },
                { request in .parameters(cachedParameters(request.parameters["text"]?.stringValue ?? "", "async")) }
            ),
            "Polled": VarlinkMethod(
                immediate: { request throws(VarlinkError) in
                    guard let text = request.parameters["text"]?.stringValue else { throw .invalidParameter("text") }
                    let (calls, generation) = polls.withLock { polls in
                        polls.calls[text, default: 0] += 1
                        return (polls.calls[text, default: 0], polls.generation(text))
                    }
                    var parameters: [String: JSONValue] = ["text": .string(text), "calls": .int(calls)]
                    if let pad = request.parameters["pad"]?.intValue {
                        parameters["padding"] = .string(String(repeating: "p", count: pad))
                    }
                    return .repeatable(VarlinkReply(parameters: parameters).framed(), while: generation.validity)
                },
                { _ throws(VarlinkError) in throw .invalidParameter("text") }
            ),
            "Note": VarlinkMethod { request in
                await hub.note(request.parameters["text"]?.stringValue ?? "")
                return .parameters([:])
            },
        ]
    )
    return VarlinkService(
        info: VarlinkServiceInfo(
            vendor: "homefeed",
            product: "varlink-tests",
            version: "1.0",
            url: "https://example.org/homefeed"
        ),
        interfaces: [interface]
    )
}

/// What `Polled` counts, by text: each test polls with texts of its own.
struct Polls {
    var calls: [String: Int] = [:]
    private var generations: [String: VarlinkReplyGeneration] = [:]

    mutating func generation(_ text: String) -> VarlinkReplyGeneration {
        if let generation = generations[text] { return generation }
        let generation = VarlinkReplyGeneration()
        generations[text] = generation
        return generation
    }
}

let polls = Mutex(Polls())

/// The generation `Polled` stamps its replies for `text` with.
func pollGeneration(_ text: String) -> VarlinkReplyGeneration { polls.withLock { $0.generation(text) } }

/// How often `Polled` ran for `text`.
func pollCalls(_ text: String) -> Int { polls.withLock { $0.calls[text, default: 0] } }

/// The sinks `Cached` kept for "keep", for the test to send on after their call ended.
let keptSinks = Mutex<[VarlinkReplySink]>([])

/// Weak references to the sinks `Cached` saw for "watch", to tell when they are freed.
let watchedSinks = Mutex<[WeakSink]>([])

struct WeakSink: Sendable {
    weak var sink: VarlinkReplySink?
}

/// The reply of `Cached`: the text, who answered, and the name of the current thread.
func cachedParameters(_ text: String, _ answered: String) -> [String: JSONValue] {
    // The kernel's name of the calling thread (glibc's pthread_getname_np needs _GNU_SOURCE).
    let comm = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? ""
    let thread = comm.trimmingCharacters(in: .newlines)
    return ["text": .string(text), "answered": .string(answered), "thread": .string(thread)]
}

/// `configuration` with an idle timeout of at least an hour on the real clock. The whole suite
/// shares a cooperative pool of one thread a core: on a loaded two-core machine a client's next
/// step can wait its turn for over a minute, which the default idle timeout (60 s) takes for an
/// idle client. Only the idle-timeout test asks for a short one, on a manual clock.
func testConfiguration(
    _ configuration: VarlinkServerConfiguration = VarlinkServerConfiguration()
) -> VarlinkServerConfiguration {
    var configuration = configuration
    if configuration.clock == .monotonic {
        configuration.idleTimeout = max(configuration.idleTimeout, .seconds(3_600))
    }
    return configuration
}

/// A server on a fresh socket with the test service; `body` runs, then everything is removed.
func withServer<R>(
    configuration: VarlinkServerConfiguration = VarlinkServerConfiguration(),
    privilegedPeers: @escaping VarlinkPeerPredicate = { _ in false },
    _ body: (VarlinkServer, UnixAddress, Hub) async throws -> R
) async throws -> R {
    let directory = try TemporaryDirectory(prefix: "vl")
    defer { withExtendedLifetime(directory) {} }  // removed on release
    let hub = Hub()
    let address = directory.socket()
    let server = try VarlinkServer(
        binding: address,
        service: makeTestService(hub: hub),
        configuration: testConfiguration(configuration),
        privilegedPeers: privilegedPeers
    )
    server.start()
    do {
        let result = try await body(server, address, hub)
        await server.shutdown()
        return result
    } catch {
        await server.shutdown()
        throw error
    }
}

/// `count` raw sockets, each with a `Subscribe` call the hub has taken (their first replies
/// not yet read).
func subscribe(_ count: Int, to address: UnixAddress, hub: Hub) async throws -> [RawSocket] {
    let subscribers = try (0..<count).map { _ in try RawSocket(address) }
    for subscriber in subscribers {
        subscriber.write(VarlinkCall(method: "org.example.test.Subscribe", more: true).framed)
    }
    await hub.waitForSubscribers(count)
    return subscribers
}

/// A bare blocking socket for writing exact bytes and reading raw messages.
///
/// Reads are `async` and block a thread of their own, never one of the cooperative pool: the
/// server under test answers most calls from tasks on that pool, and tests run in parallel, so
/// two tests blocked in `recv` on a two-core machine would leave no thread to answer either.
///
/// `@unchecked Sendable`: one test owns a socket and awaits each read before the next use.
final class RawSocket: @unchecked Sendable {
    let fd: Int32
    private var splitter = VarlinkFrameSplitter(maxMessageSize: 64 << 20)

    init(_ address: UnixAddress) throws {
        guard case .path(let path) = address else { throw SystemError(call: "raw socket", errno: EINVAL) }
        fd = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: Array(path.utf8) + [0])
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard result == 0 else { throw SystemError(call: "connect", errno: errno, path: path) }
        // Reads give up after 30 s, so a broken test fails instead of hanging; a reply from a
        // server on a machine busy with the whole suite can take seconds.
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { Glibc.close(fd) }

    func write(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { raw in
                Glibc.send(fd, raw.baseAddress.map { $0 + offset }, bytes.count - offset, Int32(MSG_NOSIGNAL))
            }
            if n <= 0 { return }
            offset += n
        }
    }

    func write(_ text: String) { write(Array(text.utf8)) }

    func shutdownWrite() { Glibc.shutdown(fd, Int32(SHUT_WR)) }

    /// The next message, or nil at EOF (or error / timeout).
    func readMessage() async -> [UInt8]? {
        await offPool { self.blockingReadMessage() }
    }

    /// The next `count` messages (fewer at EOF, error or timeout), read on one thread: a thread
    /// started per message took seconds each on a machine busy with the whole suite.
    func readMessages(_ count: Int) async -> [[UInt8]] {
        await offPool {
            var messages: [[UInt8]] = []
            while messages.count < count, let message = self.blockingReadMessage() { messages.append(message) }
            return messages
        }
    }

    func readReply() async -> VarlinkReply? {
        await readMessage().flatMap { try? VarlinkReply(decoding: $0) }
    }

    /// True when the server has closed the connection (EOF or reset), draining any messages.
    func readUntilClosed() async -> Bool {
        await offPool { self.blockingReadUntilClosed() }
    }

    private func blockingReadMessage() -> [UInt8]? {
        while true {
            if let message = try? splitter.next() { return message }
            var buffer = [UInt8](repeating: 0, count: 65536)
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { return nil }
            splitter.append(buffer[..<n])
        }
    }

    private func blockingReadUntilClosed() -> Bool {
        while true {
            var buffer = [UInt8](repeating: 0, count: 65536)
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n == 0 { return true }
            if n < 0 { return errno == ECONNRESET }
        }
    }
}

/// Runs a program (found on `$PATH`) to completion without blocking a cooperative thread.
func run(_ executable: String, _ arguments: [String]) async throws -> (status: Int32, output: String, error: String) {
    let completion = try await offPool { try ChildProcess.run("/usr/bin/env", [executable] + arguments) }
    return (completion.status, completion.stdoutText, completion.stderrText)
}

/// A server context with the test service, `configuration`, no privileged peer and no logging: for connections and connection states driven directly, without a server.
func makeTestContext(configuration: VarlinkServerConfiguration = VarlinkServerConfiguration()) -> ServerContext {
    ServerContext(
        service: makeTestService(hub: Hub()),
        configuration: configuration,
        privilegedPeers: { _ in false },
        logger: varlinkSilentLogger
    )
}

/// A server-side ``Connection`` on `loop` over one end of a socket pair (non-blocking, as an
/// accepted connection is), its call made active as a streaming one; and the client's end,
/// which the caller closes.
func streamingConnection(on loop: EventLoop) throws -> (sink: VarlinkReplySink, clientFD: Int32) {
    var pair: [Int32] = [-1, -1]
    guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0 else {
        throw SystemError(call: "socketpair", errno: errno)
    }
    guard fcntl(pair[0], F_SETFL, fcntl(pair[0], F_GETFL) | O_NONBLOCK) == 0 else {
        let error = SystemError(call: "fcntl", errno: errno)
        for fd in pair { close(fd) }
        throw error
    }
    let connection = Connection(fd: pair[0], peer: .unknown, context: makeTestContext(), loop: loop)
    return (connection.state.activate(more: true, oneway: false, transport: connection), pair[1])
}

/// Reads `fd` (without blocking, polling for up to ten seconds) until `count` bytes arrived.
func receive(_ count: Int, from fd: Int32) async throws -> [UInt8] {
    var received: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    var polls = 0
    while received.count < count, polls < 2000 {
        let n = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
        if n > 0 { received += buffer[..<n] } else { try await Task.sleep(for: .milliseconds(5)) }
        polls += 1
    }
    return received
}

/// Sends replies 1…`count` with a parameter `n` through `sink`, all but the last continuing
/// (``numberedReplies(_:)`` is what they frame to); whether each was sent.
func sendNumbered(_ count: Int, to sink: VarlinkReplySink) -> [Bool] {
    (1...count).map { n in sink.send(VarlinkReply(parameters: ["n": .int(n)], continues: n < count)) == .sent }
}

/// Replies 1…`count` with a parameter `n`, all but the last continuing, framed back to back.
func numberedReplies(_ count: Int) -> [UInt8] {
    let replies = (1...count).map { n in
        VarlinkReply(parameters: ["n": .int(n)], continues: n < count).framed().framedBytes
    }
    return Array(replies.joined())
}

/// `count` bytes that differ from push to push and from place to place.
func payload(_ count: Int, seed: UInt8) -> [UInt8] {
    (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed) &* 97) }
}

/// A push of `bytes` with the pipe the server would give it, charged to `budget`.
func pipedPush(_ bytes: [UInt8], budget: PipeBudget) -> VarlinkEncodedReply {
    VarlinkEncodedReply(
        framedBytes: bytes,
        continues: true,
        piped: PipedReply.forPush(byteCount: bytes.count, budget: budget)
    )
}

/// Runs `body` on a new thread with a splicer that thread has adopted, as an event loop does,
/// and returns what it observed, for the test to check (an expectation on another thread would
/// not count against the test). The thread ends, and with it any SIGPIPE left pending on it.
func onAdoptedThread<T: Sendable>(_ body: @escaping @Sendable (Splicer) throws -> T) async throws -> T {
    let result: Result<T, any Error> = await withCheckedContinuation { continuation in
        Thread {
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
            defer { buffer.deallocate() }
            let splicer = Splicer(discardBuffer: buffer)
            splicer.adopt()
            continuation.resume(returning: Result { try body(splicer) })
        }.start()
    }
    return try result.get()
}

/// The capacity Linux gives a pipe asked to hold `count` bytes: a power of two pages.
func pipeSize(holding count: Int) -> Int {
    let page = sysconf(Int32(_SC_PAGESIZE))
    var pages = 1
    while pages * page < count { pages *= 2 }
    return pages * page
}

/// A pipe's read end holding `bytes`, made through the ``PipedReply`` the server would use; the
/// pipe is open while the reply lives. Throws rather than records an issue: it also runs on the
/// splicing thread.
func pipeSource(holding bytes: [UInt8]) throws -> (reply: PipedReply, source: PipedReply.Source) {
    guard let reply = PipedReply.forPush(byteCount: bytes.count) else {
        throw SystemError(call: "piped reply", errno: EINVAL)
    }
    _ = reply.source(holding: bytes, for: -1)
    guard let source = reply.source(holding: bytes, for: -2) else { throw SystemError(call: "pipe", errno: errno) }
    return (reply, source)
}
