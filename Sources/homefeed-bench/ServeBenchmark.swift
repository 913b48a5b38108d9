import CSystem
import Dispatch
import Foundation
import HomeDaemon
import LogCore
import Synchronization
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

    /// `RecordHistory` alone, ``pushRounds`` times: the median, in ms, and the process's CPU
    /// time per call (every thread: the daemon's and the client's), in ms. CPU near the wall
    /// time says the version is work, not waiting.
    static func recordHistory(client: VarlinkClient) -> (wall: Double, cpu: Double) {
        let cpuStart = Measure.processCPUSeconds()
        let wall = Measure.median(
            (0..<pushRounds).map { _ in
                milliseconds { callRecordHistory(client) }
            }
        )
        return (wall, (Measure.processCPUSeconds() - cpuStart) / Double(pushRounds) * 1e3)
    }

    /// Records a history event: a new version, pushed to the subscribers there are.
    static func callRecordHistory(_ client: VarlinkClient) {
        do {
            _ = try client.call("io.homefeed.RecordHistory", parameters: ["title": "bench"])
        } catch {
            fail("RecordHistory: \(error)")
        }
    }

    /// Opens `count` raw subscriptions and reads their first reply; then, ``pushRounds`` times,
    /// records a history event and waits until every subscriber has the next reply. The
    /// medians, in ms, of the whole round (from the call to the last subscriber's read) and of
    /// the `RecordHistory` reply within it.
    ///
    /// The subscribers are read on their own thread from before the call, as subscribers that
    /// are not the caller read: not only once the caller has its reply (which made the figure
    /// the caller's reply plus the whole read, rather than the call to the last push). That
    /// thread is made once and waits for the next round's push as soon as it has read one, as a
    /// subscriber process waits: a thread started per round was still starting while the
    /// version was being made, on a core the daemon needed. The floor's reader reads while its
    /// writer writes, the same way (``pushFloor(count:bytes:splicing:watched:pausing:)``). With
    /// `pausing`, each round is followed by ``roundPause``.
    static func pushToSubscribers(
        count: Int,
        socket: String,
        client: VarlinkClient,
        pausing: Bool = false
    ) -> (all: Double, reply: Double) {
        let fds = subscribePhone(count: count, socket: socket)
        defer { for fd in fds { close(fd) } }
        let reader = SubscriberReader(fds)
        reader.waitForOneReply()
        let ready = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        let finished = Mutex<[UInt64]>([])
        Thread {
            ready.signal()
            for _ in 0..<pushRounds {
                reader.waitForOneReply()
                let now = DispatchTime.now().uptimeNanoseconds
                finished.withLock { $0.append(now) }
                done.signal()
            }
        }.start()
        // Started before the first round, not during it.
        ready.wait()
        var replies: [Double] = []
        var rounds: [Double] = []
        for round in 0..<pushRounds {
            let start = DispatchTime.now().uptimeNanoseconds
            callRecordHistory(client)
            replies.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
            done.wait()
            rounds.append(Double(finished.withLock { $0[round] } - start) / 1e6)
            if pausing { usleep(roundPause) }
        }
        return (Measure.median(rounds), Measure.median(replies))
    }

    /// `RecordHistory` alone, the push to 1 000 subscribers (and the caller's reply within it),
    /// and the fan-out floors for replies of `replySize` bytes, by `send`, by `splice`, by
    /// grouped `splice`, and by grouped `splice` to sockets an epoll watches: measured in that
    /// order and reported, in ms; then the paused push and floor, and the sequenced floor
    /// (``sequencedFloor(count:bytes:client:)``). The floor returned is the lowest of the first
    /// three, the raw ones.
    @discardableResult
    static func measurePush(
        socket: String,
        client: VarlinkClient,
        replySize: Int
    ) -> (
        recordHistory: Double, recordHistoryCPU: Double, push: Double, callerReply: Double, floor: Double,
        sequencedFloor: Double
    ) {
        let (recordHistory, recordHistoryCPU) = Self.recordHistory(client: client)
        let (push, callerReply) = pushToSubscribers(count: 1000, socket: socket, client: client)
        let sendFloor = pushFloor(count: 1000, bytes: replySize)
        let spliceFloor = pushFloor(count: 1000, bytes: replySize, splicing: .perSocket)
        let groupedFloor = pushFloor(count: 1000, bytes: replySize, splicing: .grouped)
        let watchedFloor = pushFloor(count: 1000, bytes: replySize, splicing: .grouped, watched: true)
        Measure.report("serve.push_1000.ms", push, "ms")
        Measure.report("serve.push_1000.caller_reply_ms", callerReply, "ms")
        Measure.report("serve.record_history.ms", recordHistory, "ms")
        Measure.report("serve.record_history.cpu_ms", recordHistoryCPU, "ms")
        Measure.report("serve.push_1000.floor_ms", sendFloor, "ms")
        Measure.report("serve.push_1000.splice_floor_ms", spliceFloor, "ms")
        Measure.report("serve.push_1000.grouped_floor_ms", groupedFloor, "ms")
        Measure.report("serve.push_1000.watched_floor_ms", watchedFloor, "ms")
        // Last, so that the figures above are taken as before: the push and the watched floor
        // again with the cores left idle between rounds (``roundPause``).
        let paused = pushToSubscribers(count: 1000, socket: socket, client: client, pausing: true).all
        let pausedFloor = pushFloor(count: 1000, bytes: replySize, splicing: .grouped, watched: true, pausing: true)
        Measure.report("serve.push_1000.paused_ms", paused, "ms")
        Measure.report("serve.push_1000.paused_watched_floor_ms", pausedFloor, "ms")
        // Last too: the push's own order of work, with the raw fan-out in place of the daemon's.
        let sequenced = sequencedFloor(count: 1000, bytes: replySize, client: client)
        Measure.report("serve.push_1000.sequenced_version_ms", sequenced.version, "ms")
        Measure.report("serve.push_1000.sequenced_floor_ms", sequenced.round, "ms")
        Measure.report("serve.push_1000.sequenced_ratio", push / sequenced.round, "x")
        // Timed from the RecordHistory call, the push's own floor is making the version
        // (RecordHistory alone) plus the cheapest raw fan-out: the goal is read beside it.
        let floor = min(sendFloor, spliceFloor, groupedFloor)
        Measure.report("serve.push_1000.version_floor_ms", recordHistory + floor, "ms")
        Measure.report("serve.push_1000.ratio", push / (recordHistory + floor), "x")
        return (recordHistory, recordHistoryCPU, push, callerReply, floor, sequenced.round)
    }

    /// The size of the phone manifest's reply, as the fan-out floor writes it.
    static func fullReplySize(socket: String) -> Int {
        measure(
            socket: socket,
            VarlinkCall(method: "io.homefeed.GetManifest", parameters: ["profile": "phone"]),
            calls: 10
        )
        .replySize
    }

    /// The fan-out floor: a thread writes one `bytes`-long message (NUL-terminated) to each of
    /// `count` socket pairs while this thread reads them as the subscribers are read. The
    /// median of ``pushRounds``, in ms.
    ///
    /// - Parameter splicing: write by `tee` and `splice` from a pipe holding the message
    ///   (``SpliceWriter``), rather than by `send`.
    /// - Parameter watched: the writing sockets are watched for `EPOLLIN` by an epoll instance
    ///   (never waited on), as the server's loop watches every connection for the client's next
    ///   call or its hang-up. A read from a socket whose peer has waiters then runs their
    ///   callbacks: the cost of the watch that a server cannot do without.
    /// - Parameter pausing: wait ``roundPause`` after each round.
    static func pushFloor(
        count: Int,
        bytes: Int,
        splicing: SpliceWriter.Grouping? = nil,
        watched: Bool = false,
        pausing: Bool = false
    ) -> Double {
        Measure.median(
            pushFloorRounds(count: count, bytes: bytes, splicing: splicing, watched: watched, pausing: pausing)
        )
    }

    /// The push's own order of work, with a raw fan-out in place of the daemon's: each round
    /// makes a version (`RecordHistory`, with no subscriber to push to), then writes `bytes` to
    /// `count` sockets by grouped `splice` while they are read. A push round makes its version
    /// right after the previous round's fan-out, and a version made there takes longer than one
    /// made right after another version, as the rounds of `RecordHistory` alone make theirs
    /// (docs/varlink.md, stop 53): this floor is taken in the push's order. The medians, in ms,
    /// of the rounds (the version and the fan-out after it) and of their versions.
    static func sequencedFloor(count: Int, bytes: Int, client: VarlinkClient) -> (round: Double, version: Double) {
        var versions: [Double] = []
        let fanOuts = pushFloorRounds(count: count, bytes: bytes, splicing: .grouped) {
            versions.append(milliseconds { callRecordHistory(client) })
        }
        return (Measure.median(zip(versions, fanOuts).map(+)), Measure.median(versions))
    }

    /// Each round of ``pushFloor(count:bytes:splicing:watched:pausing:)``, in ms, in order;
    /// `beforeRound` runs before each, untimed.
    static func pushFloorRounds(
        count: Int,
        bytes: Int,
        splicing: SpliceWriter.Grouping? = nil,
        watched: Bool = false,
        pausing: Bool = false,
        beforeRound: () -> Void = {}
    ) -> [Double] {
        var writers: [Int32] = []
        var readers: [Int32] = []
        for _ in 0..<count {
            var pair: [Int32] = [0, 0]
            guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0 else {
                fail("socketpair: errno \(errno)")
            }
            writers.append(pair[0])
            readers.append(pair[1])
        }
        defer { for fd in writers + readers { close(fd) } }
        let watcher = watched ? csystem_epoll_create() : -1
        defer { if watcher >= 0 { close(watcher) } }
        if watched {
            guard watcher >= 0 else { fail("epoll_create1: errno \(errno)") }
            for (index, fd) in writers.enumerated()
            where csystem_epoll_ctl(watcher, csystem_epoll_ctl_add(), fd, csystem_epollin(), UInt64(index)) != 0 {
                fail("epoll_ctl: errno \(errno)")
            }
        }
        let reader = SubscriberReader(readers)
        let message = [UInt8](repeating: UInt8(ascii: "x"), count: max(bytes - 1, 0)) + [0]
        // Made once, outside the timed rounds, as the server's pipe is made once per push.
        let spliceWriter = splicing.map { grouping in
            guard let writer = SpliceWriter(message, grouping: grouping) else { fail("splice floor: no pipe") }
            return writer
        }
        // One writer thread for every round, made before them, as the server's loop is.
        let ready = DispatchSemaphore(value: 0)
        let go = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        let snapshot = writers
        Thread {
            ready.signal()
            for _ in 0..<pushRounds {
                go.wait()
                if let writer = spliceWriter {
                    writer.write(to: snapshot)
                } else {
                    for fd in snapshot { _ = VarlinkBenchmark.writeFully(fd, message) }
                }
                done.signal()
            }
        }.start()
        ready.wait()
        return (0..<pushRounds).map { _ in
            beforeRound()
            let elapsed = milliseconds {
                go.signal()
                reader.waitForOneReply()
            }
            done.wait()
            if pausing { usleep(roundPause) }
            return elapsed
        }
    }

    /// Opens `count` raw sockets, each subscribed to the phone manifest (not yet read).
    static func subscribePhone(count: Int, socket: String) -> [Int32] {
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
        return fds
    }

    /// Wall time of `body` in ms.
    static func milliseconds(_ body: () -> Void) -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
    }

    /// Opens `count` raw subscriptions, then reports a new height for the headline 21 times, each
    /// moving the cards below it, and waits until every subscriber has the re-solved
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
        let fds = subscribePhone(count: count, socket: socket)
        defer { for fd in fds { close(fd) } }
        let reader = SubscriberReader(fds)
        reader.waitForOneReply()
        var samples: [Double] = []
        for round in 0..<21 {
            let start = DispatchTime.now().uptimeNanoseconds
            do {
                let sizes: JSONValue = [["id": .string(headline), "height": .double(45 + Double(round))]]
                _ = try client.call("io.homefeed.ReportSizes", parameters: ["profile": "phone", "sizes": sizes])
            } catch {
                fail("ReportSizes: \(error)")
            }
            reader.waitForOneReply()
            samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        }
        return Measure.median(samples)
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

/// Subscriber sockets in one epoll set, registered once (outside any timed region), so that
/// waiting for a push costs O(ready fds) per wake-up rather than O(all fds) as with poll.
/// Sendable: used by one thread at a time (the bench hands it to a reader thread and waits for
/// it before using it again).
final class SubscriberReader: @unchecked Sendable {
    let fds: [Int32]
    private let epoll: Int32
    private var buffer = [UInt8](repeating: 0, count: 1 << 16)
    private var events = [csystem_event](repeating: csystem_event(), count: 256)

    init(_ fds: [Int32]) {
        self.fds = fds
        epoll = csystem_epoll_create()
        guard epoll >= 0 else { ServeBenchmark.fail("epoll_create1: errno \(errno)") }
        for (index, fd) in fds.enumerated()
        where csystem_epoll_ctl(epoll, csystem_epoll_ctl_add(), fd, csystem_epollin(), UInt64(index)) != 0 {
            ServeBenchmark.fail("epoll_ctl: errno \(errno)")
        }
    }

    deinit { close(epoll) }

    /// Reads until each fd has delivered one complete (NUL-terminated) message. A message is
    /// read whole (it is smaller than the buffer), so a finished fd is quiet until the next one.
    func waitForOneReply() {
        var done = [Bool](repeating: false, count: fds.count)
        var remaining = fds.count
        while remaining > 0 {
            let count = csystem_epoll_wait(epoll, &events, Int32(events.count), 10_000)
            guard count > 0 else { ServeBenchmark.fail("subscribers: no message within 10 s") }
            for event in events[..<Int(count)] {
                let index = Int(event.token)
                let n = recv(fds[index], &buffer, buffer.count, 0)
                guard n > 0 else { ServeBenchmark.fail("subscriber closed") }
                // memchr, not `contains`: the reader's own scan is part of every push figure
                // and its floor, and a byte-at-a-time loop over 1 000 manifests costs milliseconds.
                if !done[index], memchr(buffer, 0, n) != nil {
                    done[index] = true
                    remaining -= 1
                }
            }
        }
    }
}

/// Another process spinning on one core (a `sh` loop), for figures measured
/// "loaded": on this 2-core machine it leaves the benchmark one core, as a busy neighbour would.
final class BusyLoop {
    // Spins, and every 10 000 turns (about 20 ms) checks that the bench is still there: a
    // bench that exits on a failure does not leave it spinning. Its standard streams are
    // /dev/null, so it holds no pipe of the bench's open either.
    private let process = BenchChild(
        "/bin/sh",
        ["-c", "i=0; while :; do i=$((i + 1)); if [ $i -ge 10000 ]; then kill -0 $PPID || exit 0; i=0; fi; done"],
        stdout: .null,
        stderr: .null
    )

    func stop() {
        process.terminate()
    }
}

/// Writes one message to many sockets by splicing, for the splice floors of the fan-out
/// (``ServeBenchmark/pushFloor(count:bytes:splicing:watched:pausing:)``): `tee` from a pipe
/// holding the message into a scratch pipe, then `splice` into the socket.
///
/// Sendable: its fields never change once made, and the timed rounds use it one after another
/// (`tee` leaves the source pipe as it is; the scratch pipe is empty between writes).
final class SpliceWriter: Sendable {
    enum Grouping {
        /// A `tee` and a `splice` per socket, each a call from Swift.
        case perSocket
        /// One `tee` of 16 messages per 16 sockets and a `splice` each, in the C loop the server
        /// calls (`csystem_splice_fanout`), from a pipe holding the message as many times as the
        /// server's holds a push of its size (`PipedReply.copies(of:)`: 16 of a manifest, 1 past
        /// 64 KiB).
        case grouped
    }

    private let message: [UInt8]
    private let grouping: Grouping
    private let copies: Int
    private let source: [Int32]
    private let scratch: [Int32]

    /// Nil when the pipes cannot be made or do not take the message.
    init?(_ message: [UInt8], grouping: Grouping) {
        var source: [Int32] = [-1, -1]
        var scratch: [Int32] = [-1, -1]
        guard csystem_pipe_nonblock(&source) == 0 else { return nil }
        guard csystem_pipe_nonblock(&scratch) == 0 else {
            for fd in source { close(fd) }
            return nil
        }
        self.message = message
        self.grouping = grouping
        self.source = source
        self.scratch = scratch
        // As many copies as the server's pipe holds (16 of a manifest), in one write so that
        // they fill its pages; both pipes sized to them.
        copies = grouping == .grouped ? PipedReply.copies(of: message.count) : 1
        let all = Array([[UInt8]](repeating: message, count: copies).joined())
        let size = Int32(all.count)
        let grown = csystem_pipe_capacity(scratch[0], 0) >= size || csystem_pipe_capacity(scratch[0], size) >= size
        guard csystem_pipe_capacity(source[0], size) >= size, grown,
            Glibc.write(source[1], all, all.count) == all.count
        else { return nil }
    }

    deinit { for fd in source + scratch { close(fd) } }

    /// Splices the whole message into each of `fds`; the floor's sockets take every message
    /// whole, and a round with one that does not is not a floor (the bench stops).
    func write(to fds: [Int32]) {
        let count = message.count
        if grouping == .grouped {
            var result = csystem_fanout()
            fds.withUnsafeBufferPointer {
                csystem_splice_fanout(
                    source[0],
                    scratch[0],
                    scratch[1],
                    UInt(count),
                    copies,
                    $0.baseAddress,
                    $0.count,
                    &result
                )
            }
            guard result.written == fds.count else { ServeBenchmark.fail("grouped splice floor: \(result)") }
            return
        }
        for fd in fds {
            guard csystem_tee(source[0], scratch[1], UInt(count)) == count,
                csystem_splice(scratch[0], fd, UInt(count)) == count
            else { ServeBenchmark.fail("splice floor: errno \(errno)") }
        }
    }
}
