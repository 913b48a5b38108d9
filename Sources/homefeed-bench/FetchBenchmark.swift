import Foundation
import Glibc
import HomeFetch

/// `homefeed-bench fetch`: 200 HTTP sources on a loopback server, fetched and then revalidated
/// (all `304`) by `FeedFetcher`, beside the `curl` command-line tool fetching the same 200 URLs
/// with `--parallel` in the same run; then what a gzip bomb and a stalled server cost.
///
/// Both clients get 16 connections to the one host. Goals (the libcurl issue): revalidating 200
/// sources within 1.5× of the curl CLI; a bomb's peak RSS ≤ 64 MB above idle; a 5 s stall
/// ≤ 50 ms of CPU.
enum FetchBenchmark {
    static let sources = 200
    static let connections = 16
    static let runs = 7

    static func run() {
        let server: BenchHTTPServer
        do {
            server = try BenchHTTPServer()
        } catch {
            Measure.fatal("\(error)")
        }
        // Memory and CPU first, while the process is still small and idle.
        let bomb = measureBomb(server)
        let stallCPU = measureStall(server)

        let fetcher = FeedFetcher(
            configuration: FeedFetcher.Configuration(
                maxConnectionsPerHost: connections,
                maxTotalConnections: connections
            )
        )
        let urls = (0..<sources).map { server.url("/feed/\($0)") }
        let first = Measure.median(runs: runs) { fetchAll(fetcher, urls, validators: HTTPValidators()) } / 1e6
        let revalidate =
            Measure.median(runs: runs) { fetchAll(fetcher, urls, validators: HTTPValidators(etag: "\"v1\"")) } / 1e6
        Measure.blocking { await fetcher.shutdown() }
        let curlFirst = curlCLI(urls, revalidate: false)
        let curlRevalidate = curlCLI(urls, revalidate: true)

        Measure.report("fetch.first_200.ms", first, "ms")
        Measure.report("fetch.revalidate_200.ms", revalidate, "ms")
        if let curlRevalidate, let curlFirst {
            Measure.report("fetch.curl_cli_200.ms", curlRevalidate, "ms")
            Measure.report("fetch.curl_cli_first_200.ms", curlFirst, "ms")
        }
        Measure.report("fetch.bomb.peak_rss_mb", bomb.growthMB, "MB")
        Measure.report("fetch.bomb.idle_rss_mb", bomb.idleMB, "MB")
        Measure.report("fetch.stall.cpu_ms", stallCPU, "ms")
        if let curlRevalidate, let curlFirst {
            print(
                String(
                    format:
                        "# fetch: 200 sources first %.1f ms (curl CLI %.1f ms), revalidated %.1f ms = %.2f× the curl CLI (%.1f ms)",
                    first,
                    curlFirst,
                    revalidate,
                    revalidate / curlRevalidate,
                    curlRevalidate
                )
            )
        } else {
            print("# fetch: the curl CLI is not installed (apt-get install curl): no peer figures")
        }
        print(
            String(
                format:
                    "# fetch: gzip bomb cut at 15 MiB with peak RSS %.1f MB above idle (%.1f MB); 5 s stall used %.1f ms CPU",
                bomb.growthMB,
                bomb.idleMB,
                stallCPU
            )
        )
        print("# goals: revalidation ≤ 1.5× the curl CLI; bomb ≤ 64 MB above idle; stall ≤ 50 ms CPU over 5 s")
    }

    /// Fetches every URL at once and waits for all; any failure ends the benchmark.
    private static func fetchAll(_ fetcher: FeedFetcher, _ urls: [String], validators: HTTPValidators) {
        Measure.blocking {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for url in urls {
                    group.addTask {
                        let outcome = try await fetcher.fetch(FetchRequest(url: url, validators: validators))
                        switch (outcome, validators.isEmpty) {
                        case (.fetched, true), (.notModified, false): break
                        default: throw BenchError("\(url): unexpected \(outcome)")
                        }
                    }
                }
                try await group.waitForAll()
            }
        }
    }

    /// Peak RSS growth of this process while a fresh fetcher takes a gzip bomb with the
    /// daemon's default cap (15 MiB after decompression).
    private static func measureBomb(_ server: BenchHTTPServer) -> (growthMB: Double, idleMB: Double) {
        let fetcher = FeedFetcher()
        // The peak so far (earlier benchmarks of `all`, in this process) is not the bomb's:
        // start the peak again from the current RSS.
        if !resetPeakResident() { print("# fetch.bomb: cannot reset VmHWM; the growth is a lower bound") }
        let idle = peakResidentKiB()
        let kind = Measure.blocking { () -> FetchError.Kind? in
            do throws(FetchError) {
                _ = try await fetcher.fetch(FetchRequest(url: server.url("/bomb")))
                return nil
            } catch {
                return error.kind
            }
        }
        guard kind == .bodyTooLarge else {
            Measure.fatal("bomb: expected bodyTooLarge, got \(String(describing: kind))")
        }
        let peak = peakResidentKiB()
        Measure.blocking { await fetcher.shutdown() }
        return (Double(peak - idle) / 1024, Double(idle) / 1024)
    }

    /// CPU time of the whole process while one transfer stalls for 5 s (the total timeout).
    private static func measureStall(_ server: BenchHTTPServer) -> Double {
        let fetcher = FeedFetcher()
        var limits = FetchLimits()
        limits.totalTimeout = 5
        limits.lowSpeedTime = 60
        let request = FetchRequest(url: server.url("/stall"), limits: limits)
        let before = processCPUMilliseconds()
        let kind = Measure.blocking { () -> FetchError.Kind? in
            do throws(FetchError) {
                _ = try await fetcher.fetch(request)
                return nil
            } catch {
                return error.kind
            }
        }
        let used = processCPUMilliseconds() - before
        guard kind == .timedOut else { Measure.fatal("stall: expected timedOut, got \(String(describing: kind))") }
        Measure.blocking { await fetcher.shutdown() }
        return used
    }

    /// The median wall time of `curl --parallel` fetching `urls` (with `If-None-Match: "v1"`
    /// when revalidating), in ms; nil without a curl binary.
    private static func curlCLI(_ urls: [String], revalidate: Bool) -> Double? {
        guard
            let curl = ["/usr/bin/curl", "/bin/curl"].first(where: { FileManager.default.isExecutableFile(atPath: $0) })
        else { return nil }
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("hf-bench-curl-\(getpid()).conf")
        let lines = urls.map { "url = \"\($0)\"\noutput = \"/dev/null\"" }
        do {
            try lines.joined(separator: "\n").write(to: config, atomically: true, encoding: .utf8)
        } catch {
            Measure.fatal("curl config: \(error)")
        }
        defer { try? FileManager.default.removeItem(at: config) }
        var arguments = [
            "--silent", "--fail", "--parallel", "--parallel-max", String(connections), "--config", config.path,
        ]
        if revalidate { arguments += ["--header", "If-None-Match: \"v1\""] }
        return Measure.median(runs: runs) {
            // --parallel draws its progress meter even with --silent.
            BenchChild(curl, arguments, stdout: .null, stderr: .null).waitForSuccess("curl")
        } / 1e6
    }

    /// Sets this process's VmHWM to its current RSS (`echo 5 > /proc/self/clear_refs`, Linux 4.0+).
    private static func resetPeakResident() -> Bool {
        let fd = open("/proc/self/clear_refs", O_WRONLY)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return write(fd, "5", 1) == 1
    }

    private static func peakResidentKiB() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
        }
        return 0
    }

    private static func processCPUMilliseconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        let user = Double(usage.ru_utime.tv_sec) * 1000 + Double(usage.ru_utime.tv_usec) / 1000
        let system = Double(usage.ru_stime.tv_sec) * 1000 + Double(usage.ru_stime.tv_usec) / 1000
        return user + system
    }
}
