import Dispatch
import Foundation
import HomeDaemon
import Varlink

#if canImport(Glibc)
    import Glibc
#endif

/// `homefeed-bench serve`: the daemon's serving path in one process — `HomeService`,
/// `io.homefeed` and the Varlink server on a temporary socket, on the sample configuration.
///
/// Figures (issue 5): `GetManifest` p50/p99 for a small reply (`ifNoneMatch` matches: no
/// manifest) and the full manifest over 100 000 calls each, beside a raw Unix-socket echo of the
/// same request and reply sizes; the time from `RecordHistory` to the push arriving at 1 000
/// subscribers; CPU and RSS while idle. Goals: p50 within 1.5× of the floor; 1 000 subscribers
/// within 50 ms; idle CPU ≈ 0. Issue 10 adds the time from a `ReportSizes` that moves frames to
/// 100 subscribers holding the re-solved manifest (goal ≤ 10 ms).
enum ServeBenchmark {
    static func run(calls: Int = 100_000, idleSeconds: Int = 60) {
        raiseFileLimit()
        var template = Array("/tmp/hfs.XXXXXX".utf8CString)
        guard template.withUnsafeMutableBufferPointer({ $0.baseAddress.flatMap { mkdtemp($0) } }) != nil else {
            fail("mkdtemp: errno \(errno)")
        }
        let directory = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let socket = directory + "/s.sock"
        let server = start(directory: directory, socket: socket)

        let client: VarlinkClient
        let etag: String
        do {
            client = try VarlinkClient(connectingTo: .path(socket))
            etag =
                try client.call("io.homefeed.GetManifest", parameters: ["profile": "phone"])["etag"]?.stringValue ?? ""
        } catch {
            fail("\(error)")
        }
        let small = VarlinkCall(
            method: "io.homefeed.GetManifest",
            parameters: ["profile": "phone", "ifNoneMatch": .string(etag)]
        )
        let full = VarlinkCall(method: "io.homefeed.GetManifest", parameters: ["profile": "phone"])
        var summary: [String] = []
        for (name, call) in [("small", small), ("manifest", full)] {
            let (p50, p99, replySize) = measure(socket: socket, call, calls: calls)
            let floor = VarlinkBenchmark.measureFloor(
                requestSize: call.framed.count,
                replySize: replySize,
                path: directory + "/floor-\(name).sock"
            )
            Measure.report("serve.\(name).p50_us", p50, "us")
            Measure.report("serve.\(name).p99_us", p99, "us")
            Measure.report("serve.\(name).floor_p50_us", floor.p50, "us")
            summary.append(
                String(
                    format: "%@ %d B: p50 %.1f µs = %.2f× floor %.1f µs",
                    name,
                    replySize,
                    p50,
                    p50 / floor.p50,
                    floor.p50
                )
            )
        }

        let push = pushToSubscribers(count: 1000, socket: socket, client: client)
        Measure.report("serve.push_1000.ms", push, "ms")
        summary.append(String(format: "push to 1000 subscribers %.1f ms", push))
        let report = reportToPush(count: 100, socket: socket, client: client)
        Measure.report("serve.report_to_push.ms", report, "ms")
        summary.append(String(format: "ReportSizes to 100 subscribers %.2f ms (median of 21)", report))
        client.close()

        let (cpu, rss) = idle(seconds: idleSeconds)
        Measure.report("serve.idle.cpu_pct", cpu, "%")
        Measure.report("serve.idle.rss_mb", rss, "MB")
        summary.append(
            String(
                format: "idle %d s: CPU %.3f %%, RSS %.1f MB (bench and daemon in one process)",
                idleSeconds,
                cpu,
                rss
            )
        )
        print("# " + summary.joined(separator: "; "))
        print(
            "# goals: p50 within 1.5× of the raw round trip; 1 000 subscribers within 50 ms; "
                + "ReportSizes to 100 subscribers ≤ 10 ms; idle CPU ≈ 0"
        )
        Measure.blocking { await server.shutdown() }
    }

    /// The daemon's service and socket, as `homefeedd` builds them, with the sample feeds fetched.
    static func start(directory: String, socket: String) -> VarlinkServer {
        let config = URL(fileURLWithPath: directory + "/config")
        do {
            try FileManager.default.copyItem(at: URL(fileURLWithPath: "feeds"), to: config)
            try FileManager.default.createDirectory(atPath: directory + "/state", withIntermediateDirectories: true)
        } catch {
            fail("copy feeds/: \(error.localizedDescription) (run from the package root)")
        }
        return Measure.blocking { () -> VarlinkServer in
            do {
                let configuration = try await LoadedConfiguration.load(directory: config)
                let service = try await HomeService(
                    configuration: configuration,
                    stateDirectory: URL(fileURLWithPath: directory + "/state"),
                    logger: Logger(label: "bench", level: .error, sink: { _ in })
                )
                _ = try await service.refresh(url: nil)
                let interface = HomefeedInterface(service: service)
                await interface.connect()
                let server = try VarlinkServer(
                    binding: .path(socket),
                    service: interface.varlinkService(version: "bench")
                )
                server.start()
                return server
            } catch {
                fail("start: \(error)")
            }
        }
    }

    /// Round trips of `call` over a raw socket: write the framed call, read to the reply's NUL.
    /// The client does no JSON work, so the figure is the daemon's serving cost plus the
    /// transport, comparable with the raw echo floor.
    static func measure(socket: String, _ call: VarlinkCall, calls: Int) -> (Double, Double, Int) {
        let fd = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0, VarlinkBenchmark.connectTo(fd, path: socket) else { fail("connect: errno \(errno)") }
        defer { close(fd) }
        let request = call.framed
        var buffer = [UInt8](repeating: 0, count: 1 << 17)
        var samples: [UInt64] = []
        samples.reserveCapacity(calls)
        var replySize = 0
        for i in 0..<(calls + 2_000) {
            let start = DispatchTime.now().uptimeNanoseconds
            guard VarlinkBenchmark.writeFully(fd, request) else { fail("write \(i)") }
            var received = 0
            while true {
                let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                guard n > 0 else { fail("read \(i): errno \(errno)") }
                received += n
                if buffer[n - 1] == 0 { break }
            }
            if i == 0 { replySize = received }
            if i >= 2_000 { samples.append(DispatchTime.now().uptimeNanoseconds - start) }
        }
        let (p50, p99) = VarlinkBenchmark.percentiles(samples)
        return (p50, p99, replySize)
    }

    /// Opens `count` raw subscriptions, reads their first reply, records a history event and
    /// waits (poll) until every subscriber has the next reply. Milliseconds.
    static func pushToSubscribers(count: Int, socket: String, client: VarlinkClient) -> Double {
        let subscribe = VarlinkCall(method: "io.homefeed.GetManifest", parameters: ["profile": "phone"], more: true)
            .framed
        var fds: [Int32] = []
        for _ in 0..<count {
            let fd = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            guard fd >= 0, VarlinkBenchmark.connectTo(fd, path: socket), VarlinkBenchmark.writeFully(fd, subscribe)
            else {
                fail("subscriber \(fds.count): errno \(errno)")
            }
            fds.append(fd)
        }
        defer { for fd in fds { close(fd) } }
        waitForOneReply(fds)
        let start = DispatchTime.now().uptimeNanoseconds
        do {
            _ = try client.call("io.homefeed.RecordHistory", parameters: ["title": "bench"])
        } catch {
            fail("RecordHistory: \(error)")
        }
        waitForOneReply(fds)
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
    }

    /// Opens `count` raw subscriptions, then reports a new height for the headline 21 times, each
    /// moving the cards below it, and waits (poll) until every subscriber has the re-solved
    /// manifest. The median in milliseconds, from the call to the last subscriber's reply.
    static func reportToPush(count: Int, socket: String, client: VarlinkClient) -> Double {
        let headline: String
        do {
            let reply = try client.call("io.homefeed.GetManifest", parameters: ["profile": "phone"])
            let items = reply["manifest"]?["sections"]?.arrayValue?[1]["items"]?.arrayValue
            guard let id = items?.first?["id"]?.stringValue else { fail("no headline in the phone manifest") }
            headline = id
        } catch {
            fail("GetManifest: \(error)")
        }
        let subscribe = VarlinkCall(method: "io.homefeed.GetManifest", parameters: ["profile": "phone"], more: true)
            .framed
        var fds: [Int32] = []
        for _ in 0..<count {
            let fd = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            guard fd >= 0, VarlinkBenchmark.connectTo(fd, path: socket), VarlinkBenchmark.writeFully(fd, subscribe)
            else {
                fail("subscriber \(fds.count): errno \(errno)")
            }
            fds.append(fd)
        }
        defer { for fd in fds { close(fd) } }
        waitForOneReply(fds)
        var samples: [Double] = []
        for round in 0..<21 {
            let start = DispatchTime.now().uptimeNanoseconds
            do {
                let sizes: JSONValue = [["id": .string(headline), "height": .double(45 + Double(round))]]
                _ = try client.call("io.homefeed.ReportSizes", parameters: ["profile": "phone", "sizes": sizes])
            } catch {
                fail("ReportSizes: \(error)")
            }
            waitForOneReply(fds)
            samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        }
        samples.sort()
        return samples[samples.count / 2]
    }

    /// Reads until each fd has delivered one complete (NUL-terminated) message.
    static func waitForOneReply(_ fds: [Int32]) {
        var pending = Set(fds.indices)
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while !pending.isEmpty {
            var polls = pending.map { pollfd(fd: fds[$0], events: Int16(POLLIN), revents: 0) }
            guard poll(&polls, nfds_t(polls.count), 10_000) > 0 else { fail("subscribers: no push within 10 s") }
            for entry in polls where entry.revents != 0 {
                let n = recv(entry.fd, &buffer, buffer.count, 0)
                guard n > 0 else { fail("subscriber closed") }
                if buffer[..<n].contains(0), let index = fds.firstIndex(of: entry.fd) { pending.remove(index) }
            }
        }
    }

    /// Process CPU (user + system) over wall time while nothing happens, and resident memory.
    static func idle(seconds: Int) -> (cpuPercent: Double, rssMB: Double) {
        /// User + system CPU seconds of this process, from /proc/self/stat (fields 14 and 15).
        func cpu() -> Double {
            let stat = (try? String(contentsOfFile: "/proc/self/stat", encoding: .utf8)) ?? ""
            // The command name (field 2) may contain spaces: count fields after its ')'.
            guard let close = stat.lastIndex(of: ")") else { return 0 }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
            return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
        }
        let before = cpu()
        sleep(UInt32(max(seconds, 1)))
        let used = cpu() - before
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let rssKB =
            status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") }
            .flatMap { $0.split(separator: " ").dropFirst().first.flatMap { Double($0) } } ?? 0
        return (used / Double(max(seconds, 1)) * 100, rssKB / 1024)
    }

    static func raiseFileLimit() {
        var limit = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        limit.rlim_cur = limit.rlim_max
        setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }

    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("homefeed-bench serve: \(message)\n".utf8))
        exit(1)
    }
}
