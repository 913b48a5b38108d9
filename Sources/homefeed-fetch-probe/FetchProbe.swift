import CommandTable
import Foundation
import Glibc
import HomeFeeds
import HomeFetch
import HomefeedVersion

/// `homefeed-fetch-probe URL [--max-body BYTES] [--timeout SECONDS] [--low-speed-time SECONDS]
/// [--mode feed|page|image]`: the child process of HomeFetchTests' resource-bound tests. Not for
/// use outside the tests.
///
/// Fetches one URL with a fresh `FeedFetcher` (as a feed, as a service page read for its icons,
/// or as an image stored in a temporary directory) and prints one JSON line with what happened and
/// what it cost this process, measured with its own counters around the fetch alone:
/// `{"outcome", "bytes", "hwmBeforeKiB", "hwmAfterKiB", "cpuMs", "fetchThreadCPUMs"}`. A
/// process of its own keeps other tests' allocations out of the peak (`VmHWM`).
@main
enum FetchProbe {
    struct Report: Encodable {
        var outcome: String
        var bytes: Int
        var hwmBeforeKiB: Int
        var hwmAfterKiB: Int
        var cpuMs: Double
        var fetchThreadCPUMs: Double
    }

    static let command = Command(
        "homefeed-fetch-probe",
        abstract: "fetch one URL and report what it cost this process (a test helper)",
        discussion: """
            The child process of HomeFetchTests' resource-bound tests, not a command for people. It \
            fetches URL with a fresh fetcher and prints one JSON line: the outcome, the body bytes, \
            the peak resident set before and after (KiB) and the CPU time of the process and of the \
            fetch thread (ms).
            """,
        version: homefeedVersion,
        arguments: [Argument("URL", help: "what to fetch")],
        options: [
            .value(
                "--mode",
                "MODE",
                .choice(["feed", "page", "image"]),
                help: "fetch as a feed (default), a page, an image"
            ),
            .value("--max-body", "BYTES", .integer(0...Int.max), help: "the largest body accepted"),
            .value("--timeout", "SECONDS", .number, help: "the whole fetch's time limit"),
            .value("--low-speed-time", "SECONDS", .number, help: "how long a transfer may stall"),
        ],
        exitStatuses: [
            ExitStatusMeaning(ExitStatus.ok, "the report was printed, whatever the fetch's outcome"),
            ExitStatusMeaning(ExitStatus.usage, "usage error"),
        ]
    )

    static func main() async {
        let arguments: ParsedArguments
        switch command.resolve(Array(CommandLine.arguments.dropFirst())) {
        case .exit(let status): exit(status)
        case .run(let parsed): arguments = parsed
        }
        let url = arguments.positionals[0]
        var limits = FetchLimits()
        let mode = arguments.string("--mode") ?? "feed"
        if let bytes = arguments.integer("--max-body") { limits.maxBodyBytes = bytes }
        if let seconds = arguments.double("--timeout") { limits.totalTimeout = seconds }
        if let seconds = arguments.double("--low-speed-time") { limits.lowSpeedTime = seconds }
        let fetcher = FeedFetcher()
        let hwmBefore = peakResidentKiB()
        let cpuBefore = processCPUTime()
        let threadBefore = fetcher._threadCPUTime
        var report = Report(
            outcome: "",
            bytes: 0,
            hwmBeforeKiB: hwmBefore,
            hwmAfterKiB: 0,
            cpuMs: 0,
            fetchThreadCPUMs: 0
        )
        do {
            switch mode {
            case "page":
                let icons = try await fetcher.fetchPageIcons(FetchRequest(url: url, limits: limits))
                report.outcome = icons.isHeadComplete ? "headComplete" : "headIncomplete"
            case "image":
                let directory = "/tmp/hf-probe-\(getpid())"
                mkdir(directory, 0o700)
                defer { rmdir(directory) }
                let download = try await fetcher.fetchImage(FetchRequest(url: url, limits: limits), into: directory)
                if case .fetched(let file, _) = download { unlink(file.path) }
                report.outcome = "fetched"
                report.bytes = download.response.bodyBytes
            default:
                let outcome = try await fetcher.fetch(FetchRequest(url: url, limits: limits))
                report.outcome = if case .fetched = outcome { "fetched" } else { "notModified" }
                report.bytes = outcome.response.bodyBytes
            }
        } catch {
            report.outcome = String(describing: error.kind)
            report.bytes = error.bytesReceived
        }
        report.cpuMs = milliseconds(processCPUTime() - cpuBefore)
        report.fetchThreadCPUMs = milliseconds(fetcher._threadCPUTime - threadBefore)
        report.hwmAfterKiB = peakResidentKiB()
        await fetcher.shutdown()
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        if let line = try? encoder.encode(report) {
            FileHandle.standardOutput.write(line + Data("\n".utf8))
        }
    }

    /// `VmHWM` of /proc/self/status: the peak resident set size so far, in KiB.
    static func peakResidentKiB() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return -1 }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            return Int(line.split(separator: " ").dropFirst().first ?? "") ?? -1
        }
        return -1
    }

    /// User plus system CPU time of the whole process (`getrusage`).
    static func processCPUTime() -> Duration {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        func duration(_ time: timeval) -> Duration { .seconds(time.tv_sec) + .microseconds(time.tv_usec) }
        return duration(usage.ru_utime) + duration(usage.ru_stime)
    }

    static func milliseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) * 1000 + Double(attoseconds) / 1e15
    }
}
