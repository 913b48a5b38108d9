import Foundation

/// `homefeed-bench`: measurements, never part of `swift test`.
///
/// Each benchmark prints one line per figure, `figure<TAB>value<TAB>unit`, next to the floor
/// or peer measured in the same run, then a short human summary. Run in release:
/// `swift run -c release homefeed-bench layout`.
@main
enum HomefeedBench {
    static let usage = """
        usage: homefeed-bench <layout|parse|ingest|varlink|serve|fetch|images|text|corpus|all> [--spec FILE]
                              [--calls N] [--idle-seconds N] [--corpora DIR] [--verbose]

          layout   solve the home screen (feeds/layout.json) at 375, 390 and 820 wide, and a
                   two-column grid of 10 000 and 100 000 items, beside a raw frame-writing floor
          parse    20 000-item RSS and Atom feeds (~11 MB each): full parse beside the raw libxml2 SAX2 floor
          ingest   store 20 000 notices into a fresh SQLite file, then again unchanged, beside raw sqlite3
          varlink  small-call round trips through the Varlink server and client, beside a raw Unix-socket echo
          serve    GetManifest through the daemon's service and socket (small and full), push to 1 000
                   subscribers, idle CPU and RSS (--idle-seconds N, default 60), beside a raw echo
          fetch    200 HTTP sources on a loopback server, first fetch and revalidation, beside the curl
                   CLI with --parallel; peak RSS under a gzip bomb and CPU over a 5 s stall
          images   100 JPEG and PNG originals of 1-4 MP to a phone and a tablet rendition each through
                   homefeed-thumbnail, beside vipsthumbnail making the same renditions
          text     Pango text measurement: fontconfig set-up, a title measured and cached, and the
                   sample home screen's first version with its headline measured and without
          corpus   every document of ../shared/corpora (--corpora DIR) through the parser, the slowest
                   beside the raw libxml2 floor, and the agreement with the corpus's expectations
                   (--verbose lists what does not hold)
          all      every benchmark (not corpus, which needs the corpora)
        """

    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        guard let name = arguments.first else {
            FileHandle.standardError.write(Data(usage.utf8))
            exit(2)
        }
        var spec = "feeds/layout.json"
        if let index = arguments.firstIndex(of: "--spec"), index + 1 < arguments.count { spec = arguments[index + 1] }
        switch name {
        case "layout":
            LayoutBenchmark.run(specPath: spec)
        case "parse":
            ParseBenchmark.run()
        case "ingest":
            IngestBenchmark.run()
        case "varlink":
            VarlinkBenchmark.run()
        case "serve":
            let idle = arguments.firstIndex(of: "--idle-seconds").flatMap {
                $0 + 1 < arguments.count ? Int(arguments[$0 + 1]) : nil
            }
            let calls = arguments.firstIndex(of: "--calls").flatMap {
                $0 + 1 < arguments.count ? Int(arguments[$0 + 1]) : nil
            }
            ServeBenchmark.run(calls: calls ?? 100_000, idleSeconds: idle ?? 60)
        case "fetch":
            FetchBenchmark.run()
        case "images":
            ImagesBenchmark.run()
        case "text":
            TextBenchmark.run()
        case "text-probe":
            TextBenchmark.probeMain(Array(arguments.dropFirst()))
        case "corpus":
            let corpora = arguments.firstIndex(of: "--corpora").flatMap {
                $0 + 1 < arguments.count ? arguments[$0 + 1] : nil
            }
            CorpusBenchmark.run(corpora: corpora ?? "../shared/corpora", verbose: arguments.contains("--verbose"))
        case "all":
            LayoutBenchmark.run(specPath: spec)
            ParseBenchmark.run()
            IngestBenchmark.run()
            VarlinkBenchmark.run()
            ServeBenchmark.run()
            FetchBenchmark.run()
            ImagesBenchmark.run()
            TextBenchmark.run()
        default:
            FileHandle.standardError.write(Data(usage.utf8))
            exit(2)
        }
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
            let elapsed = clock.measure(body)
            samples.append(Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9)
        }
        samples.sort()
        return samples[samples.count / 2]
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
