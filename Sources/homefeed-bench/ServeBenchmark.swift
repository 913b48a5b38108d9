import Foundation
import HomeDaemon
import LogCore
import Varlink

#if canImport(Glibc)
    import Glibc
#endif

/// `homefeed-bench serve`: the daemon's serving path in one process — `HomeService`,
/// `io.homefeed` and the Varlink server on a temporary socket, on the sample configuration —
/// then a real `homefeedd` process holding 100 000 notices (``DaemonMemoryBenchmark``).
///
/// Figures, each beside its floor measured in the same run:
/// - `serve.small.*` / `serve.manifest.*`: `GetManifest` p50/p99 for a small reply
///   (`ifNoneMatch` matches: no manifest) and the full manifest over `calls` calls each, and the
///   process CPU per call (client and server) and the server thread's alone, beside a raw
///   Unix-socket echo of the same request and reply sizes (whose server thread is a blocking loop);
/// - `serve.call_p50_us_quiet` / `_loaded`: the small call again, the second time with another
///   process busy-looping (one core of two taken), each beside the echo floor under the same load,
///   and beside `serve.call_epoll_floor_p50_us_*`: the same echo with its server waiting in
///   `epoll_wait` on a non-blocking socket, as any server of many sockets must (``EpollReadiness``);
/// - `serve.push_1000.ms`: from `RecordHistory` to the push arriving at 1 000 subscribers, read
///   on their own thread while the caller waits for its reply (median of ``pushRounds``), beside
///   `serve.record_history.ms` (the same call with no subscriber: making and storing the
///   version; `serve.record_history.cpu_ms`, the process's CPU per such call) and
///   `serve.push_1000.floor_ms` (one thread writing the same bytes to 1 000 raw sockets, read
///   the same way), `serve.push_1000.splice_floor_ms` (the same writes by `tee` and `splice`
///   from a pipe, one of each per socket) and `serve.push_1000.grouped_floor_ms` (by one `tee`
///   per group of sockets and a `splice` each, as the server writes a push of a page or more:
///   the bare C loop it calls, with no Varlink work around it), `serve.push_1000.watched_floor_ms`
///   (the grouped floor with each writing socket watched for `EPOLLIN` by an epoll instance, as
///   the server watches its connections: a subscriber's read then wakes the writing socket's
///   wait queue, which runs epoll's callback), and
///   `serve.push_1000.caller_reply_ms` (when the `RecordHistory` caller had its reply during
///   those rounds: the loop's push lane lets it through after one slice of the fan-out), and
///   the push's own floor, `serve.push_1000.version_floor_ms` (`RecordHistory` alone plus the
///   lowest raw fan-out), with `serve.push_1000.ratio`, the push over it; then
///   `serve.push_1000.paused_ms` and `serve.push_1000.paused_watched_floor_ms`, the push and the
///   watched floor again with the cores left idle for ``roundPause`` after each round, as between
///   versions on a device; then `serve.push_1000.sequenced_floor_ms`, the push's own order of
///   work with the grouped fan-out in place of the daemon's (``sequencedFloor(count:bytes:client:)``),
///   its versions alone (`sequenced_version_ms`) and the push over it (`sequenced_ratio`);
/// - `serve.report_to_push.ms` (issue 10): from a `ReportSizes` that moves frames to 100
///   subscribers holding the re-solved manifest;
/// - `serve.idle.*`: CPU and RSS of this process while idle, then the separate daemon's.
///
/// Goals (issue 17): p50 ≤ 1.25× the echo floor, quiet and loaded; 1 000 subscribers ≤ 5 ms;
/// idle CPU ≈ 0; the idle daemon with 100 000 notices ≤ 30 MB. Issue 10: ReportSizes to 100
/// subscribers ≤ 10 ms.
enum ServeBenchmark {
    /// Rounds of the push, of `RecordHistory` alone and of each fan-out floor: a median of 15,
    /// since one round of a few milliseconds can meet a scheduling delay of as many (a median
    /// of 5 moved by a millisecond from run to run).
    static let pushRounds = 15

    /// The pause after each round of the paused push and its floor (µs): as versions come
    /// apart on a device, the cores go idle between them. With rounds back to back the bench
    /// keeps them warm, and the push's absolute time follows that warmth as its floors do
    /// (docs/varlink.md, stop 52).
    static let roundPause: UInt32 = 20_000

    /// - Parameters:
    ///   - onlyCalls: measure the small call (quiet) and nothing else, for a profiler.
    ///   - withFloors: with `onlyCalls`, also the call loaded and the echo floors, quiet and
    ///     loaded (``callFigures(socket:_:quiet:floor:directory:calls:)``).
    ///   - onlyPush: measure RecordHistory and the push to 1 000 subscribers and nothing else,
    ///     for a profiler.
    static func run(
        calls: Int = 100_000,
        idleSeconds: Int = 60,
        daemon: String? = nil,
        onlyCalls: Bool = false,
        withFloors: Bool = false,
        onlyPush: Bool = false
    ) {
        raiseFileLimit()
        let directory = Measure.temporaryDirectory("/tmp/hfs.XXXXXX")
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
        if onlyCalls {
            let served = measure(socket: socket, small, calls: calls)
            Measure.report("serve.small.server_cpu_us", served.serverCPU, "us")
            if withFloors {
                let floor = measureFloor(
                    call: small,
                    replySize: served.replySize,
                    path: directory + "/floor-small.sock",
                    calls: calls
                )
                let summary = callFigures(
                    socket: socket,
                    small,
                    quiet: served,
                    floor: floor.p50,
                    directory: directory,
                    calls: calls
                )
                print(
                    "# quiet: p50 \(String(format: "%.2f", served.p50 / floor.p50))× the echo floor; " + summary
                )
            } else {
                Measure.report("serve.call_p50_us_quiet", served.p50, "us")
            }
            Measure.blocking { await server.shutdown() }
            return
        }
        if onlyPush {
            measurePush(socket: socket, client: client, replySize: fullReplySize(socket: socket))
            Measure.blocking { await server.shutdown() }
            return
        }
        let full = VarlinkCall(method: "io.homefeed.GetManifest", parameters: ["profile": "phone"])
        var summary: [String] = []
        var manifestSize = 0
        for (name, call) in [("small", small), ("manifest", full)] {
            let served = measure(socket: socket, call, calls: calls)
            let floor = measureFloor(
                call: call,
                replySize: served.replySize,
                path: directory + "/floor-\(name).sock",
                calls: calls
            )
            if name == "manifest" { manifestSize = served.replySize }
            Measure.report("serve.\(name).p50_us", served.p50, "us")
            Measure.report("serve.\(name).p99_us", served.p99, "us")
            Measure.report("serve.\(name).floor_p50_us", floor.p50, "us")
            Measure.report("serve.\(name).cpu_us", served.cpu, "us")
            Measure.report("serve.\(name).floor_cpu_us", floor.cpu, "us")
            Measure.report("serve.\(name).server_cpu_us", served.serverCPU, "us")
            Measure.report("serve.\(name).floor_server_cpu_us", floor.serverCPU, "us")
            summary.append(
                String(
                    format: "%@ %d B: p50 %.1f µs = %.2f× floor %.1f µs, CPU %.1f µs/call = %.2f× floor "
                        + "(server thread %.1f µs = %.2f× the echo thread's)",
                    name,
                    served.replySize,
                    served.p50,
                    served.p50 / floor.p50,
                    floor.p50,
                    served.cpu,
                    served.cpu / floor.cpu,
                    served.serverCPU,
                    served.serverCPU / floor.serverCPU
                )
            )
            if name == "small" {
                summary.append(
                    callFigures(
                        socket: socket,
                        call,
                        quiet: served,
                        floor: floor.p50,
                        directory: directory,
                        calls: calls
                    )
                )
            }
        }

        let (recordHistory, recordHistoryCPU, push, callerReply, pushFloor, sequencedFloor) = measurePush(
            socket: socket,
            client: client,
            replySize: manifestSize
        )
        summary.append(
            String(
                format: "push to 1000 subscribers %.1f ms (RecordHistory alone %.1f ms using %.1f ms of CPU, "
                    + "its reply during the push %.1f ms; raw fan-out floor, the lowest of send, splice and grouped "
                    + "splice, %.1f ms; a version then the grouped splice fan-out, in the push's order, %.1f ms: "
                    + "the push %.2f× it)",
                push,
                recordHistory,
                recordHistoryCPU,
                callerReply,
                pushFloor,
                sequencedFloor,
                push / sequencedFloor
            )
        )
        if recordHistory + pushFloor > 5 {
            // The push is timed from the RecordHistory call, so it contains making and storing
            // the version; below that sum no serving code can go.
            summary.append(
                String(
                    format: "the push's floor here is RecordHistory %.1f ms + raw fan-out %.1f ms = %.1f ms "
                        + "(%.2f× it), already above the 5 ms goal: one thread's 1 000 writes of %d B and "
                        + "the reader's 1 000 reads take that long on this machine without any Varlink work",
                    recordHistory,
                    pushFloor,
                    recordHistory + pushFloor,
                    push / (recordHistory + pushFloor),
                    manifestSize
                )
            )
        }
        if sequencedFloor > 5 {
            summary.append(
                String(
                    format: "the push's floor in its own order, a version and then the grouped splice fan-out, is "
                        + "%.1f ms, already above the 5 ms goal",
                    sequencedFloor
                )
            )
        }
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
            "# goals (issue 17): p50 ≤ 1.25× the raw round trip, quiet and loaded; 1 000 subscribers ≤ 5 ms; "
                + "idle CPU ≈ 0; (issue 10) ReportSizes to 100 subscribers ≤ 10 ms"
        )
        Measure.blocking { await server.shutdown() }
        DaemonMemoryBenchmark.run(idleSeconds: idleSeconds, daemon: daemon)
    }

    /// `serve.call_p50_us_quiet` (`quiet`, measured) and `_loaded` (measured here, with a busy
    /// loop on the other core), each beside the blocking echo floor (`floor` when quiet) and
    /// the epoll echo floor under the same load; reported, and summarised for the `#` line.
    static func callFigures(
        socket: String,
        _ call: VarlinkCall,
        quiet: (p50: Double, p99: Double, cpu: Double, serverCPU: Double, replySize: Int),
        floor: Double,
        directory: String,
        calls: Int
    ) -> String {
        let epollFloor = measureFloor(
            call: call,
            replySize: quiet.replySize,
            path: directory + "/floor-e.sock",
            calls: calls,
            epoll: true
        )
        Measure.report("serve.call_p50_us_quiet", quiet.p50, "us")
        Measure.report("serve.call_floor_p50_us_quiet", floor, "us")
        Measure.report("serve.call_epoll_floor_p50_us_quiet", epollFloor.p50, "us")
        Measure.report("serve.small.epoll_floor_server_cpu_us", epollFloor.serverCPU, "us")
        let busy = BusyLoop()
        let (loaded, loadedFloor, loadedEpollFloor) = loadedCallFigures(
            socket: socket,
            call,
            replySize: quiet.replySize,
            directory: directory,
            calls: calls
        )
        busy.stop()
        Measure.report("serve.call_p50_us_loaded", loaded, "us")
        Measure.report("serve.call_floor_p50_us_loaded", loadedFloor, "us")
        Measure.report("serve.call_epoll_floor_p50_us_loaded", loadedEpollFloor, "us")
        let worked = workedFloors(
            call,
            replySize: quiet.replySize,
            work: max(0, loaded - loadedEpollFloor),
            directory: directory,
            calls: calls
        )
        return String(
            format: "quiet: p50 %.2f× the epoll echo's %.1f µs (server thread %.1f µs)"
                + "; with a busy loop: p50 %.1f µs = %.2f× floor %.1f µs, %.2f× the epoll echo's %.1f µs; "
                + "quiet, the epoll echo spending the call's own %.2f µs (loaded, beyond the epoll echo) "
                + "between read and write: p50 %.1f µs = %.2f× the echo, the call %.2f× it; "
                + "spending a quarter of it: p50 %.1f µs = %.2f× the echo",
            quiet.p50 / epollFloor.p50,
            epollFloor.p50,
            epollFloor.serverCPU,
            loaded,
            loaded / loadedFloor,
            loadedFloor,
            loaded / loadedEpollFloor,
            loadedEpollFloor,
            worked.work,
            worked.whole,
            worked.whole / floor,
            quiet.p50 / worked.whole,
            worked.quarter,
            worked.quarter / floor
        )
    }

    /// Round trips in this run's conditions, as the busy loop leaves them: `call` to the daemon,
    /// and the same sizes to a blocking and an epoll echo server, taken in turns, a block of
    /// ``loadedBlock`` of each at a time, until each has had `calls`. The p50 of each, in µs.
    ///
    /// Why in turns: measured one after the other, the three met different placements of the
    /// threads beside the busy loop, and ten runs of one binary gave 1.11–1.41× the echo (stop
    /// 36). Taken in turns, a slow or fast spell reaches all three alike. Not the quiet figures:
    /// on an idle machine each server thread keeps its own place, on the client's core or the
    /// other, so three servers in turns gave p50s of 11 µs beside 60 µs at random, where each
    /// measured alone wakes across cores alike (1.01–1.03× at stop 35).
    static func loadedCallFigures(
        socket: String,
        _ call: VarlinkCall,
        replySize: Int,
        directory: String,
        calls: Int
    ) -> (call: Double, floor: Double, epollFloor: Double) {
        let requestSize = call.framed.count
        let servers = [false, true].map { epoll in
            EchoFloorServer(
                path: directory + (epoll ? "/floor-le.sock" : "/floor-l.sock"),
                requestSize: requestSize,
                replySize: replySize,
                epoll: epoll
            )
        }
        let floorFDs = servers.map { $0.connect() }
        var daemon = RawCallRoundTrip(socket: socket, call)
        var echo = EchoRoundTrip(requestSize: requestSize, replySize: replySize)
        var samples: [[UInt64]] = Array(repeating: [], count: 3)
        for index in samples.indices { samples[index].reserveCapacity(calls + loadedBlock) }
        daemon.warmUp(count: VarlinkBenchmark.warmup)
        for fd in floorFDs { echo.warmUp(fd, count: VarlinkBenchmark.warmup) }
        // Each turn starts with the next of the three, so no one always follows the same one.
        var turn = 0
        while samples[0].count < calls {
            for offset in 0..<3 {
                switch (turn + offset) % 3 {
                case 0: daemon.run(count: loadedBlock, into: &samples[0])
                case 1: echo.run(floorFDs[0], count: loadedBlock, into: &samples[1])
                default: echo.run(floorFDs[1], count: loadedBlock, into: &samples[2])
                }
            }
            turn += 1
        }
        for fd in floorFDs { close(fd) }
        for server in servers { _ = server.finish() }
        let p50s = samples.map { VarlinkBenchmark.percentiles($0).p50 }
        return (p50s[0], p50s[1], p50s[2])
    }

    /// Round trips to one server before the next takes its turn
    /// (``loadedCallFigures(socket:_:replySize:directory:calls:)``): long enough that the switch
    /// is a small part of a block, short enough that a run has a few hundred turns.
    static let loadedBlock = 250

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
                let versions = await service.versions()
                // Follows the versions as homefeedd does, for as long as the bench process runs.
                Task {
                    for await _ in versions { await interface.pushCurrentVersion() }
                }
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

    /// Round trips of `call` over a raw socket (``RawCallRoundTrip``), after a warm-up untimed:
    /// p50 and p99 in µs, the process's and the server thread's CPU per call in µs, and the
    /// reply's size in bytes.
    static func measure(
        socket: String,
        _ call: VarlinkCall,
        calls: Int
    ) -> (p50: Double, p99: Double, cpu: Double, serverCPU: Double, replySize: Int) {
        var round = RawCallRoundTrip(socket: socket, call)
        round.warmUp(count: VarlinkBenchmark.warmup)
        var samples: [UInt64] = []
        samples.reserveCapacity(calls)
        let cpuStart = Measure.processCPUSeconds()
        let serverStart = Measure.threadCPUSeconds(named: VarlinkBenchmark.serverThreadName)
        round.run(count: calls, into: &samples)
        let cpu = (Measure.processCPUSeconds() - cpuStart) / Double(calls) * 1e6
        let serverCPU =
            (Measure.threadCPUSeconds(named: VarlinkBenchmark.serverThreadName) - serverStart) / Double(calls) * 1e6
        let (p50, p99) = VarlinkBenchmark.percentiles(samples)
        return (p50, p99, cpu, serverCPU, round.replySize)
    }

    /// The raw echo floor for `call` (``VarlinkBenchmark/measureFloor(requestSize:replySize:path:calls:epoll:work:)``)
    /// and its process CPU per round trip, in µs.
    static func measureFloor(
        call: VarlinkCall,
        replySize: Int,
        path: String,
        calls: Int,
        epoll: Bool = false,
        work: SimulatedWork? = nil
    ) -> (p50: Double, cpu: Double, serverCPU: Double) {
        let start = Measure.processCPUSeconds()
        let floor = VarlinkBenchmark.measureFloor(
            requestSize: call.framed.count,
            replySize: replySize,
            path: path,
            calls: calls,
            epoll: epoll,
            work: work
        )
        let rounds = Double(calls + VarlinkBenchmark.warmup)
        return (floor.p50, (Measure.processCPUSeconds() - start) / rounds * 1e6, floor.serverCPU)
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

    static func fail(_ message: String) -> Never { Measure.fatal("serve: \(message)") }
}
