import Foundation
import Glibc
import TestSupport
import Testing
import ThumbnailProtocol

@testable import HomeDaemon

/// `homefeed-thumbnail` through ``ThumbnailRenderer``: renditions as asked, hostile files
/// refused with a reason each, the helper's limits and descriptors, and a crash or a hang
/// costing one image only.
@Suite(.timeLimit(.minutes(2)))
struct ThumbnailRendererTests {
    static let testsDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    static let images = testsDirectory.deletingLastPathComponent().appendingPathComponent("TestSupport/Fixtures/images")

    static let helperPath = BuiltProducts.path("homefeed-thumbnail")

    let scratch: TemporaryDirectory
    var directory: URL { scratch.url }

    init() throws {
        scratch = try TemporaryDirectory(prefix: "hf-thumb")
    }

    func renderer(_ path: String = ThumbnailRendererTests.helperPath, timeout: Double = 30) -> ThumbnailRenderer {
        ThumbnailRenderer(configuration: .init(helperPath: path, timeout: timeout))
    }

    func file(_ name: String, _ bytes: [UInt8]) throws -> String {
        let url = directory.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }

    static func fixture(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: Self.images.appendingPathComponent(name)))
    }

    func request(_ id: Int, _ input: String, _ boxes: [(Int, Int, RenditionMode)] = []) -> ThumbnailRequest {
        ThumbnailRequest(
            id: id,
            input: input,
            renditions: boxes.enumerated().map { index, box in
                RenditionRequest(
                    width: box.0,
                    height: box.1,
                    mode: box.2,
                    format: .auto,
                    output: directory.appendingPathComponent("out-\(id)-\(index)").path
                )
            }
        )
    }

    @Test("fill cuts to the box, fit keeps the aspect, nothing is enlarged; PNG with alpha, WebP without")
    func renditions() async throws {
        let photo = try file("photo.jpg", try Self.fixture("photo.jpg"))
        let icon = try file("icon.png", try Self.fixture("icon.png"))
        let outcome = await renderer().render([
            request(1, photo, [(32, 32, .fill), (32, 32, .fit), (200, 200, .fit)]),
            request(2, icon, [(16, 16, .fit)]),
        ])
        guard case .success(.made(_, let format, let width, let height, let color, let made))? = outcome.results[1]
        else {
            Issue.record("photo: \(String(describing: outcome.results[1]))")
            return
        }
        #expect(format == "jpeg" && width == 64 && height == 48)
        // 64 × 48 into 32 × 32: fill scales by 32/48 and cuts to 32 × 32; fit scales by 32/64 to
        // 32 × 24; a 200-pixel box keeps 64 × 48 (never enlarged).
        #expect(made.map { [$0.width, $0.height] } == [[32, 32], [32, 24], [64, 48]])
        #expect(made.allSatisfy { $0.format == .webp && $0.bytes > 0 })
        // The fixture's blue channel is 160 everywhere (vips linear 1 160).
        #expect(color.hasSuffix("a0"))
        guard case .success(.made(_, _, _, _, let iconColor, let iconMade))? = outcome.results[2] else {
            Issue.record("icon: \(String(describing: outcome.results[2]))")
            return
        }
        #expect(iconMade.first?.format == .png)
        // The disc is (240, 120, 20) on transparency: weighted by alpha, exactly its colour.
        #expect(iconColor == "#f07814")
        let written = try Data(contentsOf: URL(fileURLWithPath: made[0].output))
        #expect(written.starts(with: Array("RIFF".utf8)))
        #expect(outcome.helpersStarted == 1)
    }

    @Test("an ICO gives its PNG entry; one with BMP entries only is refused")
    func icons() async throws {
        let ico = try file("favicon.ico", try Self.fixture("favicon.ico"))
        // A directory of one 16 × 16 BMP entry (a BITMAPINFOHEADER and nothing else).
        let bmpOnly = try file(
            "bmp.ico",
            [0, 0, 1, 0, 1, 0, 16, 16, 0, 0, 1, 0, 32, 0, 40, 0, 0, 0, 22, 0, 0, 0] + [40]
                + [UInt8](repeating: 0, count: 39)
        )
        let outcome = await renderer().render([request(1, ico, [(16, 16, .fit)]), request(2, bmpOnly)])
        guard case .success(.made(_, let format, let width, _, _, _))? = outcome.results[1] else {
            Issue.record("ico: \(String(describing: outcome.results[1]))")
            return
        }
        #expect(format == "ico" && width == 32)
        #expect(reason(outcome.results[2]) == "ICO without a PNG image (its 1 BMP entries are not decoded)")
    }

    @Test("hostile files: each refused with its reason, in one helper, with a bounded peak")
    func hostile() async throws {
        var photo = try Self.fixture("photo.jpg")
        let truncated = try file("truncated.jpg", Array(photo.prefix(photo.count / 2)))
        photo = try Self.fixture("icon.png")
        // A PNG whose text chunk carries a script: a polyglot.
        let polyglot = try file(
            "polyglot.png",
            Array(photo.prefix(33)) + PNGBytes.chunk("tEXt", Array("c\0<script>alert(1)</script>".utf8))
                + Array(photo.dropFirst(33))
        )
        let cases: [(String, String)] = [
            (
                try file("huge.png", PNGBytes.header(width: 100_000, height: 100_000)),
                "header claims 100000×100000 pixels"
            ),
            (truncated, "Premature end"),
            (try file("frames.gif", GIFBytes.frames(10_000)), "frames, more than 1000; refused"),
            (
                try file(
                    "evil.svg",
                    Array("<svg xmlns=\"http://www.w3.org/2000/svg\"><script>x()</script></svg>".utf8)
                ),
                "SVG is not rendered"
            ),
            (try file("page.png", Array("<!DOCTYPE html><html><body>hi</body></html>".utf8)), "the body is HTML"),
            (polyglot, "also holds HTML (<script), a polyglot"),
            (try file("empty.png", []), "the body is empty"),
        ]
        let outcome = await renderer().render(
            cases.enumerated().map { request($0.offset, $0.element.0, [(64, 64, .fill)]) }
        )
        for (index, expected) in cases.enumerated() {
            let found = reason(outcome.results[index])
            #expect(found?.contains(expected.1) == true, "\(expected.0): \(found ?? "made")")
        }
        // No crash: one helper did it all. Its peak (VmHWM) was 42 MB when measured, libvips and
        // its libraries loaded: nothing was decoded beyond a 64 × 48 JPEG's first rows and one
        // GIF pixel. A decode of the 100 000² header would need 30 GB.
        #expect(outcome.helpersStarted == 1)
        #expect(outcome.helperPeakResidentKiB > 0)
        #expect(outcome.helperPeakResidentKiB < 96 << 10, "helper peak \(outcome.helperPeakResidentKiB) KiB")
        // Nothing written for refused images.
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory.path).allSatisfy { !$0.hasPrefix("out-") }
        )
    }

    @Test("the helper runs with its address-space and CPU limits and none of the daemon's descriptors")
    func limitsAndDescriptors() throws {
        // A descriptor the daemon holds without close-on-exec.
        let leaked = open(directory.appendingPathComponent("secret").path, O_CREAT | O_RDWR, 0o600)
        defer { close(leaked) }
        let helper = try ThumbnailHelperProcess.start(
            path: Self.helperPath,
            arguments: ["--max-memory", String(512 << 20), "--cpu-per-image", "7", "--max-cpu", "100"],
            timeout: 30
        ).get()
        defer { helper.kill() }
        #expect(helper.hello.limitsApplied)
        let limits = try String(contentsOfFile: "/proc/\(helper.pid)/limits", encoding: .utf8)
        let lines = limits.split(separator: "\n")
        let address = try #require(lines.first { $0.hasPrefix("Max address space") })
        #expect(
            address.split(separator: " ", omittingEmptySubsequences: true).dropFirst(3).prefix(2) == [
                "536870912", "536870912",
            ]
        )
        let cpu = try #require(lines.first { $0.hasPrefix("Max cpu time") })
        // Soft: the first image's budget; hard: the whole helper's.
        #expect(cpu.split(separator: " ", omittingEmptySubsequences: true).dropFirst(3).prefix(2) == ["7", "100"])
        let descriptors = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(helper.pid)/fd")
        let targets = descriptors.compactMap {
            try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(helper.pid)/fd/\($0)")
        }
        #expect(!targets.contains { $0.hasSuffix("/secret") })
    }

    @Test("a crash, a hang and garbage each fail their image only; a fresh helper takes the rest")
    func isolation() async throws {
        let fake = Self.testsDirectory.appendingPathComponent("Fixtures/fake_thumbnail_helper.py").path
        let names = ["ok-1", "crash", "ok-2", "hang", "ok-3", "garbage", "ok-4"]
        // 5 s bounds the hang and each fresh helper's hello, which on a machine busy with the
        // whole suite can take a Python start-up longer than a second.
        let outcome = await renderer(fake, timeout: 5).render(
            names.enumerated().map { request($0.offset, "/x/\($0.element)") }
        )
        for (index, name) in names.enumerated() where name.hasPrefix("ok") {
            guard case .success(.made)? = outcome.results[index] else {
                Issue.record("\(name): \(String(describing: outcome.results[index]))")
                continue
            }
        }
        #expect(reason(outcome.results[1])?.contains("killed by signal 11") == true)
        #expect(reason(outcome.results[3]) == "decoding took longer than 5 s; the helper was killed")
        #expect(reason(outcome.results[5])?.contains("thumbnail protocol") == true)
        // One at the start, one after each of the three failures.
        #expect(outcome.helpersStarted == 4)
    }

    @Test("a helper stopped from outside (SIGTERM) fails its image as transient, and no fresh helper takes the rest")
    func stoppedHelper() async throws {
        let fake = Self.testsDirectory.appendingPathComponent("Fixtures/fake_thumbnail_helper.py").path
        let names = ["ok-1", "term", "ok-2"]
        let outcome = await renderer(fake, timeout: 5).render(
            names.enumerated().map { request($0.offset, "/x/\($0.element)") }
        )
        guard case .success(.made)? = outcome.results[0] else {
            Issue.record("ok-1: \(String(describing: outcome.results[0]))")
            return
        }
        guard case .failure(let failure)? = outcome.results[1] else {
            Issue.record("term: \(String(describing: outcome.results[1]))")
            return
        }
        // Not remembered as the image's fault: the pipeline tries it again in a later pass.
        #expect(failure.isTransient)
        #expect(failure.reason == "the helper was killed by signal 15 before it answered")
        #expect(outcome.results[2] == nil)
        #expect(outcome.helpersStarted == 1)
    }

    @Test("a rendition that cannot be written is interrupted, not a refused image")
    func unwritableRendition() async throws {
        let icon = try file("icon.png", try Self.fixture("icon.png"))
        let unwritable = RenditionRequest(
            width: 16,
            height: 16,
            mode: .fit,
            format: .png,
            output: "/proc/hf-none/out.png"
        )
        let outcome = await renderer().render([ThumbnailRequest(id: 1, input: icon, renditions: [unwritable])])
        guard case .success(.interrupted(1, let reason))? = outcome.results[1] else {
            Issue.record("expected interrupted: \(String(describing: outcome.results[1]))")
            return
        }
        #expect(reason.hasPrefix("png save failed"))
        // An original the helper cannot open is the same: the file, not the image.
        let gone = await renderer().render([request(2, directory.appendingPathComponent("gone.png").path)])
        guard case .success(.interrupted(2, let missing))? = gone.results[2] else {
            Issue.record("expected interrupted: \(String(describing: gone.results[2]))")
            return
        }
        #expect(missing.hasPrefix("cannot open the original"))
    }

    @Test("the helper's whole CPU budget covers every image of its batch, however large the batch")
    func cpuBudgetFollowsBatch() throws {
        func maxCPU(batch: Int) throws -> String? {
            let arguments = ThumbnailRenderer.Configuration(helperPath: "h", cpuSecondsPerImage: 20, batchSize: batch)
                .arguments
            let index = try #require(arguments.firstIndex(of: "--max-cpu"))
            return arguments[index + 1]
        }
        #expect(try maxCPU(batch: 16) == "380")
        // 200 images at 20 s each: a limit of 64 images' worth would kill the helper mid-batch.
        #expect(try maxCPU(batch: 200) == "4060")
    }

    @Test("a helper's pid is forgotten before it is reaped, while the number still names the dead helper")
    func pidForgottenBeforeReap() throws {
        let fake = Self.testsDirectory.appendingPathComponent("Fixtures/fake_thumbnail_helper.py").path
        guard case .success(let helper) = ThumbnailHelperProcess.start(path: fake, arguments: [], timeout: 5) else {
            Issue.record("the fake helper did not start")
            return
        }
        let pid = helper.pid
        var stillOurs: [Bool] = []
        // Until waitpid, the dead helper is a zombie that kill(pid, 0) finds: no other process
        // can have the number yet, so a cancel that read it before this ran killed nothing else.
        helper.beforeReap = { stillOurs.append(kill(pid, 0) == 0) }
        _ = helper.render(request(1, "/x/crash"), timeout: 5)
        #expect(stillOurs == [true])
    }

    @Test("a helper that cannot start fails the batch as transient")
    func missingHelper() async {
        let outcome = await renderer("/nonexistent/homefeed-thumbnail").render([request(1, "/x")])
        guard case .failure(let failure)? = outcome.results[1] else {
            Issue.record("expected a failure")
            return
        }
        #expect(failure.isTransient)
        #expect(failure.reason.contains("cannot start"))
    }

    private func reason(_ result: Result<ThumbnailResponse, ThumbnailRenderer.ImageFailure>?) -> String? {
        switch result {
        case .success(.failed(_, let reason))?: reason
        case .failure(let failure)?: failure.reason
        default: nil
        }
    }
}

/// Hand-made PNG bytes: a signature, chunks with their CRC-32.
enum PNGBytes {
    static func header(width: UInt32, height: UInt32) -> [UInt8] {
        let ihdr = bigEndian(width) + bigEndian(height) + [8, 2, 0, 0, 0]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", ihdr) + chunk("IEND", [])
    }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return bigEndian(UInt32(data.count)) + body + bigEndian(crc32(body))
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}

/// A GIF of `count` frames of one pixel each.
enum GIFBytes {
    static func frames(_ count: Int) -> [UInt8] {
        // Header, a 1 × 1 logical screen with a 2-colour global table (black, white).
        var bytes = Array("GIF89a".utf8) + [1, 0, 1, 0, 0x80, 0, 0, 0, 0, 0, 255, 255, 255]
        // Graphic control extension, image descriptor, LZW minimum code size 2 and one data
        // sub-block (clear, pixel 0, end), block terminator.
        let frame: [UInt8] = [0x21, 0xF9, 4, 0, 1, 0, 0, 0, 0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 0x44, 1, 0]
        for _ in 0..<count { bytes += frame }
        return bytes + [0x3B]
    }
}

extension ThumbnailRendererTests {
    /// A helper that never says hello: it appends its pid to the returned file, then sleeps (as
    /// `sleep`, the same process, so killing the pid ends it and closes its socket).
    func silentHelper() throws -> (path: String, pids: String) {
        let pids = directory.appendingPathComponent("pids").path
        let path = try file("silent-helper", Array("#!/bin/sh\necho $$ >> \(pids)\nexec sleep 600\n".utf8))
        chmod(path, 0o755)
        return (path, pids)
    }

    /// The pids the silent helpers wrote so far.
    func spawned(_ pids: String) -> [pid_t] {
        ((try? String(contentsOfFile: pids, encoding: .utf8)) ?? "").split(separator: "\n").compactMap { pid_t($0) }
    }

    @Test("cancelling a batch kills a helper that has not said hello yet: the stop waits for no hello timeout")
    func cancellationBeforeHello() async throws {
        let (path, pids) = try silentHelper()
        let renderer = renderer(path, timeout: 60)
        let task = Task { await renderer.render([request(0, "/x/a"), request(1, "/x/b")]) }
        // Until the helper runs (bounded): the cancel must find it waiting for its hello.
        var waits = 0
        while spawned(pids).isEmpty, waits < 3_000 {
            try await Task.sleep(for: .milliseconds(10))
            waits += 1
        }
        let pid = try #require(spawned(pids).first)
        task.cancel()
        let outcome = await task.value
        // Killed by the cancel: a start that ran into its hello timeout instead would have failed
        // both images as transient.
        #expect(outcome.results.isEmpty)
        #expect(outcome.helpersStarted == 0)
        // Reaped, too: the pid names no process.
        #expect(kill(pid, 0) == -1 && errno == ESRCH)
    }

    @Test("a helper that never says hello costs one start: the rest of the batch is transient without another")
    func silentHelperStartsOnce() async throws {
        let (path, pids) = try silentHelper()
        let outcome = await renderer(path, timeout: 1).render((0..<3).map { request($0, "/x/\($0)") })
        for id in 0..<3 {
            guard case .failure(let failure)? = outcome.results[id] else {
                Issue.record("\(id): \(String(describing: outcome.results[id]))")
                continue
            }
            #expect(failure.isTransient)
            #expect(failure.reason == "the thumbnail helper cannot start: no hello within 1.0 s")
        }
        #expect(spawned(pids).count == 1)
    }

    @Test("cancelling a batch kills the helper in flight; the rest get no result")
    func cancellation() async throws {
        let fake = Self.testsDirectory.appendingPathComponent("Fixtures/fake_thumbnail_helper.py").path
        let renderer = renderer(fake, timeout: 60)
        let requests = ["ok-1", "hang", "ok-2"].enumerated().map { request($0.offset, "/x/\($0.element)") }
        let task = Task { await renderer.render(requests) }
        // Give the helper time to take the hanging request; the cancel does not depend on it.
        try await Task.sleep(for: .milliseconds(500))
        task.cancel()
        let outcome = await task.value
        #expect(outcome.results[2] == nil)
        #expect(outcome.results[1] == nil)
    }
}
