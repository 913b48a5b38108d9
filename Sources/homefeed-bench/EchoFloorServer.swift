import Dispatch
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The raw echo floor's server: a thread that accepts one client on `path`, then reads
/// `requestSize` bytes and writes `replySize` bytes back until the client closes. Blocking
/// system calls only or, with `epoll`, waiting in `epoll_wait` on a non-blocking socket as an
/// event loop does (``EpollReadiness``); with `work`, spending that long on the CPU between each
/// read and its write (``SimulatedWork``).
///
/// Serving until the client closes, rather than a set number of rounds, lets a client take its
/// round trips in turns with other servers'
/// (``ServeBenchmark/loadedCallFigures(socket:_:replySize:directory:calls:)``).
final class EchoFloorServer: @unchecked Sendable {
    private let path: String
    private let listener: Int32
    private let finished = DispatchSemaphore(value: 0)
    /// The thread's CPU time (s) after its first ``VarlinkBenchmark/warmup`` rounds, and the
    /// rounds after those; written by the server thread before `finished` is signalled.
    private var cpu = 0.0
    private var measuredRounds = 0
    /// The last state of the simulated work: kept so that the work is done.
    private var workResult: UInt64 = 0

    init(path: String, requestSize: Int, replySize: Int, epoll: Bool, work: SimulatedWork? = nil) {
        self.path = path
        listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0, VarlinkBenchmark.bindAndListen(listener, path: path) else {
            Self.fail("bind \(path): errno \(errno)")
        }
        Thread { [self] in serve(requestSize: requestSize, replySize: replySize, epoll: epoll, work: work) }.start()
    }

    /// A client socket connected to the server.
    func connect() -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0, VarlinkBenchmark.connectTo(fd, path: path) else { Self.fail("connect \(path): errno \(errno)") }
        return fd
    }

    /// Waits until the server has seen its client close, then removes the socket; the thread's
    /// CPU per round trip after the warm-up, in µs.
    func finish() -> Double {
        finished.wait()
        close(listener)
        unlink(path)
        return measuredRounds > 0 ? cpu / Double(measuredRounds) * 1e6 : 0
    }

    private func serve(requestSize: Int, replySize: Int, epoll: Bool, work: SimulatedWork?) {
        defer { finished.signal() }
        let fd = accept(listener, nil, nil)
        guard fd >= 0 else { return }
        defer { close(fd) }
        let readiness = epoll ? EpollReadiness(fd) : nil
        if epoll, readiness == nil { Self.fail("epoll: errno \(errno)") }
        var request = [UInt8](repeating: 0, count: requestSize)
        let reply = [UInt8](repeating: UInt8(ascii: "x"), count: replySize)
        var rounds = 0
        var start = 0.0
        var worked: UInt64 = 0
        while true {
            if rounds == VarlinkBenchmark.warmup { start = Measure.threadCPUSeconds() }
            let read = readiness.map { $0.readFully(fd, &request) } ?? VarlinkBenchmark.readFully(fd, &request)
            guard read else { break }
            if let work { worked = work.run(worked) }
            guard VarlinkBenchmark.writeFully(fd, reply) else { break }
            rounds += 1
        }
        workResult = worked
        if rounds > VarlinkBenchmark.warmup {
            cpu = Measure.threadCPUSeconds() - start
            measuredRounds = rounds - VarlinkBenchmark.warmup
        }
    }

    fileprivate static func fail(_ message: String) -> Never { Measure.fatal("echo floor: \(message)") }
}

/// The echo floor's client side: writes a request of the floor's size and reads the whole reply.
struct EchoRoundTrip {
    private let request: [UInt8]
    private var reply: [UInt8]

    init(requestSize: Int, replySize: Int) {
        request = [UInt8](repeating: UInt8(ascii: "x"), count: requestSize)
        reply = [UInt8](repeating: 0, count: replySize)
    }

    /// `count` round trips on `fd`, each one's nanoseconds appended to `samples`.
    mutating func run(_ fd: Int32, count: Int, into samples: inout [UInt64]) {
        for i in 0..<count {
            let start = DispatchTime.now().uptimeNanoseconds
            guard VarlinkBenchmark.writeFully(fd, request), VarlinkBenchmark.readFully(fd, &reply) else {
                EchoFloorServer.fail("round \(i) failed")
            }
            samples.append(DispatchTime.now().uptimeNanoseconds - start)
        }
    }

    /// `count` round trips on `fd`, not timed.
    mutating func warmUp(_ fd: Int32, count: Int) {
        var discarded: [UInt64] = []
        discarded.reserveCapacity(count)
        run(fd, count: count, into: &discarded)
    }
}
