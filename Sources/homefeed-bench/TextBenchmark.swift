import CommandTable
import Foundation
import HomeDaemon
import LogCore
import SystemCalls
import TextMeasure

/// `homefeed-bench text`: measuring text with Pango (issue 11).
///
/// Figures: loading fontconfig, Pango and one font (`text.init_ms`, a new measurer's first
/// measurement); a title not measured before (`text.measure_cold_us`) and one answered by the
/// cache (`text.measure_cached_ns`), per title; the sample home screen's first version at start
/// (the store already filled, as after a restart) with the headline measured and without,
/// started as homefeedd starts (the measurer warming up while the configuration and the store
/// are read). Goal: the first version with measured text at most 5 ms more than without.
/// Floor: the same start without text slots, measured in the same run.
enum TextBenchmark {
    static let style = TextStyle(font: "NanumGothic Bold 17", lineSpacing: 1.3, maxLines: 2)

    static func run() {
        var summary: [String] = []
        // Process-cold figures come from fresh processes (`text-probe`): Pango and fontconfig
        // set up once per process, which a daemon pays at every start.
        let initTime = Measure.median((0..<5).map { _ in probe(["init"]) })
        Measure.report("text.init_ms", initTime, "ms")
        summary.append(String(format: "fontconfig + Pango + first font, in a new process: %.1f ms", initTime))

        let measurer = TextMeasurer()
        _ = try? measurer.measure("공지사항", style: style, width: 335)
        let titles = (0..<200).map { "2026학년도 겨울 계절학기 수강신청 안내 \($0)번: 도서관 시험기간 24시간 개방 & 좌석 예약 변경" }
        let cold = Measure.median(runs: 9) {
            measurer.removeCachedMeasurements()
            for title in titles { _ = try? measurer.measure(title, style: style, width: 335) }
        }
        Measure.report("text.measure_cold_us", cold / Double(titles.count) / 1_000, "us")
        let cached = Measure.median(runs: 9) {
            for title in titles { _ = try? measurer.measure(title, style: style, width: 335) }
        }
        Measure.report("text.measure_cached_ns", cached / Double(titles.count), "ns")
        summary.append(
            String(
                format: "per title: %.1f µs measured, %.0f ns cached",
                cold / Double(titles.count) / 1_000,
                cached / Double(titles.count)
            )
        )

        let (measured, plain) = firstVersions(runs: 21)
        Measure.report("text.first_version_ms", measured, "ms")
        Measure.report("text.first_version_plain_ms", plain, "ms")
        Measure.report("text.first_version_extra_ms", measured - plain, "ms")
        summary.append(
            String(
                format: "first version of a new process: %.2f ms with the headline measured, %.2f ms without "
                    + "text slots (floor): +%.2f ms (goal ≤ 5 ms)",
                measured,
                plain,
                measured - plain
            )
        )
        print(summary.joined(separator: "\n"))
    }

    /// Medians of the start-to-first-version time in new processes, with the sample's
    /// `text = 0:headline` and without, alternating, on stores filled beforehand (as a restarted
    /// daemon finds them).
    static func firstVersions(runs: Int) -> (measured: Double, plain: Double) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("hf-text-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let measuredConfig = root.appendingPathComponent("measured")
        let plainConfig = root.appendingPathComponent("plain")
        do {
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: URL(fileURLWithPath: "feeds"), to: measuredConfig)
            try FileManager.default.copyItem(at: URL(fileURLWithPath: "feeds"), to: plainConfig)
            let settings = plainConfig.appendingPathComponent("homefeedd.conf")
            let text = try String(contentsOf: settings, encoding: .utf8)
            guard text.contains("text = 0:headline\n") else { Measure.fatal("feeds/homefeedd.conf measures no slot") }
            try text.replacingOccurrences(of: "text = 0:headline\n", with: "")
                .write(to: settings, atomically: true, encoding: .utf8)
        } catch {
            Measure.fatal("copy feeds/: \(error.localizedDescription) (run from the package root)")
        }
        for config in [measuredConfig, plainConfig] { _ = probe(["start", config.path, "--refresh"]) }
        var measured: [Double] = []
        var plain: [Double] = []
        for _ in 0..<runs {
            measured.append(probe(["start", measuredConfig.path]))
            plain.append(probe(["start", plainConfig.path]))
        }
        return (Measure.median(measured), Measure.median(plain))
    }

    /// `homefeed-bench text-probe init | start CONFIG [--refresh]`, run in a new process by
    /// ``run()``: prints the milliseconds of a new measurer's first measurement, or of homefeedd's
    /// start up to its first version.
    static let probeCommand = Command(
        "text-probe",
        abstract: "one cold measurement of homefeed-bench text, in this process (prints milliseconds)",
        subcommands: [
            CommandGroup([
                Command("init", abstract: "a new text measurer's first measurement") { _ throws(UsageError) in
                    let elapsed = ContinuousClock().measure {
                        _ = try? TextMeasurer().measure("공지사항", style: style, width: 335)
                    }
                    print(Measure.milliseconds(elapsed))
                    return ExitStatus.ok
                },
                Command(
                    "start",
                    abstract: "homefeedd's start up to its first version, with the configuration in CONFIG",
                    arguments: [Argument("CONFIG", .directory, help: "a configuration directory (a copy of feeds/)")],
                    options: [.flag("--refresh", help: "then fetch the samples into the store")],
                    body: { arguments throws(UsageError) in
                        print(start(config: arguments.positionals[0], refresh: arguments.has("--refresh")))
                        return ExitStatus.ok
                    }
                ),
            ])
        ]
    )

    /// Milliseconds from homefeedd's start to its first version: the measurer warming up while
    /// the configuration and the store are read, as `DaemonRunner.startTextMeasurer` starts it.
    static func start(config path: String, refresh: Bool) -> Double {
        let clock = ContinuousClock()
        let config = URL(fileURLWithPath: path)
        return Measure.blocking { () -> Double in
            let begin = clock.now
            let options = try DaemonOptions(
                arguments: ["--config", config.path, "--cache-dir", config.appendingPathComponent("cache").path],
                environment: [:]
            )
            let measurer = DaemonRunner.startTextMeasurer(options)
            let configuration = try await LoadedConfiguration.load(directory: config)
            let state = config.appendingPathComponent("state")
            for directory in [state, options.cacheDirectory] {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            }
            // Images on, as homefeedd runs: the first version must not wait for them.
            let service = try await HomeService(
                configuration: configuration,
                stateDirectory: state,
                cacheDirectory: options.cacheDirectory,
                logger: Logger(label: "bench", level: .error, sink: { _ in }),
                textMeasurer: measurer
            )
            let elapsed = Measure.milliseconds(clock.now - begin)
            if refresh { _ = try await service.refresh(url: nil) }
            await service.stop()
            return elapsed
        }
    }

    /// Runs `text-probe` in a new process and reads the milliseconds it prints.
    static func probe(_ arguments: [String]) -> Double {
        let probe = BenchChild(
            URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.path,
            ["text-probe"] + arguments,
            stdout: .pipe
        )
        let data = probe.readOutput()
        guard probe.wait() == .exited(0),
            let value = Double(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
        else { Measure.fatal("text-probe \(arguments.joined(separator: " ")) failed") }
        return value
    }
}
