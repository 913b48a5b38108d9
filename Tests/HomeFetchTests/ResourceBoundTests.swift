import Foundation
import HomeFetch
import TestSupport
import Testing

/// What hostile transfers cost: peak memory and CPU, measured with the counters of a process
/// that does nothing but the fetch (`homefeed-fetch-probe`: `VmHWM`, `getrusage`), never with
/// wall time. The URLSession fetcher these replace reached 8.9 GB for a gzip bomb and 86 % of
/// a core on a silent server.
@Suite(.timeLimit(.minutes(2)))
struct ResourceBoundTests {
    @Test(
        "a compression bomb or an endless body grows the peak RSS by less than 64 MiB",
        arguments: ["gzipbomb", "deflatebomb", "endless"]
    )
    func memory(_ path: String) async throws {
        let server = try await FixtureServer.shared.value
        // The daemon's default cap: 15 MiB after decompression.
        let report = try await FetchProbeRun.run([server.url("/\(path)/\(FetchTesting.key())")])
        #expect(report.outcome == "bodyTooLarge")
        #expect(report.bytes > 15 << 20)
        let growthKiB = report.hwmAfterKiB - report.hwmBeforeKiB
        #expect(report.hwmBeforeKiB > 0)
        #expect(growthKiB < 64 << 10, "peak RSS grew by \(growthKiB) KiB")
    }

    @Test("a transfer stalled for 5 s costs under 0.2 s of CPU")
    func stallCPU() async throws {
        let server = try await FixtureServer.shared.value
        let report = try await FetchProbeRun.run(
            [server.url("/stall/\(FetchTesting.key())"), "--timeout", "5", "--low-speed-time", "60"]
        )
        #expect(report.outcome == "timedOut")
        #expect(report.cpuMs < 200, "the fetch used \(report.cpuMs) ms of CPU while stalled")
        #expect(report.fetchThreadCPUMs < 200)
    }

    @Test("a silent server and a trickle cost the fetch thread almost nothing")
    func silentServerThreadCPU() async throws {
        // A fetcher of its own: its thread's CPU clock counts only these transfers.
        let fetcher = FeedFetcher()
        let before = fetcher._threadCPUTime
        async let silent = FetchTesting.fetchError(
            "/stallhead/\(FetchTesting.key())",
            limits: FetchTesting.quickLimits(totalTimeout: 5),
            fetcher: fetcher
        )
        async let trickle = FetchTesting.fetchError(
            "/trickle/\(FetchTesting.key())",
            limits: FetchTesting.quickLimits(totalTimeout: 5),
            fetcher: fetcher
        )
        let (silentError, trickleError) = try await (silent, trickle)
        let used = fetcher._threadCPUTime - before
        await fetcher.shutdown()
        #expect(silentError.kind == .timedOut)
        #expect(trickleError.kind == .timedOut)
        #expect(used < .milliseconds(200), "the fetch thread used \(used) over 5 s")
    }
}

/// Runs `homefeed-fetch-probe` and decodes its report. Blocking waits run on a thread of their own,
/// never on the cooperative pool.
enum FetchProbeRun {
    struct Report: Decodable, Sendable {
        var outcome: String
        var bytes: Int
        var hwmBeforeKiB: Int
        var hwmAfterKiB: Int
        var cpuMs: Double
        var fetchThreadCPUMs: Double
    }

    static let executable = BuiltProducts.path("homefeed-fetch-probe")

    static func run(_ arguments: [String]) async throws -> Report {
        let output = try await offPool {
            let probe = try ChildProcess.run(executable, arguments)
            guard probe.status == 0 else {
                throw FixtureError("homefeed-fetch-probe exited \(probe.status): \(probe.stderrText)")
            }
            return Data(probe.stdout)
        }
        return try JSONDecoder().decode(Report.self, from: output)
    }
}
