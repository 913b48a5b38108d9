import Foundation
import FoundationXML
import TestSupport
import Testing

/// `homefeedctl preview` drawing manifests the real daemon never serves, from ``FakeDaemon``: a
/// number it cannot draw is an error naming its JSON path, far-off frames are clamped, and the
/// text drawing has at most `PreviewCommand.maxRows` rows. Each of these trapped in `Int(_:)`, or
/// sized a canvas by the content height alone.
@Suite(.timeLimit(.minutes(2)))
struct PreviewTests {
    /// A manifest of one section whose items have these frames (`{"x": …, "y": …, …}` texts).
    static func manifest(width: String = "375", height: String = "100", frames: [String] = []) -> String {
        let items = frames.map { #"{"kind": "notice", "frame": \#($0), "content": {"title": "t"}}"# }
        return #"""
            {"container": {"width": \#(width), "height": 812, "scale": 2}, "contentSize": {"width": 375, "height": \#(height)}, \#
            "sections": [{"id": "s", "items": [\#(items.joined(separator: ", "))]}]}
            """#
    }

    static let frame = #"{"x": 0, "y": 0, "width": 100, "height": 40}"#

    /// Runs `preview` (80 columns, plus `extra`) against a fake daemon serving `manifest`.
    func preview(_ manifest: String, _ extra: [String] = []) async throws -> CommandRunner.Outcome {
        let daemon = try FakeDaemon(manifest: manifest)
        let outcome = await offPool {
            Result { try CommandRunner(executable: "homefeedctl").run(["preview", "--socket", daemon.socket] + extra) }
        }
        await daemon.shutdown()
        return try outcome.get()
    }

    @Test(
        "a number the preview cannot draw is an error naming it, exit 1",
        arguments: [
            (manifest(width: "0"), "manifest.container.width: expected a width of at least 1 point, got 0"),
            (manifest(width: "1e999"), "manifest.container.width: expected a finite number, got inf"),
            (
                manifest(frames: [frame, #"{"x": -1e999, "y": 0, "width": 10, "height": 10}"#]),
                "manifest.sections[0].items[1].frame.x: expected a finite number, got -inf"
            ),
            (manifest(height: "1e400"), "manifest.contentSize.height: expected a finite number, got inf"),
        ]
    )
    func refused(_ manifest: String, _ message: String) async throws {
        for extra in [["--columns", "80"], ["--svg", "/nonexistent/never-written.svg"]] {
            let outcome = try await preview(manifest, extra)
            #expect(outcome.status == 1)
            #expect(outcome.stdout.isEmpty)
            #expect(outcome.stderr == "homefeedctl: \(message)\n")
        }
    }

    @Test("a frame far off the screen is drawn clipped, in text and SVG")
    func farOff() async throws {
        let scratch = try TemporaryDirectory(prefix: "hf-preview")
        let manifest = Self.manifest(frames: [Self.frame, #"{"x": 1e30, "y": -1e300, "width": 1e300, "height": 10}"#])
        let text = try await preview(manifest, ["--columns", "80"])
        #expect(text.status == 0, "\(text.stderr)")
        // The summary line, then at most 12 rows (100 points at 79/375 columns a point, halved,
        // and one), the first box's top edge at the left; the other box is off the canvas.
        let lines = text.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count <= 1 + 12)
        #expect(lines.dropFirst().first?.hasPrefix("+-") == true)
        let svg = try await preview(manifest, ["--svg", scratch.file("p.svg")])
        #expect(svg.status == 0, "\(svg.stderr)")
        let drawn = try String(contentsOfFile: scratch.file("p.svg"), encoding: .utf8)
        #expect(drawn.hasPrefix(#"<svg xmlns="http://www.w3.org/2000/svg" width="1000000000000000" height="116""#))
    }

    @Test(
        "--svg /dev/full stays a device, and the full disk is the error, exit 1",
        .enabled(if: FileManager.default.fileExists(atPath: "/dev/full"), "no /dev/full here")
    )
    func fullDevice() async throws {
        let outcome = try await preview(Self.manifest(frames: [Self.frame]), ["--svg", "/dev/full"])
        #expect(outcome.status == 1)
        #expect(outcome.stderr == "homefeedctl: /dev/full: cannot write: No space left on device\n")
        #expect(outcome.stdout.isEmpty)
        var status = stat()
        #expect(lstat("/dev/full", &status) == 0 && status.st_mode & S_IFMT == S_IFCHR)
    }

    @Test("a title with characters XML forbids gives an SVG that parses, each of them replaced by U+FFFD")
    func forbiddenCharacters() async throws {
        let scratch = try TemporaryDirectory(prefix: "hf-preview")
        let title = #"a\u0001b\u0007c\u001bd\be\u000bf\fg\ufffeh\uffffi\tj&<k>\""#
        // A box as wide as the screen: the label is cut at a character per 7 points.
        let wide = #"{"x": 0, "y": 0, "width": 375, "height": 40}"#
        let manifest = Self.manifest(frames: [wide]).replacingOccurrences(
            of: #""title": "t""#,
            with: #""title": "\#(title)""#
        )
        let outcome = try await preview(manifest, ["--svg", scratch.file("p.svg")])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let data = try Data(contentsOf: URL(fileURLWithPath: scratch.file("p.svg")))
        // XMLParser stops at the first character XML forbids; XMLDocument recovers, dropping it.
        let parser = XMLParser(data: data)
        #expect(parser.parse(), "\(String(describing: parser.parserError))")
        let document = try XMLDocument(data: data)
        let texts = try document.nodes(forXPath: "//*[local-name()='text']").map(\.stringValue)
        #expect(texts == ["a\u{FFFD}b\u{FFFD}c\u{FFFD}d\u{FFFD}e\u{FFFD}f\u{FFFD}g\u{FFFD}h\u{FFFD}i\tj&<k>\""])
    }

    @Test("every row of the text drawing is printed, a blank last one too")
    func blankLastRow() async throws {
        // 100 points at 79/375 columns a point, halved, and one: 12 rows, the box in the first 5.
        let outcome = try await preview(Self.manifest(frames: [Self.frame]), ["--columns", "80"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let lines = outcome.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.last == "")
        #expect(lines.dropLast().count == 1 + 12, "\(outcome.stdout)")
        #expect(lines.dropLast().last == "")
    }

    @Test("a screen taller than 2000 rows is cut there, with a line saying so")
    func rowCap() async throws {
        // 100 000 points at 79/375 columns a point, halved: 10 535 rows.
        let outcome = try await preview(Self.manifest(height: "100000", frames: [Self.frame]), ["--columns", "80"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let lines = outcome.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == 1 + 2_000 + 1)
        #expect(lines.last == "[cut at 2000 rows of 10535; a smaller --columns draws more of the screen]")
    }
}
