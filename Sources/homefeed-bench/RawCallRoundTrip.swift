import Dispatch
import Varlink

#if canImport(Glibc)
    import Glibc
#endif

/// Round trips of one call over a raw socket to the daemon: the framed call written, the reply
/// read to its NUL. The client does no JSON work, so a round trip is the daemon's serving cost
/// plus the transport, comparable with the raw echo floor's (``EchoRoundTrip``).
struct RawCallRoundTrip: ~Copyable {
    let fd: Int32
    private let request: [UInt8]
    private var buffer = [UInt8](repeating: 0, count: 1 << 17)
    /// The size of the last reply read, in bytes.
    private(set) var replySize = 0

    init(socket: String, _ call: VarlinkCall) {
        fd = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0, VarlinkBenchmark.connectTo(fd, path: socket) else {
            ServeBenchmark.fail("connect: errno \(errno)")
        }
        request = call.framed
    }

    deinit { close(fd) }

    /// `count` round trips, each one's nanoseconds appended to `samples`.
    mutating func run(count: Int, into samples: inout [UInt64]) {
        for i in 0..<count {
            let start = DispatchTime.now().uptimeNanoseconds
            guard VarlinkBenchmark.writeFully(fd, request) else { ServeBenchmark.fail("write \(i)") }
            var received = 0
            while true {
                let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                guard n > 0 else { ServeBenchmark.fail("read \(i): errno \(errno)") }
                received += n
                if buffer[n - 1] == 0 { break }
            }
            samples.append(DispatchTime.now().uptimeNanoseconds - start)
            replySize = received
        }
    }

    /// `count` round trips, not timed.
    mutating func warmUp(count: Int) {
        var discarded: [UInt64] = []
        discarded.reserveCapacity(count)
        run(count: count, into: &discarded)
    }
}
