import Dispatch
import Foundation
import SystemCalls
import Varlink

#if canImport(Glibc)
    import Glibc
#endif

/// `homefeed-bench varlink`: round trip of a small call through ``VarlinkServer`` and
/// ``VarlinkClient``, beside a raw Unix-socket echo of the same request and reply sizes measured
/// in the same run (the floor: kernel, scheduler and two wake-ups, no protocol at all).
///
/// Goal (issue 5, `serve.small`): p50 within 1.5× of the floor. Beside the wall times, the CPU
/// time of the server's thread per call against the echo thread's (`*_server_cpu_us`): on a
/// loaded machine the steadier comparison. Both loops are one blocking
/// client thread against a server on its own threads, so both pay the same cross-thread
/// wake-ups (varlink-and-systemd.md §5 measured 8 µs on one CPU, 40 µs across CPUs).
enum VarlinkBenchmark {
    static let calls = 100_000
    static let warmup = 2_000

    static func run(calls: Int = calls) {
        let directory = Measure.temporaryDirectory("/tmp/vlb.XXXXXX")
        defer { try? FileManager.default.removeItem(atPath: directory) }

        let call = VarlinkCall(method: "org.example.bench.Echo", parameters: ["text": "hello, homefeed"])
        let varlink = measureVarlink(call: call, address: .path(directory + "/varlink.sock"), calls: calls)
        let replySize = VarlinkReply(parameters: call.parameters).framed().framedBytes.count
        let floor = measureFloor(
            requestSize: call.framed.count,
            replySize: replySize,
            path: directory + "/floor.sock",
            calls: calls
        )

        Measure.report("varlink.small.p50_us", varlink.p50, "us")
        Measure.report("varlink.small.p99_us", varlink.p99, "us")
        Measure.report("varlink.small.floor_p50_us", floor.p50, "us")
        Measure.report("varlink.small.floor_p99_us", floor.p99, "us")
        Measure.report("varlink.small.server_cpu_us", varlink.serverCPU, "us")
        Measure.report("varlink.small.floor_server_cpu_us", floor.serverCPU, "us")
        print(
            String(
                format:
                    "# varlink: small call p50 %.1f µs = %.2f× the raw echo floor (%.1f µs), p99 %.1f µs; server thread "
                    + "CPU %.1f µs per call = %.2f× the echo thread's; %d calls of %d/%d bytes",
                varlink.p50,
                varlink.p50 / floor.p50,
                floor.p50,
                varlink.p99,
                varlink.serverCPU,
                varlink.serverCPU / floor.serverCPU,
                calls,
                call.framed.count,
                replySize
            )
        )
        print(
            "# goal (issue 5): p50 within 1.5× the floor, client included; the daemon's own call "
                + "(serve.small, serve.call_*) has issue 17's 1.25×"
        )
    }

    // MARK: - Varlink

    static let idl = """
        # homefeed-bench: a small call.
        interface org.example.bench

        # Returns its text.
        method Echo(text: string) -> (text: string)

        """

    /// The Varlink server's event-loop thread, as it names itself.
    static let serverThreadName = "varlink-server"

    private static func measureVarlink(
        call: VarlinkCall,
        address: UnixAddress,
        calls: Int
    ) -> (p50: Double, p99: Double, serverCPU: Double) {
        let interface = VarlinkInterface(
            name: "org.example.bench",
            description: idl,
            methods: ["Echo": VarlinkMethod { request in .parameters(request.parameters) }]
        )
        let service = VarlinkService(
            info: VarlinkServiceInfo(vendor: "homefeed", product: "homefeed-bench", version: "0", url: ""),
            interfaces: [interface]
        )
        let server: VarlinkServer
        let client: VarlinkClient
        do {
            server = try VarlinkServer(binding: address, service: service)
            server.start()
            client = try VarlinkClient(connectingTo: address)
        } catch {
            fail("\(error)")
        }
        var samples: [UInt64] = []
        samples.reserveCapacity(calls)
        var cpuStart = 0.0
        for i in 0..<(warmup + calls) {
            if i == warmup { cpuStart = Measure.threadCPUSeconds(named: serverThreadName) }
            let start = DispatchTime.now().uptimeNanoseconds
            do {
                _ = try client.call(call, timeout: .seconds(10))
            } catch {
                fail("call \(i): \(error)")
            }
            if i >= warmup { samples.append(DispatchTime.now().uptimeNanoseconds - start) }
        }
        let serverCPU = (Measure.threadCPUSeconds(named: serverThreadName) - cpuStart) / Double(calls) * 1e6
        client.close()
        let done = DispatchSemaphore(value: 0)
        Task {
            await server.shutdown()
            done.signal()
        }
        done.wait()  // the main thread, not a cooperative one
        let (p50, p99) = percentiles(samples)
        return (p50, p99, serverCPU)
    }

    // MARK: - Floor

    /// An echo server thread that reads `requestSize` bytes and writes `replySize` bytes back,
    /// and a client loop doing the same from this thread: blocking syscalls only, or with
    /// `epoll`, the server waiting in `epoll_wait` on a non-blocking socket as an event loop
    /// does (``EpollReadiness``); with `work`, the server spending that long between each read
    /// and its write (``SimulatedWork``).
    ///
    /// - Returns: p50 and p99 in µs, and the echo server thread's CPU per round trip in µs
    ///   (its own `CLOCK_THREAD_CPUTIME_ID` over the measured rounds).
    static func measureFloor(
        requestSize: Int,
        replySize: Int,
        path: String,
        calls: Int = calls,
        epoll: Bool = false,
        work: SimulatedWork? = nil
    ) -> (p50: Double, p99: Double, serverCPU: Double) {
        let server = EchoFloorServer(
            path: path,
            requestSize: requestSize,
            replySize: replySize,
            epoll: epoll,
            work: work
        )
        let fd = server.connect()
        var round = EchoRoundTrip(requestSize: requestSize, replySize: replySize)
        var samples: [UInt64] = []
        samples.reserveCapacity(calls)
        round.warmUp(fd, count: warmup)
        round.run(fd, count: calls, into: &samples)
        close(fd)
        let serverCPU = server.finish()
        let (p50, p99) = percentiles(samples)
        return (p50, p99, serverCPU)
    }

    /// `path`'s `sockaddr_un`; -1 (a failed call) when it does not fit, which the bench's
    /// short temporary paths always do.
    static func withAddress(_ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Int32) -> Int32 {
        UnixSocketAddress.withSockaddr(path, abstract: false, body) ?? -1
    }

    static func bindAndListen(_ fd: Int32, path: String) -> Bool {
        withAddress(path) { bind(fd, $0, $1) } == 0 && listen(fd, 1) == 0
    }

    static func connectTo(_ fd: Int32, path: String) -> Bool {
        withAddress(path) { connect(fd, $0, $1) } == 0
    }

    static func readFully(_ fd: Int32, _ buffer: inout [UInt8]) -> Bool {
        var offset = 0
        let count = buffer.count
        while offset < count {
            let n = retryingEINTR {
                buffer.withUnsafeMutableBytes { raw in
                    recv(fd, raw.baseAddress.map { $0 + offset }, count - offset, 0)
                }
            }
            guard n > 0 else { return false }
            offset += n
        }
        return true
    }

    static func writeFully(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let n = retryingEINTR {
                bytes.withUnsafeBytes { raw in
                    send(fd, raw.baseAddress.map { $0 + offset }, bytes.count - offset, Int32(MSG_NOSIGNAL))
                }
            }
            guard n > 0 else { return false }
            offset += n
        }
        return true
    }

    // MARK: - Helpers

    /// p50 and p99 in microseconds.
    static func percentiles(_ samples: [UInt64]) -> (p50: Double, p99: Double) {
        let sorted = samples.sorted()
        guard !sorted.isEmpty else { return (0, 0) }
        let p50 = sorted[sorted.count / 2]
        let p99 = sorted[min(sorted.count - 1, sorted.count * 99 / 100)]
        return (Double(p50) / 1_000, Double(p99) / 1_000)
    }

    private static func fail(_ message: String) -> Never { Measure.fatal("varlink: \(message)") }
}
