import Foundation
import Varlink

#if canImport(Glibc)
    import Glibc
#endif

/// `homefeed-bench serve`, last part: the resident memory of a real `homefeedd`, a process of
/// its own, holding 100 000 notices (issue 17).
///
/// 100 local RSS feeds of 1 000 items each (the parse benchmark's generator, ~550 bytes an
/// item) are listed in a configuration next to the sample layout; the daemon built beside this
/// benchmark ingests them, then idles. Figures: `serve.idle.daemon_rss_mb` (VmRSS after the
/// idle period, with its anonymous and file-backed parts and the peak), beside the floor
/// `serve.idle.daemon_restarted_rss_mb`: the same binary restarted with `--no-fetch` on the
/// same store, idle for as long, which holds no ingest state at all. Goal: ≤ 30 MB.
///
/// The idle daemon has paged its read-only code out (`MemoryRelief`), so the figures go on past
/// the idle period: `serve.idle.first_call_us`, the first `GetManifest` on a new connection
/// after it (code faulted back in) beside `serve.idle.first_call_resident_us`, the same before
/// the idle period, and `serve.idle.next_call_p50_us`, the calls after; and
/// `serve.idle.daemon_rss_serving_mb`, the RSS once 1 000 calls (the phone manifest) have been served, with
/// `serve.idle.daemon_pss_mb` (the shared libraries' pages divided among the processes mapping
/// them: the daemon's fair share of the machine's memory).
enum DaemonMemoryBenchmark {
    static let feeds = 100
    static let itemsPerFeed = 1_000

    struct Memory {
        var rss = 0.0
        var anon = 0.0
        var file = 0.0
        var peak = 0.0
        var pss = 0.0
        var cpuPercent = 0.0
    }

    /// - Parameter daemon: the `homefeedd` to run; by default the one next to this executable.
    static func run(idleSeconds: Int, daemon: String? = nil) {
        let executable =
            daemon
            ?? URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("homefeedd").path
        guard FileManager.default.isExecutableFile(atPath: executable) else {
            print("# serve.idle.daemon_rss_mb: skipped, no homefeedd at \(executable) (make bench builds it)")
            return
        }
        let directory = Measure.temporaryDirectory("/tmp/hfm.XXXXXX")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        writeConfiguration(in: directory)
        let arguments = [
            "--config", directory + "/config", "--state-dir", directory + "/state", "--cache-dir",
            directory + "/cache", "--socket", directory + "/d.sock", "--log-level", "warning",
        ]

        let ingesting = BenchChild(executable, arguments, stdout: .null)
        waitForNotices(socket: directory + "/d.sock", count: feeds * itemsPerFeed, process: ingesting)
        // Within the relief's 2 s quiet period after GetStatus: the code is still resident.
        let resident = serve(calls: 100, socket: directory + "/d.sock", process: ingesting)
        let afterIngest = idleMemory(of: ingesting, seconds: idleSeconds)
        let serving = serve(calls: 1_000, socket: directory + "/d.sock", process: ingesting)
        ingesting.terminate()

        let restarted = BenchChild(executable, arguments + ["--no-fetch"], stdout: .null)
        waitForNotices(socket: directory + "/d.sock", count: feeds * itemsPerFeed, process: restarted)
        let floor = idleMemory(of: restarted, seconds: idleSeconds)
        restarted.terminate()

        Measure.report("serve.idle.daemon_rss_mb", afterIngest.rss, "MB")
        Measure.report("serve.idle.daemon_rss_anon_mb", afterIngest.anon, "MB")
        Measure.report("serve.idle.daemon_rss_file_mb", afterIngest.file, "MB")
        Measure.report("serve.idle.daemon_hwm_mb", afterIngest.peak, "MB")
        Measure.report("serve.idle.daemon_cpu_pct", afterIngest.cpuPercent, "%")
        Measure.report("serve.idle.daemon_pss_mb", afterIngest.pss, "MB")
        Measure.report("serve.idle.first_call_us", serving.firstCall, "us")
        Measure.report("serve.idle.first_call_resident_us", resident.firstCall, "us")
        Measure.report("serve.idle.next_call_p50_us", serving.nextCallsP50, "us")
        Measure.report("serve.idle.daemon_rss_serving_mb", serving.memory.rss, "MB")
        Measure.report("serve.idle.daemon_pss_serving_mb", serving.memory.pss, "MB")
        Measure.report("serve.idle.daemon_restarted_rss_mb", floor.rss, "MB")
        Measure.report("serve.idle.daemon_restarted_rss_anon_mb", floor.anon, "MB")
        print(
            String(
                format: "# homefeedd with %d notices, idle %d s after ingesting: RSS %.1f MB (anon %.1f + file %.1f, "
                    + "peak %.1f), CPU %.2f %%; restarted with --no-fetch: RSS %.1f MB (anon %.1f)",
                feeds * itemsPerFeed,
                idleSeconds,
                afterIngest.rss,
                afterIngest.anon,
                afterIngest.file,
                afterIngest.peak,
                afterIngest.cpuPercent,
                floor.rss,
                floor.anon
            )
        )
        print(
            String(
                format: "# then serving: first call %.0f µs (%.0f µs before the idle period, code resident), the next "
                    + "%.0f µs (p50); after 1 000 calls RSS %.1f MB (PSS %.1f; idle PSS %.1f)",
                serving.firstCall,
                resident.firstCall,
                serving.nextCallsP50,
                serving.memory.rss,
                serving.memory.pss,
                afterIngest.pss
            )
        )
        print("# goal (issue 17): the idle daemon with 100 000 notices stored ≤ 30 MB")
    }

    /// The sample layout and settings, and a sources list of 100 generated local feeds.
    static func writeConfiguration(in directory: String) {
        let config = directory + "/config"
        do {
            try FileManager.default.createDirectory(atPath: config + "/feeds", withIntermediateDirectories: true)
            for name in ["homefeedd.conf", "layout.json"] {
                try FileManager.default.copyItem(atPath: "feeds/" + name, toPath: config + "/" + name)
            }
            var outlines = ""
            // Dated from now back, one a minute, so the store's age limit keeps all of them.
            let now = Int(Date().timeIntervalSince1970)
            for index in 0..<feeds {
                var generator = FeedGenerator(seed: 0x5EED_0000 + UInt64(index))
                let name = "feeds/feed-\(index).xml"
                let body = generator.rss(items: itemsPerFeed, newest: now)
                try Data(body).write(to: URL(fileURLWithPath: config + "/" + name))
                outlines += "    <outline type=\"rss\" text=\"Feed \(index)\" xmlUrl=\"\(name)\"/>\n"
            }
            let opml = """
                <?xml version="1.0" encoding="UTF-8"?>
                <opml version="2.0"><head><title>bench</title></head><body>
                \(outlines)</body></opml>

                """
            try Data(opml.utf8).write(to: URL(fileURLWithPath: config + "/sources.opml"))
        } catch {
            ServeBenchmark.fail("daemon configuration: \(error) (run from the package root)")
        }
    }

    /// Polls `GetStatus` until the store holds `count` notices (at most 5 minutes).
    static func waitForNotices(socket: String, count: Int, process: BenchChild) {
        let deadline = Date().addingTimeInterval(300)
        var seen = -1
        while Date() < deadline {
            guard process.isRunning else { ServeBenchmark.fail("homefeedd \(process.wait())") }
            if let client = try? VarlinkClient(connectingTo: .path(socket)) {
                seen = (try? client.call("io.homefeed.GetStatus"))?["notices"]?.intValue ?? seen
                client.close()
                if seen >= count { return }
            }
            usleep(200_000)
        }
        process.terminate()
        ServeBenchmark.fail("homefeedd stored \(seen) of \(count) notices in 5 minutes")
    }

    /// Memory after `seconds` of idleness, and CPU used meanwhile, from /proc/PID.
    static func idleMemory(of process: BenchChild, seconds: Int) -> Memory {
        let pid = process.pid
        let before = cpuSeconds(pid)
        sleep(UInt32(max(seconds, 1)))
        let used = cpuSeconds(pid) - before
        var memory = memory(of: pid)
        memory.cpuPercent = used / Double(max(seconds, 1)) * 100
        return memory
    }

    /// VmRSS and its parts, the peak (/proc/PID/status) and PSS (/proc/PID/smaps_rollup), in MB.
    static func memory(of pid: Int32) -> Memory {
        // Each file read once: the status figures come from one snapshot and add up.
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        let rollup = (try? String(contentsOfFile: "/proc/\(pid)/smaps_rollup", encoding: .utf8)) ?? ""
        func megabytes(_ key: String, in text: String) -> Double {
            let line = text.split(separator: "\n").first { $0.hasPrefix(key + ":") }
            return (line?.split(separator: " ").dropFirst().first.flatMap { Double($0) } ?? 0) / 1024
        }
        return Memory(
            rss: megabytes("VmRSS", in: status),
            anon: megabytes("RssAnon", in: status),
            file: megabytes("RssFile", in: status),
            peak: megabytes("VmHWM", in: status),
            pss: megabytes("Pss", in: rollup)
        )
    }

    /// `calls` `GetManifest` calls (the phone manifest) on one connection, the first timed alone: the time and
    /// memory of serving again after the idle period.
    static func serve(
        calls: Int,
        socket: String,
        process: BenchChild
    ) -> (firstCall: Double, nextCallsP50: Double, memory: Memory) {
        var times: [Double] = []
        do {
            let client = try VarlinkClient(connectingTo: .path(socket))
            defer { client.close() }
            for _ in 0..<calls {
                let start = DispatchTime.now().uptimeNanoseconds
                _ = try client.call("io.homefeed.GetManifest", parameters: ["profile": "phone"])
                times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1000)
            }
        } catch {
            process.terminate()
            ServeBenchmark.fail("GetManifest after the idle period: \(error)")
        }
        return (times[0], Measure.median(Array(times.dropFirst())), memory(of: process.pid))
    }

    /// User + system CPU seconds of `pid` (/proc/PID/stat fields 14 and 15).
    static func cpuSeconds(_ pid: Int32) -> Double {
        let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
        // The command name (field 2) may contain spaces: count fields after its ')'.
        guard let close = stat.lastIndex(of: ")") else { return 0 }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }
}
