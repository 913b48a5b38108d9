import Foundation
import TestSupport
import Testing
import Varlink

@testable import homefeedctl

/// Columns and boxes stay in line whatever the titles hold: Korean takes two cells a syllable,
/// curly quotes and dashes one, a combining accent none. Table columns counted characters (a
/// Korean source title pushed the titles after it), and the text drawing counted every scalar
/// from U+1100 up as two cells (a curly quote pulled a box's right border left).
@Suite(.timeLimit(.minutes(2)))
struct DisplayWidthTests {
    /// Each title and the cells it takes, counted by hand.
    static let titles = [("Don’t panic — it’s “fine”", 25), ("도서관 좌석 예약", 16), ("Cafe\u{301} menu", 9)]

    @Test(
        "a character takes the cells a terminal gives it",
        arguments: [
            ("도", 2), ("中", 2), ("Ａ", 2), ("😀", 2), ("👍🏻", 2), ("’", 1), ("—", 1), ("e\u{301}", 1), ("a", 1),
            ("\u{200B}", 0), ("\u{301}", 0),
        ] as [(Character, Int)]
    )
    func character(_ character: Character, _ cells: Int) {
        #expect(DisplayWidth.cells(character) == cells)
    }

    /// Runs homefeedctl against a fake daemon answering `method` with `reply`.
    func run(_ words: [String], _ method: String, _ reply: [String: JSONValue]) async throws -> CommandRunner.Outcome {
        let daemon = try FakeDaemon([method: VarlinkMethod { _ in .parameters(reply) }])
        let outcome = await offPool {
            Result { try CommandRunner(executable: "homefeedctl").run(words + ["--socket", daemon.socket]) }
        }
        await daemon.shutdown()
        return try outcome.get()
    }

    @Test("notices: the title column starts at the same cell after Korean, curly quotes and a combining accent")
    func tableColumns() async throws {
        let sources = [("도서관", 6), ("It’s “ok”", 9), ("Cafe\u{301}", 4)]
        let notices: [JSONValue] = sources.map {
            ["published": "2026-01-02T03:04:05Z", "sourceTitle": .string($0.0), "title": "x"]
        }
        let outcome = try await run(["notices"], "ListNotices", ["notices": .array(notices)])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let expected = sources.map { "2026-01-02T03:04:05Z  \($0.0)" + String(repeating: " ", count: 16 - $0.1) + "x" }
        #expect(outcome.stdout.split(separator: "\n").map(String.init) == expected)
    }

    @Test("preview: every box's right border is in the same column, whatever its title")
    func previewBorders() async throws {
        let items: [JSONValue] = Self.titles.enumerated().map { index, title in
            [
                "kind": "notice", "frame": ["x": 0, "y": .int(index * 100), "width": 375, "height": 100],
                "content": ["title": .string(title.0)],
            ]
        }
        let reply: [String: JSONValue] = [
            "version": 1, "etag": "e",
            "manifest": [
                "container": ["width": 375, "height": 812, "scale": 2], "contentSize": ["width": 375, "height": 300],
                "sections": [["id": "s", "items": .array(items)]],
            ],
        ]
        let outcome = try await run(["preview", "--columns", "40"], "GetManifest", reply)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let lines = outcome.stdout.split(separator: "\n").map(String.init)
        // 40 columns: a box 375 points wide spans columns 0-38, its title 37 cells between borders.
        for (title, cells) in Self.titles {
            let line = lines.first { $0.contains(title) }
            #expect(line == "|" + title + String(repeating: " ", count: 37 - cells) + "|")
        }
    }
}
