import CommandTable
import Foundation
import HomefeedVersion
import SystemCalls

/// `homefeed-bench`: measurements, never part of `swift test`.
///
/// Each benchmark prints one line per figure, `figure<TAB>value<TAB>unit`, next to the floor
/// or peer measured in the same run, then a short human summary. Run in release:
/// `swift run -c release homefeed-bench layout`. Each benchmark is a subcommand of ``command``.
@main
enum HomefeedBench {
    static let command = Command(
        "homefeed-bench",
        abstract: "homefeed's benchmarks, each beside its floor measured in the same run",
        discussion: """
            Runs one benchmark (or all) and prints one line per figure, figure<TAB>value<TAB>unit, beside \
            the floor or peer measured in the same run, then a short summary. Build in release: \
            swift run -c release homefeed-bench NAME.
            """,
        version: homefeedVersion,
        subcommands: [
            CommandGroup(
                "benchmarks",
                [
                    Command(
                        "layout",
                        abstract: """
                            solve the home screen at 375, 390 and 820 wide, and a two-column grid of 10 000 and \
                            100 000 items, beside a raw frame-writing floor
                            """,
                        options: [specOption],
                        body: { arguments throws(UsageError) in
                            LayoutBenchmark.run(specPath: spec(arguments))
                            return ExitStatus.ok
                        }
                    ),
                    Command(
                        "parse",
                        abstract:
                            "20 000-item RSS and Atom feeds (~11 MB each): full parse beside the raw libxml2 SAX2 floor",
                        options: [
                            .value(
                                "--only",
                                "DOCUMENT",
                                .choice(ParseBenchmark.documents),
                                help: "measure one document (for a profiler) instead of both"
                            ),
                            .value(
                                "--runs",
                                "N",
                                .integer(1...1_000),
                                help: "timed runs after the warm-up, of which the median is shown "
                                    + "(default 15; the floor and the full parse take turns)"
                            ),
                        ],
                        body: { arguments throws(UsageError) in
                            ParseBenchmark.run(
                                only: arguments.string("--only"),
                                runs: arguments.integer("--runs") ?? ParseBenchmark.runs
                            )
                            return ExitStatus.ok
                        }
                    ),
                    benchmark(
                        "ingest",
                        "store 20 000 notices into a fresh SQLite file, then again unchanged, beside raw sqlite3",
                        IngestBenchmark.run
                    ),
                    Command(
                        "varlink",
                        abstract:
                            "small-call round trips through the Varlink server and client, beside a raw Unix-socket echo",
                        options: [callsOption],
                        body: { arguments throws(UsageError) in
                            VarlinkBenchmark.run(calls: arguments.integer("--calls") ?? VarlinkBenchmark.calls)
                            return ExitStatus.ok
                        }
                    ),
                    Command(
                        "serve",
                        abstract: """
                            GetManifest through the daemon's service and socket (small and full; quiet and beside a \
                            busy loop), push to 1 000 subscribers, idle CPU and RSS, beside a raw echo and a raw \
                            fan-out; then the RSS of a separate homefeedd idle with 100 000 notices stored
                            """,
                        options: [
                            callsOption, idleSecondsOption, daemonOption,
                            .flag(
                                "--only-calls",
                                help: """
                                    only the small call, quiet (for a profiler: valgrind --tool=callgrind \
                                    --toggle-collect='*EventLoopC9runThread*' counts the loop thread)
                                    """
                            ),
                            .flag(
                                "--floors",
                                help: """
                                    with --only-calls: also the call with a busy loop on the other core, each beside \
                                    the blocking and the epoll echo floors under the same load (not for a profiler)
                                    """
                            ),
                            .flag(
                                "--only-push",
                                help: """
                                    only RecordHistory and the push to 1 000 subscribers (for a profiler)
                                    """
                            ),
                        ],
                        body: { arguments throws(UsageError) in
                            ServeBenchmark.run(
                                calls: arguments.integer("--calls") ?? 100_000,
                                idleSeconds: arguments.integer("--idle-seconds") ?? 60,
                                daemon: arguments.string("--daemon"),
                                onlyCalls: arguments.has("--only-calls"),
                                withFloors: arguments.has("--floors"),
                                onlyPush: arguments.has("--only-push")
                            )
                            return ExitStatus.ok
                        }
                    ),
                    Command(
                        "memory",
                        abstract: "the RSS of a separate homefeedd idle with 100 000 notices stored (the end of serve)",
                        options: [idleSecondsOption, daemonOption],
                        body: { arguments throws(UsageError) in
                            DaemonMemoryBenchmark.run(
                                idleSeconds: arguments.integer("--idle-seconds") ?? 60,
                                daemon: arguments.string("--daemon")
                            )
                            return ExitStatus.ok
                        }
                    ),
                    benchmark(
                        "fetch",
                        """
                        200 HTTP sources on a loopback server, first fetch and revalidation, beside the curl CLI \
                        with --parallel; peak RSS under a gzip bomb and CPU over a 5 s stall
                        """,
                        FetchBenchmark.run
                    ),
                    benchmark(
                        "images",
                        """
                        100 JPEG and PNG originals of 1-4 MP to a phone and a tablet rendition each through \
                        homefeed-thumbnail, beside vipsthumbnail making the same renditions
                        """,
                        ImagesBenchmark.run
                    ),
                    benchmark(
                        "text",
                        """
                        Pango text measurement: fontconfig set-up, a title measured and cached, and the sample \
                        home screen's first version with its headline measured and without
                        """,
                        TextBenchmark.run
                    ),
                    Command(
                        "corpus",
                        abstract: """
                            every document of the conformance corpora through the parser, the slowest beside the \
                            raw libxml2 floor, and the agreement with the corpus's expectations
                            """,
                        options: [
                            .value(
                                "--corpora",
                                "DIR",
                                .directory,
                                help: "where the corpora are (default ../shared/corpora)"
                            ),
                            .flag("--verbose", help: "list every expectation that does not hold"),
                        ],
                        body: { arguments throws(UsageError) in
                            CorpusBenchmark.run(
                                corpora: arguments.string("--corpora") ?? "../shared/corpora",
                                verbose: arguments.has("--verbose")
                            )
                            return ExitStatus.ok
                        }
                    ),
                    Command(
                        "all",
                        abstract: """
                            every benchmark (not corpus, which needs the corpora), each in a process of its own
                            """,
                        options: [specOption, daemonOption],
                        body: { arguments throws(UsageError) in
                            let daemon = arguments.string("--daemon").map { ["--daemon", $0] } ?? []
                            for benchmark in [
                                ["layout", "--spec", spec(arguments)], ["parse"], ["ingest"], ["varlink"],
                                ["serve"] + daemon, ["fetch"], ["images"], ["text"],
                            ] {
                                Measure.runSeparately(benchmark)
                            }
                            return ExitStatus.ok
                        }
                    ),
                ]
            ),
            CommandGroup("run by a benchmark in a new process", [TextBenchmark.probeCommand]),
        ],
        examples: [
            "swift run -c release homefeed-bench layout", "swift run -c release homefeed-bench serve --idle-seconds 10",
        ]
    )

    static let specOption = Option.value(
        "--spec",
        "FILE",
        .file,
        help: "the home screen's layout spec (default feeds/layout.json)"
    )

    static let callsOption = Option.value("--calls", "N", .integer(1...Int.max), help: "calls to make (default 100000)")

    static let idleSecondsOption = Option.value(
        "--idle-seconds",
        "N",
        .integer(0...Int.max),
        help: "how long idle CPU and RSS are watched (default 60)"
    )

    static let daemonOption = Option.value(
        "--daemon",
        "PATH",
        .file,
        help: "the homefeedd to start for the memory figure (default: the one next to this executable)"
    )

    static func spec(_ arguments: ParsedArguments) -> String {
        arguments.string("--spec") ?? "feeds/layout.json"
    }

    /// A benchmark that takes no options.
    static func benchmark(_ name: String, _ abstract: String, _ run: @escaping @Sendable () -> Void) -> Command {
        Command(name, abstract: abstract) { _ throws(UsageError) in
            run()
            return ExitStatus.ok
        }
    }

    static func main() {
        exit(command.run(Array(CommandLine.arguments.dropFirst())))
    }
}

/// Timing helpers shared by the benchmarks.
enum Measure {
    /// Median wall time of `runs` calls of `body`, in nanoseconds, after one warm-up call.
    static func median(runs: Int, _ body: () -> Void) -> Double {
        body()
        let clock = ContinuousClock()
        var samples: [Double] = []
        samples.reserveCapacity(runs)
        for _ in 0..<runs {
            samples.append(milliseconds(clock.measure(body)) * 1e6)
        }
        return median(samples)
    }

    /// The middle of `values` (the upper middle of an even count), 0 when there are none.
    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
    }

    /// `duration` in milliseconds.
    static func milliseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1e3 + Double(duration.components.attoseconds) / 1e15
    }

    /// A fresh directory from a `mkdtemp` template (keep it short, straight under /tmp, where
    /// it holds a socket: `sun_path`); ends the benchmark when none can be made.
    static func temporaryDirectory(_ template: String) -> String {
        var bytes = Array(template.utf8CString)
        guard bytes.withUnsafeMutableBufferPointer({ $0.baseAddress.flatMap { mkdtemp($0) } }) != nil else {
            fatal("mkdtemp \(template): errno \(errno)")
        }
        return String(decoding: bytes.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Prints `figure<TAB>value<TAB>unit`.
    static func report(_ figure: String, _ value: Double, _ unit: String) {
        print("\(figure)\t\(String(format: "%.3f", value))\t\(unit)")
    }
}

extension Measure {
    /// Runs async code (a store, a server) from a synchronous benchmark and waits on this
    /// thread, never a cooperative-pool one; a thrown error ends the benchmark.
    @discardableResult
    static func blocking<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) -> T {
        let box = ResultBox<T>()
        let done = DispatchSemaphore(value: 0)
        Task {
            do {
                box.set(.success(try await body()))
            } catch {
                box.set(.failure(error))
            }
            done.signal()
        }
        done.wait()
        switch box.get() {
        case .success(let value)?: return value
        case .failure(let error)?: fatal("\(error)")
        case nil: fatal("benchmark task ended without a result")
        }
    }

    /// Runs `homefeed-bench arguments…` in a new process, its output going where this one's
    /// goes, and waits for it: each benchmark of `all` starts from a fresh heap, with no threads
    /// or pages left by the ones before, as when it runs alone, so that no figure depends on
    /// which benchmarks ran before it.
    static func runSeparately(_ arguments: [String]) {
        fflush(nil)  // what this process printed comes first
        // This executable's own path (not /proc/self/exe), which the benchmarks look beside
        // for homefeedd and homefeed-thumbnail.
        guard let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else {
            fatal("cannot find this executable")
        }
        BenchChild(executable, arguments).waitForSuccess(arguments.joined(separator: " "))
    }

    static func fatal(_ message: String) -> Never {
        FileHandle.standardError.write(Data("homefeed-bench: \(message)\n".utf8))
        exit(1)
    }
}

/// One result handed from a task to the waiting thread. Sendable: guarded by `lock`.
final class ResultBox<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var result: Result<T, any Error>?

    func set(_ value: Result<T, any Error>) {
        lock.lock()
        result = value
        lock.unlock()
    }

    func get() -> Result<T, any Error>? {
        lock.lock()
        defer { lock.unlock() }
        return result
    }
}

extension Measure {
    /// User + system CPU seconds of this process so far (`CLOCK_PROCESS_CPUTIME_ID`).
    static func processCPUSeconds() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }

    /// CPU seconds of the calling thread (`CLOCK_THREAD_CPUTIME_ID`).
    static func threadCPUSeconds() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }

    /// User + system CPU seconds of this process's threads named `name` (at most 15 bytes, as the
    /// kernel keeps it), from /proc/self/task/TID/stat: the server side of a round trip alone.
    static func threadCPUSeconds(named name: String) -> Double {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        var total = 0.0
        for task in tasks {
            guard let stat = try? String(contentsOfFile: "/proc/self/task/\(task)/stat", encoding: .utf8),
                let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")"),
                stat[stat.index(after: open)..<close] == name
            else { continue }
            // Fields after the command name: state is the first; utime and stime are 12th and 13th.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { continue }
            total += (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
        }
        return total
    }
}
