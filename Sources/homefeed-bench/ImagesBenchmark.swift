import Foundation
import Glibc
import HomeDaemon
import SystemCalls
import ThumbnailProtocol

/// `homefeed-bench images`: 100 photos and graphics of 1 to 4 megapixels (JPEG and PNG,
/// generated with the `vips` CLI) through `homefeed-thumbnail` to a phone and a tablet
/// rendition each, beside `vipsthumbnail` making the same renditions of the same files in the
/// same run.
///
/// Both make WebP (Q 80, stripped) at the same boxes with a centre crop (aspect fill). The
/// helper decodes each original once for both boxes, as the daemon asks it to;
/// `vipsthumbnail` makes one box per run, so it decodes each file twice. The one-box figures
/// compare one decode and one rendition each. Each side runs twice and the faster run counts
/// (a shared machine).
enum ImagesBenchmark {
    /// The main-service card (162 × 192 points) at 3x, and its tablet variant (378 × 260) at 2x.
    static let phone: Box = (486, 576)
    static let tablet: Box = (756, 520)
    static let sizes = [(1000, 1000), (1280, 960), (1600, 1200), (2000, 1500), (2300, 1700)]

    typealias Box = (width: Int, height: Int)

    static func run() {
        guard let vips = executable("vips"), let vipsthumbnail = executable("vipsthumbnail") else {
            Measure.fatal("images: needs the vips and vipsthumbnail commands (Debian libvips-tools)")
        }
        let directory = "/tmp/hf-bench-images-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let files = generate(in: directory, vips: vips)
        let helper = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("homefeed-thumbnail").path

        // Fastest of two rounds, by number of boxes (2: phone and tablet; 1: phone alone).
        var helperSeconds: [Int: Double] = [:]
        var vipsSeconds: [Int: Double] = [:]
        var helperPeakKiB = 0
        var vipsPeakKiB = 0
        for round in 0..<2 {
            for boxes in [[phone, tablet], [phone]] {
                let out = "\(directory)/helper-\(round)-\(boxes.count)"
                mkdir(out, 0o755)
                let (seconds, outcome) = timeHelper(files, boxes: boxes, helper: helper, out: out)
                helperSeconds[boxes.count] = min(helperSeconds[boxes.count] ?? .infinity, seconds)
                helperPeakKiB = max(helperPeakKiB, outcome.helperPeakResidentKiB)
                let made = outcome.results.values.filter { if case .success(.made) = $0 { true } else { false } }.count
                guard made == files.count else { Measure.fatal("images: the helper made \(made) of \(files.count)") }
                let vipsOut = "\(directory)/vips-\(round)-\(boxes.count)"
                mkdir(vipsOut, 0o755)
                let (vipsRun, peak) = timeVipsthumbnail(files, boxes: boxes, vipsthumbnail: vipsthumbnail, out: vipsOut)
                vipsSeconds[boxes.count] = min(vipsSeconds[boxes.count] ?? .infinity, vipsRun)
                vipsPeakKiB = max(vipsPeakKiB, peak)
            }
        }
        let two = (helper: helperSeconds[2] ?? .infinity, vips: vipsSeconds[2] ?? .infinity)
        let one = (helper: helperSeconds[1] ?? .infinity, vips: vipsSeconds[1] ?? .infinity)
        let renditions = Double(files.count * 2)
        Measure.report("images.renditions_per_s", renditions / two.helper, "renditions/s")
        Measure.report("images.helper_peak_rss_mb", Double(helperPeakKiB) / 1024, "MB")
        Measure.report("images.vipsthumbnail_per_s", renditions / two.vips, "renditions/s")
        Measure.report("images.vipsthumbnail_peak_rss_mb", Double(vipsPeakKiB) / 1024, "MB")
        // The goal is at most 1.5: the helper taking no more than 1.5 times vipsthumbnail's time.
        Measure.report("images.helper_time_vs_vipsthumbnail", two.helper / two.vips, "x")
        Measure.report("images.one_box_renditions_per_s", Double(files.count) / one.helper, "renditions/s")
        Measure.report("images.one_box_vipsthumbnail_per_s", Double(files.count) / one.vips, "renditions/s")
        print(
            "images: \(files.count) originals of 1-4 MP → \(Int(renditions)) WebP renditions "
                + "(\(phone.width)×\(phone.height), \(tablet.width)×\(tablet.height) fill): homefeed-thumbnail "
                + String(format: "%.2f s, vipsthumbnail %.2f s (goal: within 1.5x); ", two.helper, two.vips)
                + String(format: "one box each: %.2f s and %.2f s", one.helper, one.vips)
        )
    }

    /// 100 files: 5 sizes × JPEG and PNG, each made once with `vips` and copied 10 times.
    private static func generate(in directory: String, vips: String) -> [String] {
        mkdir(directory, 0o755)
        var bases: [String] = []
        for (index, (width, height)) in sizes.enumerated() {
            let stem = "\(directory)/base-\(index)"
            // Two gradients and a ripple: smooth like photos and graphics, so PNGs stay small.
            let steps: [[String]] = [
                ["xyz", "\(stem)-xy.v", "\(width)", "\(height)"],
                ["extract_band", "\(stem)-xy.v", "\(stem)-x.v", "0"],
                ["extract_band", "\(stem)-xy.v", "\(stem)-y.v", "1"],
                ["linear", "\(stem)-x.v", "\(stem)-r.v", "\(255.0 / Double(width))", "0", "--uchar"],
                ["linear", "\(stem)-y.v", "\(stem)-g.v", "\(255.0 / Double(height))", "0", "--uchar"],
                ["linear", "\(stem)-x.v", "\(stem)-s.v", "0.05", "\(index)"],
                ["math", "\(stem)-s.v", "\(stem)-sin.v", "sin"],
                ["linear", "\(stem)-sin.v", "\(stem)-b.v", "100", "128", "--uchar"],
                ["bandjoin", "\(stem)-r.v \(stem)-g.v \(stem)-b.v", "\(stem)-rgb.v"],
                ["copy", "\(stem)-rgb.v", "\(stem).jpg[Q=85,strip]"],
                ["copy", "\(stem)-rgb.v", "\(stem).png[compression=6,strip]"],
            ]
            for step in steps { shell(vips, step) }
            bases += ["\(stem).jpg", "\(stem).png"]
        }
        var files: [String] = []
        for copy in 0..<10 {
            for base in bases {
                let name = "\(directory)/img-\(copy)-\(URL(fileURLWithPath: base).lastPathComponent)"
                _ = try? FileManager.default.copyItem(atPath: base, toPath: name)
                files.append(name)
            }
        }
        return files
    }

    private static func timeHelper(_ files: [String], boxes: [Box], helper: String, out: String) -> (
        Double, ThumbnailRenderer.Outcome
    ) {
        let renderer = ThumbnailRenderer(
            configuration: .init(helperPath: helper, maxInputBytes: 64 << 20, timeout: 120)
        )
        let requests = files.enumerated().map { index, file in
            ThumbnailRequest(
                id: index,
                input: file,
                renditions: boxes.enumerated().map { number, box in
                    RenditionRequest(
                        width: box.width,
                        height: box.height,
                        mode: .fill,
                        format: .webp,
                        output: "\(out)/\(index)-\(number)"
                    )
                }
            )
        }
        let start = ContinuousClock.now
        let outcome = Measure.blocking { await renderer.render(requests) }
        return (seconds(ContinuousClock.now - start), outcome)
    }

    /// One run of `vipsthumbnail` over every file per box; the peak resident set of the larger
    /// (`wait4`).
    private static func timeVipsthumbnail(_ files: [String], boxes: [Box], vipsthumbnail: String, out: String) -> (
        Double, Int
    ) {
        let start = ContinuousClock.now
        var peak = 0
        for (number, box) in boxes.enumerated() {
            peak = max(
                peak,
                shell(
                    vipsthumbnail,
                    [
                        "--size", "\(box.width)x\(box.height)", "--smartcrop", "centre", "-o",
                        "\(out)/%s-\(number).webp[Q=80,strip]",
                    ] + files
                )
            )
        }
        return (seconds(ContinuousClock.now - start), peak)
    }

    /// Runs a command to its end; returns its peak resident set in KiB: its `VmHWM`, polled
    /// every 10 ms while it runs (`wait4`'s `ru_maxrss` would count this process's own peak:
    /// `posix_spawn` runs the child in our address space until `exec`).
    @discardableResult
    private static func shell(_ executable: String, _ arguments: [String]) -> Int {
        let child = BenchChild(executable, arguments)
        var peak = 0
        while true {
            if let text = try? String(contentsOfFile: "/proc/\(child.pid)/status", encoding: .utf8),
                let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
            {
                peak = max(
                    peak,
                    Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? 0
                )
            }
            guard child.isRunning else { break }
            usleep(10_000)
        }
        child.waitForSuccess("\(executable) \(arguments.prefix(3).joined(separator: " "))")
        return peak
    }

    private static func executable(_ name: String) -> String? {
        ["/usr/bin/", "/usr/local/bin/", "/bin/"].map { $0 + name }.first { access($0, X_OK) == 0 }
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
